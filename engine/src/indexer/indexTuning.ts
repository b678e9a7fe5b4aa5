// What the indexing reads of the engine's tuning (engine.ts indexTuningOf builds it from EngineTuning).
import type { FusionWeights } from '../retrieve/weights';
import type { IndexedSink } from './indexedSink';
import type { Foreground } from '../util/foreground';

/** What the indexing reads of the engine's tuning: the seams, the indexed-output hook, the weights' fields. */
export interface IndexTuning {
  weights?: Partial<FusionWeights>;
  /** Build every optional lexical field, whatever the weights (ablations switch stages per query). */
  allFields?: boolean;
  /** Overrides LARGE_REPO_FILES (tests use a small fixture). */
  largeRepoFiles?: number;
  /** How often a long indexAll saves its progress (ms). Default 30 s. */
  checkpointMs?: number;
  /** Overrides the lexical fields' merge minimum (Bm25Options.mergeMinDocs; tests cross merges with a few files). */
  lexicalMergeMinDocs?: number;
  /** Receives what indexing produced (tests and the redaction bench look at it); awaited. */
  onIndexed?: IndexedSink;
  /** The engine's requests a user waits for: a live update waits between its slices while one runs. */
  foreground?: Foreground;
}

// Batch sizes and the checkpoint interval: PARAMS.md (Indexing).
/** Chunks embedded per model run during a full index. */
export const EMBED_BATCH = 64;
/** Single-file updates embed in small runs: a keystroke's query vector waits for the run in progress (PARAMS.md). */
export const UPDATE_EMBED_BATCH = 8;
/** During a long indexAll, progress is saved this often. */
export const CHECKPOINT_MS = 30_000;
/** Longest stretch of indexing work between two turns of the engine's event loop (util/breathe.ts). */
export const BREATHE_EVERY_MS = 20;
/**
 * The same for a live update of the file being typed in: a keystroke's completion arriving
 * meanwhile waits at most this long (a 3,000-line file blocked queries for 70-650 ms in one piece).
 */
export const UPDATE_BREATHE_EVERY_MS = 4;
