// The merge policy of the index's segments, in one place: when a component's changes since its
// base are folded into a new base, and when delta segments are folded into one. Pure functions of
// each component's statistics (tested on synthetic numbers in test/unit/mergePolicy.test.ts); the
// executors (lexical/bm25.ts, vector/vectorIndex.ts and vectorRebuild.ts, SegmentMerges, the cold
// build in WorkspaceIndex, IndexStore's save) only execute.
// Values and their evidence: PARAMS.md (Lexical index, Vector index, Index segments).

/** Lexical: pending documents (mutable ones plus dead base slots) before a background merge. */
export const LEXICAL_MERGE_MIN_DOCS = 4096;
/** Lexical: the blocking merge inside `add` also waits for pending documents past this share of the base. */
export const LEXICAL_MERGE_FRACTION = 0.125;

/** Vectors: pending vectors trigger a rebuild beyond max(flatThreshold, this share of the listed ones)… */
export const VECTOR_PENDING_SHARE = 0.05;
/** …but never beyond this many (an exact scan of 16k × dim 256 is ~1.5 ms). */
export const VECTOR_MAX_PENDING = 16384;
/** Vectors: removed-but-listed vectors trigger a rebuild beyond this share of the lists. */
export const VECTOR_TOMBSTONE_SHARE = 0.2;
/** Vectors: a save folds pending vectors and tombstones into the lists beyond this (lower) share. */
export const VECTOR_SAVE_REBUILD_SHARE = 0.02;

/** Store: more delta segments than this are folded into one. */
export const MAX_DELTAS = 16;
/** Store: the tables base is rewritten once files changed since it exceed this share of the files… */
export const TABLES_REBASE_FRACTION = 0.125;
/** …and this many. */
export const TABLES_REBASE_MIN_FILES = 1024;

/** A lexical field's size: documents in its packed base, and pending ones since. */
export interface LexicalStats {
  baseDocs: number;
  /** Mutable documents plus dead base slots. */
  pendingDocs: number;
  /** LEXICAL_MERGE_MIN_DOCS unless a test lowers it. */
  minDocs: number;
}

/** Whether a background merge (in slices, between saves) is due. */
export function lexicalMergeDue(s: LexicalStats): boolean {
  return s.pendingDocs > s.minDocs;
}

/**
 * Whether `add`/`remove` must merge at once, blocking queries for the whole merge: a backstop at
 * twice the background merge's minimum, which single-file saves and a cold build's sliced merges
 * reach first (docs/investigations/cold-build-memory.md).
 */
export function lexicalMergeForced(s: LexicalStats): boolean {
  return s.pendingDocs > 2 * s.minDocs && s.pendingDocs > LEXICAL_MERGE_FRACTION * s.baseDocs;
}

/** A vector index's size: vectors in its lists (undefined: no lists, a flat scan), pending and removed since. */
export interface VectorStats {
  listed: number | undefined;
  pending: number;
  tombstones: number;
  /** Below this many vectors the index is a flat scan (VectorIndexOptions.flatThreshold). */
  flatThreshold: number;
}

/** Pending vectors beyond which an `add` rebuilds the lists. */
export function vectorPendingLimit(s: Pick<VectorStats, 'listed' | 'flatThreshold'>): number {
  if (s.listed === undefined) return s.flatThreshold;
  return Math.max(s.flatThreshold, Math.min(VECTOR_MAX_PENDING, Math.ceil(VECTOR_PENDING_SHARE * s.listed)));
}

/** Whether a `remove` rebuilds: tombstones past their share, or the index back to half the flat size (no flip-flop around it). */
export function vectorRebuildOnRemove(s: VectorStats & { size: number }): boolean {
  return s.listed !== undefined && (s.tombstones > VECTOR_TOMBSTONE_SHARE * s.listed || s.size <= s.flatThreshold / 2);
}

/** Whether a save (or the background merge before it) folds pending vectors and tombstones into the lists. */
export function vectorRebuildDueAtSave(s: Pick<VectorStats, 'listed' | 'pending' | 'tombstones'>): boolean {
  return s.listed !== undefined && s.pending + s.tombstones > VECTOR_SAVE_REBUILD_SHARE * s.listed;
}

/** Whether a rebuild of `live` vectors leaves them one flat store: at half the flat size, or never yet listed and within it. */
export function vectorRebuildFlat(s: { live: number; listed: number | undefined; flatThreshold: number }): boolean {
  return s.live <= s.flatThreshold / 2 || (s.listed === undefined && s.live <= s.flatThreshold);
}

/** Whether a rebuild into lists retrains the centroids: no lists yet, or the index grew or shrank 2x since they were trained. */
export function vectorRetrainDue(s: { live: number; trainedFor: number | undefined }): boolean {
  return s.trainedFor === undefined || s.live > 2 * s.trainedFor || s.live < s.trainedFor / 2;
}

/** Whether indexing `changedFiles` of `files` ends merged, in bases only (a cold build or many changes: nothing left to replay). */
export function mergeAllAfterIndexing(s: { changedFiles: number; files: number }): boolean {
  return s.changedFiles > 0 && s.changedFiles * 8 >= s.files;
}

/** Whether the next save folds every delta since the bases into one (instead of adding one more). */
export function foldDeltas(deltasSoFar: number, maxDeltas = MAX_DELTAS): boolean {
  return deltasSoFar + 1 > maxDeltas;
}

/** Whether a save rewrites the tables base: files changed since it past both thresholds. */
export function tablesRebaseDue(s: { changedSinceBase: number; files: number; minFiles?: number }): boolean {
  return s.changedSinceBase > Math.max(s.minFiles ?? TABLES_REBASE_MIN_FILES, TABLES_REBASE_FRACTION * s.files);
}
