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
  /** Cap on the worker's young generation (MB): less RSS at the same latency (PARAMS.md#engine-process). 0 leaves V8's default. */
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
   * one on the saved index, returning a cold build's high-water mark while requests wait for the
   * reload. Default 2,000; 0 never (PARAMS.md#engine-process).
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
  /** A first answer of the request, before its result (retrieve's quickFirst). */
  onPartial?: (value: unknown) => void;
}

/** One answered request: the round trip seen by the caller and the engine's own part of it. */
export interface CallTiming {
  method: EngineMethod;
  /** From the call to its answer, waiting for a ready engine included (ms). */
  totalMs: number;
  /** The engine's time for it, from arrival in its process to the answer (ms). */
  engineMs: number;
}

/** An Error whose name callers match on (EngineClosedError, AbortError, ...). */
export function makeError(name: string, message: string): Error {
  const err = new Error(message);
  err.name = name;
  return err;
}

/** A request sent to the worker and not yet answered. */
export interface PendingCall extends Pick<CallOptions, 'onProgress' | 'onPartial'> {
  resolve(value: unknown, engineMs: number): void;
  reject(err: Error): void;
  cleanup(): void;
}
