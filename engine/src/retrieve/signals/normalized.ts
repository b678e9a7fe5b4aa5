// normalized: variable-normalised structure trigrams (RETROcode's name normalisation): code that
// does the same thing with other names. On at 0.2; left out of large indexes (PARAMS.md).
import { boundNames, normalizedTerms } from '../../lexical/normalize';
import { defineSignal } from '../signal';

export const normalized = defineSignal({
  name: 'normalized',
  weight: 0.2,
  ablationWeight: 0.4,
  field: 'normalized',
  rank: (ctx) => {
    if (!ctx.index.fields.has('normalized')) return undefined;
    const bound = boundNames(ctx.q.window);
    return { ids: ctx.index.normalized.search(normalizedTerms(ctx.q.trimmed, bound), ctx.depth, ctx.accept).map((x) => x.id) };
  },
});
