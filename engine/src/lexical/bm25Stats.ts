// BM25's parameters and its live statistics (N, df, avgdl), which count live documents only: the
// df of a term is its live mutable documents plus its packed base df less the dead base documents
// that contain it (baseSegment.ts counts those lazily per queried term).
import type { BaseSegment } from './baseSegment';
import type { MutableSegment } from './mutableSegment';
import type { TermDictionary } from './termDictionary';

export interface Bm25Options {
  /** Term-frequency saturation (Okapi k1). */
  k1?: number;
  /** Length normalisation strength (Okapi b). */
  b?: number;
  /**
   * Mutable documents plus dead base slots tolerated before they are merged into the packed base
   * (the merge also waits for MERGE_FRACTION of the base). Default 4096; tests lower it to cross
   * merges with few documents.
   */
  mergeMinDocs?: number;
  /**
   * Work budget of one search, in postings: query terms are taken in decreasing idf order, and
   * once the terms taken so far hold this many postings the remaining, more common ones are
   * dropped (at least MIN_QUERY_TERMS are always kept); below it results are exact. Default
   * 250,000, Infinity = exhaustive (why: docs/investigations/query-latency-at-scale.md).
   */
  maxQueryPostings?: number;
}

/** Okapi BM25's defaults (Bm25Options.k1, .b). */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/** BM25's idf of a term in `df` of `docs` documents. */
export const bm25Idf = (docs: number, df: number): number => Math.log(1 + (docs - df + 0.5) / (df + 0.5));

/** Query budget: PARAMS.md (Lexical index); when to merge: store/mergePolicy.ts. */
export const DEFAULT_MAX_QUERY_POSTINGS = 250_000;

/** Live documents and their summed length in terms. */
export class LiveStats {
  docs = 0;
  totalLen = 0;

  /** Average live document length (1 when empty), as BM25's length normalisation reads it. */
  get avgLen(): number {
    return this.totalLen / this.docs || 1;
  }

  added(len: number): void {
    this.docs++;
    this.totalLen += len;
  }

  removed(len: number): void {
    this.docs--;
    this.totalLen -= len;
  }
}

/** Live documents containing term `tid`, over the base and the mutable segment. */
export const liveDf = (base: BaseSegment, mut: MutableSegment, tid: number): number => mut.liveDf(tid) + base.liveDf(tid);

/** What a search reads of an index; it writes none of it. */
export interface Bm25View {
  readonly k1: number;
  readonly b: number;
  readonly maxQueryPostings: number;
  readonly dict: TermDictionary;
  readonly base: BaseSegment;
  readonly mut: MutableSegment;
  readonly stats: LiveStats;
}
