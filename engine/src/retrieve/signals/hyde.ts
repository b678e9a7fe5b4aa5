// hyde: a model's hypothetical continuation, when the caller has one (DeepCodeSeek / HyDE; the
// guess is prepared in ../hyde.ts). Engine weight 0: the caller passes its own (RetrieveOptions.hypothetical).
import { hydeList } from '../hyde';
import { defineSignal } from '../signal';

export const hyde = defineSignal({
  name: 'hyde',
  weight: 0,
  // Weighed as the prefix's lexical list is (bm25Score per unit of rank weight), scaled by its own
  // weight, so a caller's `hyde` weight keeps meaning "relative to the prefix's lexical signal".
  scoreTerm: { weight: (w) => w.hyde * w.bm25Score, relative: 'ratio' },
  rank: (ctx) => {
    if (!ctx.q.hypothetical) return undefined;
    const list = hydeList(ctx.index, ctx.q.hypothetical, ctx.depth, ctx.accept);
    ctx.values.set('hyde', list.scores);
    // Its ids are fused from two lists; the score term's best and worst come from the lexical one.
    return { ids: list.ids, scores: list.scores, kept: [...list.scores.keys()] };
  },
});
