// expand: the continuation of the best first-round match, searched again (RepoCoder's iterative
// retrieval, a model-free HyDE). Off by default (PARAMS.md).
import { lexicalTerms } from '../../lexical/tokenize';
import { defineSignal, type SignalContext } from '../signal';
import { recentHits } from './recent';

/** Lines of the best match's continuation used as the expansion query. */
const EXPANSION_LINES = 8;

export const expand = defineSignal({
  name: 'expand',
  weight: 0,
  ablationWeight: 0.4,
  rank: (ctx) => {
    if (!ctx.index.textOf) return undefined;
    const from = recentHits(ctx).ids.find(ctx.chainable);
    if (from === undefined) return undefined;
    const continuation = continuationOf(ctx, from);
    if (!continuation) return undefined;
    return { ids: ctx.index.lexical.search(lexicalTerms(continuation), ctx.depth, ctx.accept).map((x) => x.id) };
  },
});

/**
 * The lines that follow, in document `id`, the line most like the last query line: what code
 * like the user's went on to do there (a hypothetical continuation, without a model).
 */
function continuationOf(ctx: SignalContext, id: number): string | undefined {
  const textOf = ctx.index.textOf!;
  const info = ctx.index.docs.get(id);
  const text = info && textOf(info);
  if (!text) return undefined;
  const lastLine = ctx.q.trimmed.split('\n').filter((l) => l.trim()).pop();
  if (!lastLine) return undefined;
  const want = new Set(lexicalTerms(lastLine));
  if (!want.size) return undefined;
  const lines = text.split('\n');
  let best = -1, bestScore = 0;
  lines.forEach((l, i) => {
    const terms = lexicalTerms(l);
    const s = terms.filter((t) => want.has(t)).length / Math.max(want.size, 1);
    if (s > bestScore) { bestScore = s; best = i; }
  });
  if (best < 0 || bestScore < 0.5) return undefined;
  let cont = lines.slice(best + 1, best + 1 + EXPANSION_LINES);
  if (cont.length < EXPANSION_LINES) {
    const succ = ctx.index.docs.successorOf(id);
    const more = succ && ctx.chainable(succ.id) && textOf(succ);
    if (more) cont = cont.concat(more.split('\n').slice(0, EXPANSION_LINES - cont.length));
  }
  const out = cont.join('\n');
  return out.trim() ? out : undefined;
}
