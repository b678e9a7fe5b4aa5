// What indexing can hand to another store as it goes (the team index writer, team/writer.ts): the
// chunks of each embedding batch with their enriched text, callees and vectors, then each file.
import type { DefinitionRef } from '../enrich/callgraph';
import type { DocInfo } from '../store/chunkTable';

/** One chunk as indexed: its record, the enriched text the lexical index saw, and its vector. */
export interface IndexedChunk {
  chunk: DocInfo;
  text: string;
  code: string;
  docText: string;
  callees: DefinitionRef[];
  /** Content hash of the chunk's file (the text it was cut from). */
  fileHash: string;
  vector?: Float32Array;
}

/** What indexing hands to a sink: chunks per embedding batch, then each file once its chunks are queued. */
export interface IndexedSink {
  chunks(items: IndexedChunk[], model: { modelId: string; dim: number } | undefined): Promise<void>;
  file(rel: string, hash: string, language: string, defs: DefinitionRef[]): void;
}
