// Main-thread side of the engine worker: typed requests with timeouts and cancellation, and a
// supervisor that restarts the worker (with exponential backoff) when it crashes or stops
// answering heartbeats. Free of `vscode` so it can be tested with plain mocha; the extension maps
// CancellationTokens to AbortSignals before calling.
import { spawnEngineHost, type EngineTransport } from './transport';
import type { IndexProgress, IndexStats, RetrieveOptions, CompletionResult, SymbolRelatedQuery, SymbolStages, TeamState } from '../api';
import type { EditorState, RetrievedChunk } from '../types';
import type { SymbolInfo } from '../lookup/symbols';
import type { Vetted } from '../complete/scopeCheck';
import { ClientEvents, type Disposable, type Listener } from './clientEvents';
import { ENGINE_HEAP_GROWING_PERCENT, ENGINE_YOUNG_GENERATION_MB, makeError, type CallOptions, type PendingCall, type CallTiming, type EngineClientOptions, type EngineClientState } from './clientOptions';
import { EngineError, type EngineMethod, type EngineMethods, type FromWorker, type ToWorker } from './protocol';

export { ENGINE_YOUNG_GENERATION_MB, type CallOptions, type CallTiming, type EngineClientOptions, type EngineClientState } from './clientOptions';

export class EngineClient {
  private readonly events = new ClientEvents();
  private worker: EngineTransport | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, PendingCall>();
  private lastError: string | undefined;
  private ready!: Promise<void>;
  private resolveReady!: () => void;
  private rejectReady!: (err: Error) => void;
  private heartbeat: NodeJS.Timeout | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private lastPong = Date.now();
  private crashes = 0;
  private readonly opts: Required<Omit<EngineClientOptions, 'workerPath' | 'init'>> & Pick<EngineClientOptions, 'workerPath' | 'init'>;

  constructor(options: EngineClientOptions) {
    this.opts = {
      requestTimeoutMs: 30_000,
      heartbeatMs: 5_000,
      hangTimeoutMs: 60_000,
      backoffMs: 500,
      maxBackoffMs: 30_000,
      maxRestarts: 5,
      youngGenerationMb: ENGINE_YOUNG_GENERATION_MB,
      heapGrowingPercent: ENGINE_HEAP_GROWING_PERCENT,
      recycleAfterFiles: 2_000,
      host: 'process',
      allocatorTuning: true,
      ...options,
    };
    this.resetReady();
    this.spawn();
  }

  // Subscriptions to the client's events (clientEvents.ts), lent out from the one it emits into.
  readonly onState = (l: Listener<EngineClientState>): Disposable => this.events.onState(l);
  readonly onLog = (l: Listener<string>): Disposable => this.events.onLog(l);
  /** Fires after a replacement worker has opened the engine (the caller may want to re-sync). */
  readonly onRestarted = (l: Listener<void>): Disposable => this.events.onRestarted(l);
  /** Timing of every successful request, in the caller's async context (after its await). */
  readonly onTiming = (l: Listener<CallTiming>): Disposable => this.events.onTiming(l);
  /** The team index's state as the engine reports it (serving, slow, unreachable: local answers). */
  readonly onTeamState = (l: Listener<TeamState>): Disposable => this.events.onTeamState(l);

  get state(): EngineClientState {
    return this.events.state;
  }

  /** The team index's last reported state (undefined: none configured, or nothing reported yet). */
  get teamState(): TeamState | undefined {
    return this.events.teamState;
  }

  /** Process id of the engine when it runs in a child process (undefined for a thread or none). */
  get enginePid(): number | undefined {
    return this.worker?.pid;
  }

  /** Why the client is `failed` / why the last worker died. */
  get error(): string | undefined {
    return this.lastError;
  }

  /** Resolves once the engine is open (rejects if it cannot be opened). */
  whenReady(): Promise<void> {
    return this.ready;
  }

  async indexAll(onProgress?: (p: IndexProgress) => void, signal?: AbortSignal): Promise<IndexStats> {
    const stats = await this.call('indexAll', [], { onProgress, signal, timeoutMs: 0 });
    const limit = this.opts.recycleAfterFiles;
    if (limit > 0 && stats.changedFiles >= limit) await this.recycle(`${stats.changedFiles} files were indexed`);
    return stats;
  }
  updateFile(relPath: string, content?: string, signal?: AbortSignal): Promise<IndexStats> {
    // Queued behind a possibly long indexAll in the worker, so no short timeout.
    return this.call('updateFile', content === undefined ? [relPath] : [relPath, content], { signal, timeoutMs: 0 });
  }
  removeFile = (relPath: string): Promise<IndexStats> => this.call('removeFile', [relPath], { timeoutMs: 0 });
  retrieve(query: EditorState | string, opts: RetrieveOptions = {}): Promise<RetrievedChunk[]> {
    const { signal, onQuick, ...rest } = opts;
    if (!onQuick) return this.call('retrieve', [query, rest], { signal });
    return this.call('retrieve', [query, { ...rest, quickFirst: true }], { signal, onPartial: (v) => onQuick(v as RetrievedChunk[]) });
  }
  complete(state: EditorState, opts: { signal?: AbortSignal } = {}): Promise<CompletionResult | null> {
    return this.call('complete', [state], { signal: opts.signal });
  }
  /** `text` for the cursor of `state`, cut where it repeats the text after the cursor or uses a name unbound there (complete/scopeCheck.ts). */
  vet(state: EditorState, text: string, opts: { signal?: AbortSignal } = {}): Promise<Vetted> {
    return this.call('vet', [state, text], { signal: opts.signal });
  }
  /** The name at a 0-based position and what the index knows of it; null when not a known name. `content`: an unsaved buffer's text. */
  symbolAt(relPath: string, line: number, character: number, opts: { content?: string; signal?: AbortSignal } = {}): Promise<SymbolInfo | null> {
    const args: EngineMethods['symbolAt']['args'] = opts.content === undefined ? [relPath, line, character] : [relPath, line, character, opts.content];
    return this.call('symbolAt', args, { signal: opts.signal });
  }
  /** Readies the hover's lookups in a file (tree, scopes, summary) for this text: the editor's warm-up, off a hover's path. */
  prepareFile = (relPath: string, content?: string): Promise<void> => this.call('prepareFile', content === undefined ? [relPath] : [relPath, content]);
  /** Runs agent tool `name` (agentTools/) in the engine; a bad argument rejects with an error named ToolInputError. */
  agentTool(name: string, input: unknown, opts: { signal?: AbortSignal } = {}): Promise<EngineMethods['agentTool']['result']> {
    return this.call('agentTool', [name, input], { signal: opts.signal });
  }

  /** symbolAt, then (for a known name) what retrieve finds for it, in one round trip; null when not a known name. */
  symbolRelated(relPath: string, line: number, character: number, query: SymbolRelatedQuery, opts: { content?: string; signal?: AbortSignal } = {}): Promise<{ symbol: SymbolInfo; chunks: RetrievedChunk[]; stages?: SymbolStages } | null> {
    const args: EngineMethods['symbolRelated']['args'] = opts.content === undefined ? [relPath, line, character, query] : [relPath, line, character, query, opts.content];
    return this.call('symbolRelated', args, { signal: opts.signal });
  }
  /** What is at a definition's location (the language server's answer), with up to `siblings` of its siblings. */
  definitionAt(relPath: string, line: number, character: number, opts: { siblings?: number; signal?: AbortSignal } = {}): Promise<EngineMethods['definitionAt']['result']> {
    return this.call('definitionAt', [relPath, line, character, opts.siblings ?? 0], { signal: opts.signal });
  }
  /** Writes pending index changes now (after queued updates) instead of after the save delay. */
  flush(): Promise<void> {
    return this.call('flush', [], { timeoutMs: 0 });
  }
  stats(): Promise<IndexStats> {
    return this.call('stats', []);
  }

  /** Sends a request; waits for the engine to be ready first (a restart in progress is waited out). */
  async call<M extends EngineMethod>(method: M, args: EngineMethods[M]['args'], opts: CallOptions = {}): Promise<EngineMethods[M]['result']> {
    if (this.state === 'closed') throw makeError('EngineClosedError', 'engine is closed');
    if (this.state === 'failed') throw makeError('EngineFailedError', this.lastError ?? 'engine failed');
    if (opts.signal?.aborted) throw makeError('AbortError', 'cancelled');
    const timeoutMs = opts.timeoutMs ?? this.opts.requestTimeoutMs;
    const started = Date.now();
    await this.waitReadyOrAbort(opts.signal, timeoutMs);
    // The signal may have fired while waiting; an abort listener added now would never run.
    if (opts.signal?.aborted) throw makeError('AbortError', 'cancelled');
    let engineMs = 0;
    const value = await this.dispatch(method, args, opts, timeoutMs > 0 ? Math.max(1, timeoutMs - (Date.now() - started)) : 0, (ms) => (engineMs = ms));
    if (this.events.timingWanted) this.events.emitTiming({ method, totalMs: Date.now() - started, engineMs });
    return value;
  }

  /** Posts a request to the current worker, whatever the state; `timeoutMs` 0 = none. */
  private dispatch<M extends EngineMethod>(method: M, args: EngineMethods[M]['args'], opts: CallOptions, timeoutMs: number, onEngineMs?: (ms: number) => void): Promise<EngineMethods[M]['result']> {
    const worker = this.worker;
    if (!worker) return Promise.reject(makeError('EngineCrashedError', 'engine worker is not running'));
    const id = this.nextId++;
    return new Promise<EngineMethods[M]['result']>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = (): void => {
        this.post({ type: 'cancel', id });
        finish();
        reject(makeError('AbortError', 'cancelled'));
      };
      const finish = (): void => {
        if (timer) clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        this.pending.delete(id);
      };
      const remaining = timeoutMs;
      if (remaining > 0) {
        timer = setTimeout(() => {
          this.post({ type: 'cancel', id });
          finish();
          reject(makeError('TimeoutError', `engine ${method} timed out after ${timeoutMs} ms`));
        }, remaining);
      }
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve: (v, ms) => {
          onEngineMs?.(ms);
          resolve(v as EngineMethods[M]['result']);
        },
        reject,
        onProgress: opts.onProgress,
        onPartial: opts.onPartial,
        cleanup: finish,
      });
      this.post({ type: 'call', id, method, args });
    });
  }

  /**
   * Replaces a ready worker by a fresh one on the same (saved) index, without failing requests:
   * new ones wait for the replacement, those in flight finish first (up to 10 s), and the old
   * engine is closed, which flushes the index. Unsaved buffers are sent again on their next change.
   */
  private async recycle(reason: string): Promise<void> {
    if (this.state !== 'ready') return;
    this.events.emitLog(`replacing the engine worker by a fresh one (${reason}) to return the build's memory`);
    this.resetReady();
    // 'starting', not 'restarting': nothing crashed, the index is being opened again.
    this.events.setState('starting');
    for (const deadline = Date.now() + 10_000; this.pending.size > 0 && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 10));
    try {
      await this.dispatch('close', [], {}, 30_000);
    } catch (err) {
      this.events.emitLog(`closing the engine before replacing its worker: ${(err as Error).message}`);
    }
    await this.stopWorker('engine worker replaced');
    if ((this.state as EngineClientState) === 'closed') return;
    this.spawn();
    await this.ready.catch(() => undefined);
  }

  /** Replaces the worker now (e.g. after the index directory was deleted for a rebuild). */
  async restart(): Promise<void> {
    if (this.state === 'closed') throw makeError('EngineClosedError', 'engine is closed');
    this.crashes = 0;
    await this.stopWorker('restart requested');
    this.resetReady();
    this.spawn();
    await this.ready;
  }

  /** Closes the engine (flushing the index) and ends the worker. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    if (this.state === 'ready') {
      try {
        await this.call('close', [], { timeoutMs: 10_000 });
      } catch {
        // The worker is terminated below either way.
      }
    }
    if (this.restartTimer) clearTimeout(this.restartTimer);
    await this.stopWorker('engine closed');
    this.rejectReady(makeError('EngineClosedError', 'engine is closed'));
    this.events.setState('closed');
  }

  private spawn(): void {
    this.events.setState(this.crashes > 0 ? 'restarting' : 'starting');
    const worker = spawnEngineHost(this.opts.host, this.opts.workerPath, this.opts.init, { youngGenerationMb: this.opts.youngGenerationMb, heapGrowingPercent: this.opts.heapGrowingPercent, allocatorTuning: this.opts.allocatorTuning });
    this.worker = worker;
    this.lastPong = Date.now();
    worker.onMessage((msg: FromWorker) => {
      if (this.worker === worker) this.onMessage(msg);
    });
    worker.onError((err) => {
      this.lastError = err.message;
      this.events.emitLog(`engine worker error: ${err.stack ?? err.message}`);
    });
    worker.onExit((how) => {
      if (this.worker !== worker) return; // an intentionally stopped worker
      this.worker = undefined;
      this.onWorkerLost(`engine worker ${how}${this.lastError ? `: ${this.lastError}` : ''}`);
    });
    this.heartbeat = setInterval(() => this.checkHeartbeat(worker), this.opts.heartbeatMs);
    this.heartbeat.unref();
  }

  private checkHeartbeat(worker: EngineTransport): void {
    if (this.worker !== worker) return;
    if (Date.now() - this.lastPong > this.opts.hangTimeoutMs) {
      this.events.emitLog(`engine worker did not answer for ${this.opts.hangTimeoutMs} ms; replacing it`);
      this.worker = undefined;
      void worker.terminate();
      this.onWorkerLost('engine worker hung');
      return;
    }
    this.post({ type: 'ping', id: this.nextId++ });
  }

  private onMessage(msg: FromWorker): void {
    switch (msg.type) {
      case 'ready': {
        const wasRestart = this.crashes > 0;
        this.crashes = 0;
        this.lastError = undefined;
        this.events.setState('ready');
        this.resolveReady();
        if (wasRestart) this.events.emitRestarted();
        break;
      }
      case 'open-failed':
        this.lastError = msg.error.message;
        this.events.emitLog(`engine failed to open: ${msg.error.stack ?? msg.error.message}`);
        this.rejectReady(new EngineError(msg.error));
        this.events.setState('failed');
        void this.stopWorker('open failed');
        break;
      case 'result': {
        const p = this.pending.get(msg.id);
        if (!p) return; // timed out or cancelled already
        p.cleanup();
        if (msg.ok) p.resolve(msg.value, msg.ms ?? 0);
        else p.reject(new EngineError(msg.error));
        break;
      }
      case 'progress':
        this.pending.get(msg.id)?.onProgress?.(msg.progress);
        break;
      case 'partial':
        this.pending.get(msg.id)?.onPartial?.(msg.value);
        break;
      case 'log':
        this.events.emitLog(msg.line);
        break;
      case 'team':
        this.events.setTeamState(msg.state);
        break;
      case 'pong':
        this.lastPong = Date.now();
        break;
    }
  }

  private onWorkerLost(reason: string): void {
    this.clearHeartbeat();
    this.events.emitLog(reason);
    this.lastError = reason;
    for (const [, p] of this.pending) {
      p.cleanup();
      p.reject(makeError('EngineCrashedError', reason));
    }
    this.pending.clear();
    if (this.state === 'closed' || this.state === 'failed') return;
    this.crashes++;
    if (this.crashes > this.opts.maxRestarts) {
      this.lastError = `${reason}; gave up after ${this.opts.maxRestarts} restarts`;
      this.resetReady();
      this.rejectReady(makeError('EngineFailedError', this.lastError));
      this.events.setState('failed');
      return;
    }
    const delay = Math.min(this.opts.maxBackoffMs, this.opts.backoffMs * 2 ** (this.crashes - 1));
    this.events.emitLog(`restarting engine worker in ${delay} ms (attempt ${this.crashes}/${this.opts.maxRestarts})`);
    // Requests arriving during the backoff wait for the replacement worker.
    this.resetReady();
    this.events.setState('restarting');
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.state !== 'closed') this.spawn();
    }, delay);
  }

  private async stopWorker(reason: string): Promise<void> {
    this.clearHeartbeat();
    const worker = this.worker;
    this.worker = undefined;
    for (const [, p] of this.pending) {
      p.cleanup();
      p.reject(makeError('EngineClosedError', reason));
    }
    this.pending.clear();
    if (worker) await worker.terminate();
  }

  private async waitReadyOrAbort(signal: AbortSignal | undefined, timeoutMs: number): Promise<void> {
    if (this.state === 'ready') return;
    const waiters: Promise<void>[] = [this.ready];
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    if (timeoutMs > 0) {
      waiters.push(new Promise((_, reject) => {
        timer = setTimeout(() => reject(makeError('TimeoutError', `engine not ready after ${timeoutMs} ms`)), timeoutMs);
      }));
    }
    if (signal) {
      waiters.push(new Promise((_, reject) => {
        onAbort = () => reject(makeError('AbortError', 'cancelled'));
        signal.addEventListener('abort', onAbort, { once: true });
      }));
    }
    try {
      await Promise.race(waiters);
    } finally {
      if (timer) clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  private resetReady(): void {
    this.ready = new Promise<void>((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    // Nobody may be waiting; a rejection is still observed by later callers.
    this.ready.catch(() => undefined);
  }

  private post(msg: ToWorker): void {
    this.worker?.post(msg);
  }

  private clearHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }
}
