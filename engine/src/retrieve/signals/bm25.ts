// bm25: BM25 over identifier sub-tokens, query = the longer prefix window (lexical recall over
// everything in view).
import { lexicalTerms } from '../../lexical/tokenize';
import { defineSignal, pathLine, scoredList } from '../signal';

export const bm25 = defineSignal({
  name: 'bm25',
  weight: 1,
  core: true,
  // Fitted by training/fit-fusion.py (PARAMS.md).
  scoreTerm: { weight: (w) => w.bm25Score, relative: 'ratio' },
  rank: (ctx) => {
    const list = scoredList(ctx.index.lexical.search(ctx.q.prose?.flat() ?? lexicalTerms(pathLine(ctx.q) + ctx.q.window), ctx.depth, ctx.accept));
    ctx.values.set('bm25', list.scores!);
    return list;
  },
});
