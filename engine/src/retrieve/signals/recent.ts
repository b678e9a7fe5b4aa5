// recent: the same BM25 index, query = the last lines only (DeepCodeSeek's trimmed window). Its
// list is also where `next` and `expand` start from, so it is searched once per query and shared.
import { lexicalTerms } from '../../lexical/tokenize';
import { defineSignal, pathLine, scoredList, type RankedList, type SignalContext } from '../signal';

/** The last lines' lexical hits, searched once per query whichever signal asks first. */
export function recentHits(ctx: SignalContext): RankedList {
  return ctx.shared('recent', () => {
    const list = scoredList(ctx.index.lexical.search(ctx.q.prose?.flat() ?? lexicalTerms(pathLine(ctx.q) + ctx.q.trimmed), ctx.depth, ctx.accept));
    ctx.values.set('recent', list.scores!);
    return list;
  });
}

export const recent = defineSignal({
  name: 'recent',
  weight: 1.3,
  core: true,
  scoreTerm: { weight: (w) => w.recentScore, relative: 'ratio' },
  rank: recentHits,
});
