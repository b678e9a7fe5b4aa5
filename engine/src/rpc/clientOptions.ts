// The engine client's options, states and per-call types (client.ts).
import type { EngineHostKind } from './transport';
import type { IndexProgress } from '../api';
import type { EngineMethod, WorkerInit } from './protocol';

export type EngineClientState =
  | 'starting' // worker spawned, engine opening
  | 'ready'
  | 'restarting' // worker died or hung; waiting for backoff then respawning
  | 'failed' // engine could not open, or too many crashes: requests fail until restart()
  | 'closed';

export interface EngineClientOptions {
  /** Absolute path of the bundled worker script (dist/worker.js). */
  workerPath: string;
  /** Where the engine runs: a child process (default: isolated, see transport.ts) or a worker thread. */
  host?: EngineHostKind;
  init: WorkerInit;
  /** Default timeout of a request other than indexAll (ms). */
  requestTimeoutMs?: number;
  /** How often the worker is pinged (ms). */
  heartbeatMs?: number;
  /** A worker that has not answered a ping for this long is considered hung and replaced (ms). */
  hangTimeoutMs?: number;
  /** First restart delay (ms); doubles per consecutive crash up to maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Consecutive crashes (without a successful open in between) after which the client gives up. */
  maxRestarts?: number;
  /**
   * Cap on the worker's young generation (MB). V8's default lets it grow to ~48 MB under the
   * allocation rate of queries and keeps it; 6 MB takes ~30 MB off a 100k-file engine's RSS at
   * the same query latency (test/bench/scale/reopen.ts). 0 leaves V8's default.
   */
  youngGenerationMb?: number;
  /**
   * How far V8 lets the worker's old generation grow past what survived the last full GC before
   * the next, in percent; 0 leaves V8's own factor (up to 4x on a small heap). A cold build's
   * heap saws between full GCs with what its batches leave behind; held lower, the saw is lower
   * (PARAMS.md, Engine process). A process engine only: a thread shares its process's heap flags.
   */
  heapGrowingPercent?: number;
  /**
   * After an indexAll that (re)indexed at least this many files, the worker is replaced by a fresh
   * one on the saved index: a cold build's high-water mark (V8 heap, allocator arenas: ~1.2 GB at
   * 100k files) would otherwise stay with the editor for the session, while a fresh worker holds
   * what querying needs (~300 MB); at 2k files the build leaves ~125 MB behind. The replacement
   * loads the index (0.1 s at 2k files, 3.5 s at 100k) while requests wait. Default 2,000; 0 never.
   */
  recycleAfterFiles?: number;
  /** glibc allocator settings for an engine process (transport.ts ALLOCATOR_ENV); default true. */
  allocatorTuning?: boolean;
}

/** Default EngineClientOptions.youngGenerationMb (PARAMS.md, Engine process). */
export const ENGINE_YOUNG_GENERATION_MB = 6;
/** Default EngineClientOptions.heapGrowingPercent (PARAMS.md, Engine process). */
export const ENGINE_HEAP_GROWING_PERCENT = 30;

export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides requestTimeoutMs; 0 = no timeout. */
  timeoutMs?: number;
  onProgress?: (p: IndexProgress) => void;
}

/** One answered request: the round trip seen by the caller and the engine's own part of it. */
export interface CallTiming {
  method: EngineMethod;
  /** From the call to its answer, waiting for a ready engine included (ms). */
  totalMs: number;
  /** The engine's time for it, from arrival in its process to the answer (ms). */
  engineMs: number;
}
