// intent: the comment or docstring right above the cursor, searched in the doc field and the code
// field (RETROcode: intent first). Off by default: it did not raise DEV quality (PARAMS.md).
import { lexicalTerms } from '../../lexical/tokenize';
import { defineSignal } from '../signal';

export const intent = defineSignal({
  name: 'intent',
  weight: 0,
  ablationWeight: 0.6,
  field: 'docField',
  rank: (ctx) => {
    if (!ctx.q.intent) return undefined;
    const terms = lexicalTerms(ctx.q.intent);
    const ids = (r: { id: number }[]) => r.map((x) => x.id);
    return { ids: rrfMerge([ids(ctx.index.docField.search(terms, ctx.depth, ctx.accept)), ids(ctx.index.lexical.search(terms, ctx.depth, ctx.accept))]).slice(0, ctx.depth) };
  },
});

/** Plain RRF of several ranked id lists (ties keep the order in which ids were first met). */
function rrfMerge(lists: number[][]): number[] {
  const score = new Map<number, number>();
  for (const l of lists) l.forEach((id, i) => score.set(id, (score.get(id) ?? 0) + 1 / (60 + i)));
  return [...score.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
}
