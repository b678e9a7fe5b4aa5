// next: the documents that follow the best matches of the last lines in their files (SelfRACG:
// what comes next). Off by default (PARAMS.md).
import { defineSignal } from '../signal';
import { recentHits } from './recent';

/** Best `recent` matches whose successors are taken. */
const NEXT_FROM = 20;

export const next = defineSignal({
  name: 'next',
  weight: 0,
  ablationWeight: 0.4,
  rank: (ctx) => {
    const out: number[] = [];
    for (const id of recentHits(ctx).ids.filter(ctx.chainable).slice(0, NEXT_FROM)) {
      const succ = ctx.index.docs.successorOf(id);
      if (succ && (!ctx.accept || ctx.accept(succ.id)) && !out.includes(succ.id)) out.push(succ.id);
    }
    return { ids: out };
  },
});
