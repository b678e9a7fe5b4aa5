// dense: the embedding of the trimmed window against the chunks' vectors (CodeRAG's bi-encoder).
import { defineSignal } from '../signal';

export const dense = defineSignal({
  name: 'dense',
  weight: 1,
  core: true,
  scoreTerm: { weight: (w) => w.denseScore, relative: 'difference' },
  rank: (ctx) => {
    const vectors = ctx.index.vectors;
    if (!ctx.qVec || !vectors || vectors.size === 0) return undefined;
    const accept = ctx.accept;
    // The vector search cannot filter, so it looks twice as deep when some ids will be refused.
    const found = vectors.search(ctx.qVec, accept ? ctx.depth * 2 : ctx.depth);
    const scores = new Map(found.map((x) => [x.id, x.score]));
    ctx.values.set('dense', scores);
    return { ids: found.map((r) => r.id).filter((id) => !accept || accept(id)).slice(0, ctx.depth), scores };
  },
});
