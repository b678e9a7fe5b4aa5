// Messages between the extension host (EngineClient) and the engine worker (worker.ts).
// Everything here crosses a worker_threads MessagePort or a child process IPC channel (advanced
// serialization), so it must be structured-clonable:
// AbortSignals travel as `cancel` messages and errors as plain objects.
import type { EngineOptions, IndexProgress, IndexStats, RetrieveOptions, CompletionResult, SymbolRelatedQuery, SymbolStages, TeamState } from '../api';
import type { EditorState, RetrievedChunk } from '../types';
import type { DefinitionAt, SymbolInfo } from '../lookup/symbols';
import type { AgentToolAnswer } from '../agentTools';
import type { Vetted } from '../complete/scopeCheck';

/** Engine options as they reach the worker (`log` is replaced by `log` events). */
export type WorkerEngineOptions = Omit<EngineOptions, 'log' | 'onTeamState'> & {
  /** Directory with the tree-sitter runtime wasm and grammars, when not the engine's default. */
  grammarDir?: string;
};

/** The worker's `workerData`. */
export interface WorkerInit {
  options: WorkerEngineOptions;
}

/** Engine methods served by the worker: argument tuples (signals removed) and results. */
export interface EngineMethods {
  indexAll: { args: []; result: IndexStats };
  /** Results: the index's stats after the change (for the status bar, without a second request). */
  updateFile: { args: [relPath: string, content?: string]; result: IndexStats };
  removeFile: { args: [relPath: string]; result: IndexStats };
  /** `quickFirst`: the lexical answer (RetrieveOptions.onQuick) comes first as a `partial` message. */
  retrieve: { args: [query: EditorState | string, opts?: Omit<RetrieveOptions, 'signal' | 'onQuick'> & { quickFirst?: boolean }]; result: RetrievedChunk[] };
  complete: { args: [state: EditorState]; result: CompletionResult | null };
  /** A suggestion (a model's) cut by the built-in source's checks: the text after the cursor, names unbound at it. */
  vet: { args: [state: EditorState, text: string]; result: Vetted };
  symbolAt: { args: [relPath: string, line: number, character: number, content?: string]; result: SymbolInfo | null };
  prepareFile: { args: [relPath: string, content?: string]; result: void };
  symbolRelated: { args: [relPath: string, line: number, character: number, query: SymbolRelatedQuery, content?: string]; result: { symbol: SymbolInfo; chunks: RetrievedChunk[]; stages?: SymbolStages } | null };
  /** One of the agent tools (agentTools/: search_code, find_definition, ...) with its arguments as the model gave them. */
  agentTool: { args: [name: string, input: unknown]; result: AgentToolAnswer };
  definitionAt: { args: [relPath: string, line: number, character: number, siblings?: number]; result: DefinitionAt & { siblings?: RetrievedChunk[] } };
  stats: { args: []; result: IndexStats };
  /** Writes pending index changes now instead of after the save delay (benchmarks, tests). */
  flush: { args: []; result: void };
  close: { args: []; result: void };
}
export type EngineMethod = keyof EngineMethods;

/** Methods that change the index; the worker runs them one at a time, in arrival order. */
export const MUTATING_METHODS: ReadonlySet<EngineMethod> = new Set<EngineMethod>(['indexAll', 'updateFile', 'removeFile', 'flush', 'close']);

/** A call of one method with that method's argument tuple: the worker's handler table takes it as typed. */
export interface MethodCall<M extends EngineMethod = EngineMethod> {
  type: 'call';
  id: number;
  method: M;
  args: EngineMethods[M]['args'];
}

export type ToWorker =
  | MethodCall
  | { type: 'cancel'; id: number }
  | { type: 'ping'; id: number };

export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
}

export type FromWorker =
  | { type: 'ready' }
  | { type: 'open-failed'; error: SerializedError }
  // `ms`: the engine's own time for the request, from its arrival in the worker to its answer
  // (waiting for the engine to open or for earlier index mutations included).
  | { type: 'result'; id: number; ok: true; value: unknown; ms?: number }
  | { type: 'result'; id: number; ok: false; error: SerializedError; ms?: number }
  | { type: 'progress'; id: number; progress: IndexProgress }
  // A first answer of a request whose result follows (retrieve's quickFirst).
  | { type: 'partial'; id: number; value: unknown }
  | { type: 'log'; line: string }
  | { type: 'team'; state: TeamState }
  | { type: 'pong'; id: number };

export function serializeError(err: unknown): SerializedError {
  if (err instanceof Error) return { name: err.name, message: err.message, stack: err.stack };
  return { name: 'Error', message: String(err) };
}

/** An error re-created on the main thread from its worker-side description. */
export class EngineError extends Error {
  constructor(remote: SerializedError) {
    super(remote.message);
    this.name = remote.name;
    if (remote.stack) this.stack = remote.stack;
  }
}

export function isAbortError(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'CancelledError');
}
