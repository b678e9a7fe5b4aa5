// What a retrieval signal is: a named, weighted ranked list of documents for a query. Each signal
// lives in its own file under signals/ and is listed once in registry.ts; the fusion (fusion.ts)
// and the index (hybrid.ts) know signals only through this interface.
import type { Bm25Index } from '../lexical/bm25';
import type { ChunkTable, DocInfo } from '../store/chunkTable';
import type { VectorIndex } from '../vector';
import type { RetrievalQuery } from './query';

/** Lexical fields that are built only when a signal that reads them is on. */
export const OPTIONAL_FIELDS = ['docField', 'normalized'] as const;
export type OptionalField = (typeof OPTIONAL_FIELDS)[number];

/** Weights by name (signals, rerank, rrfK, score terms); see weights.ts for FusionWeights. */
export type WeightTable = Readonly<Record<string, number>>;

/** What signals may read of the index. */
export interface SignalIndex {
  readonly lexical: Bm25Index;
  readonly docField: Bm25Index;
  readonly normalized: Bm25Index;
  readonly vectors: VectorIndex | undefined;
  readonly docs: ChunkTable;
  /** The optional fields the index fills (an unfilled one finds nothing). */
  readonly fields: ReadonlySet<OptionalField>;
  /** The current text of a document, when the index can read it (`expand` needs it). */
  readonly textOf?: (doc: DocInfo) => string | undefined;
}

/** One query's view for the signals: the query, the index, and what signals share. */
export interface SignalContext {
  readonly index: SignalIndex;
  readonly q: RetrievalQuery;
  /** The query's embedding, when the dense side is on. */
  readonly qVec: Float32Array | undefined;
  readonly weights: WeightTable;
  /** Candidates each signal returns at most. */
  readonly depth: number;
  readonly accept: ((id: number) => boolean) | undefined;
  /** Whether `next` and `expand` may follow document `id` to what comes after it (SearchOptions.chainInCurrentFile). */
  readonly chainable: (id: number) => boolean;
  /** Per scored list, the scores behind its ranks (reported with the hits as fusion features). */
  readonly values: Map<string, Map<number, number>>;
  /** A value computed once per query and shared between signals (e.g. the `recent` search, which `next` and `expand` follow). */
  shared<T>(key: string, make: () => T): T;
}

export interface RankedList {
  /** Document ids, best first. */
  ids: number[];
  /** The scores behind the ranks, for the signal's score term (may hold ids `accept` refused). */
  scores?: Map<number, number>;
  /** The candidates whose scores set the score term's best and worst (default: `ids`). */
  kept?: number[];
}

export interface Signal<N extends string = string> {
  readonly name: N;
  /** Its weight in the fusion by default; 0 leaves it off unless a caller turns it on. */
  readonly weight: number;
  /** One of the core engine's signals: the baseline that stage ablations add to or remove from. */
  readonly core?: boolean;
  /** The weight a bench ablation gives it when it adds it alone to the core (`core+name`). */
  readonly ablationWeight?: number;
  /** The optional index field it reads: the index fills the field while a signal reading it is on. */
  readonly field?: OptionalField;
  /**
   * Its score term, if its scores (not just its ranks) enter the fusion: the term's weight, and how
   * a score compares with the list's best: `ratio` (score / best, 0 when not retrieved) or
   * `difference` (score − best, the list's worst score when not retrieved). See fusion.ts.
   */
  readonly scoreTerm?: { weight(w: WeightTable): number; relative: 'ratio' | 'difference' };
  /** Its ranked list for the query, or undefined when it has nothing to search with. */
  rank(ctx: SignalContext): RankedList | undefined;
}

/** Declares a signal (keeps its name's literal type, from which FusionWeights is derived). */
export function defineSignal<N extends string>(s: Signal<N>): Signal<N> {
  return s;
}

/** Lexical hits as a ranked list that keeps their BM25 scores. */
export function scoredList(hits: { id: number; score: number }[]): RankedList {
  return { ids: hits.map((h) => h.id), scores: new Map(hits.map((h) => [h.id, h.score])) };
}

/** The path words a lexical query starts with (documents carry their path in front too). */
export function pathLine(q: RetrievalQuery): string {
  return q.file ? `${q.file}\n` : '';
}
