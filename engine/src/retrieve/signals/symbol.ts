// symbol: the documents that define identifiers used near the cursor (call-graph adjacency).
import { defineSignal } from '../signal';

/** A name defined in more documents than this says nothing about which one is meant. */
export const MAX_DEFINITIONS_PER_NAME = 4;

export const symbol = defineSignal({
  name: 'symbol',
  weight: 0.25,
  core: true,
  rank: (ctx) => {
    const out: number[] = [];
    const seen = new Set<number>();
    for (const name of ctx.q.identifiers) {
      for (const id of ctx.index.docs.definersOf(name, MAX_DEFINITIONS_PER_NAME)) {
        if (seen.has(id) || (ctx.accept && !ctx.accept(id))) continue;
        seen.add(id);
        out.push(id);
      }
      if (out.length >= ctx.depth) break;
    }
    return { ids: out };
  },
});
