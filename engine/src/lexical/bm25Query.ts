// A BM25 query plan: the query's terms present in live documents, weighted by idf × query tf, each
// with the most it can add to any score, rarest first, cut to the search's postings budget.
import { bm25Idf, liveDf, type Bm25View } from './bm25Stats';

/** A budgeted search keeps at least this many of the query's rarest terms. */
export const MIN_QUERY_TERMS = 8;

export interface QueryTerm {
  tid: number;
  /** idf × query tf. */
  weight: number;
  /** Most this term can add to any document's score. */
  bound: number;
  df: number;
}

export interface QueryPlan {
  query: QueryTerm[];
  /** rest[i] bounds what terms i.. can add to a score. */
  rest: Float64Array;
  avgLen: number;
}

/** The plan of `queryTerms` over `view`, or undefined when no live document holds any of them. */
export function planQuery(view: Bm25View, queryTerms: Iterable<string>): QueryPlan | undefined {
  const stats = view.stats;
  const qCounts = new Map<number, number>();
  for (const t of queryTerms) {
    const tid = view.dict.get(t);
    if (tid >= 0) qCounts.set(tid, (qCounts.get(tid) ?? 0) + 1);
  }
  if (qCounts.size === 0 || stats.docs === 0) return undefined;
  const avgLen = stats.avgLen;
  const k1 = view.k1, b = view.b;
  const { packed: base } = view.base, mut = view.mut;
  const query: QueryTerm[] = [];
  for (const [tid, qtf] of qCounts) {
    const df = liveDf(view.base, mut, tid);
    if (df <= 0) continue;
    const weight = bm25Idf(stats.docs, df) * qtf;
    let maxTf = 0, minLen = Infinity;
    if (tid < base.nTerms && base.df[tid] > 0) {
      maxTf = base.maxTf[tid];
      minLen = base.minLen[tid];
    }
    const mt = mut.termOf.get(tid);
    if (mt !== undefined) {
      maxTf = Math.max(maxTf, mut.maxTf[mt]);
      minLen = Math.min(minLen, mut.minLen[mt]);
    }
    const bound = (weight * maxTf * (k1 + 1)) / (maxTf + k1 * (1 - b + (b * minLen) / avgLen));
    query.push({ tid, weight, bound, df });
  }
  if (query.length === 0) return undefined;
  // Rare terms first. The order depends only on live statistics and the terms themselves, so an
  // incrementally updated index sums each score in the same order as a fresh build.
  query.sort((x, y) => y.weight - x.weight || view.dict.compare(x.tid, y.tid));
  let postings = 0;
  for (let t = 0; t < query.length; t++) {
    postings += query[t].df;
    if (postings > view.maxQueryPostings && t >= MIN_QUERY_TERMS) {
      query.length = t;
      break;
    }
  }
  const rest = new Float64Array(query.length + 1);
  for (let i = query.length - 1; i >= 0; i--) rest[i] = rest[i + 1] + query[i].bound;
  return { query, rest, avgLen };
}
