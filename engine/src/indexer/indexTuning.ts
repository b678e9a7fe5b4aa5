// What the indexing reads of the engine's tuning (engine.ts EngineTuning extends it).
import type { FusionWeights } from '../retrieve/weights';
import type { IndexedSink } from './indexedSink';

/** What the indexing reads of the engine's tuning (EngineTuning). */
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
  /** Receives what indexing produced (the team index writer, team/writer.ts); awaited. */
  onIndexed?: IndexedSink;
}
