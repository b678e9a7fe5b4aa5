// How EngineClient reaches the engine: a child process (default) or a worker thread, behind one
// small interface so supervision, timeouts and cancellation are the same for both.
// A child process by default: a native crash or OOM kill loses only it, and replacing it returns
// its memory (docs/investigations/engine-process-memory.md).
import { fork, type ChildProcess } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { ORT_TELEMETRY_OFF } from '../embed/onnxRuntime';
import type { FromWorker, ToWorker, WorkerInit } from './protocol';

export type EngineHostKind = 'process' | 'thread';

/** The environment variable that carries WorkerInit (JSON) to an engine child process. */
export const INIT_ENV = 'REPORECALL_ENGINE_INIT';

export interface EngineTransport {
  /** The engine's process id when it runs in its own process. */
  readonly pid: number | undefined;
  post(msg: ToWorker): void;
  /** Messages, errors (reported, not fatal by themselves) and the end of the engine host. */
  onMessage(listener: (msg: FromWorker) => void): void;
  onError(listener: (err: Error) => void): void;
  onExit(listener: (description: string) => void): void;
  /** Ends the host now (SIGKILL for a process) and resolves once it is gone. */
  terminate(): Promise<void>;
}

export interface TransportOptions {
  /** Cap on V8's young generation (MB); 0 = V8's default. */
  youngGenerationMb: number;
  /** V8's old-generation growing factor over the last full GC's survivors, in percent; 0 = V8's own (process engine only). */
  heapGrowingPercent?: number;
  /** Set glibc's allocator knobs for an engine process (ALLOCATOR_ENV; default true). */
  allocatorTuning?: boolean;
}

/** glibc malloc settings for the engine process (a value the user set wins; docs/investigations/engine-process-memory.md). */
const ALLOCATOR_ENV: Record<string, string> = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' };

/** PostgreSQL client variables that answer a password request (node-postgres reads them on its own). */
const PG_PASSWORD_VARIABLES = ['PGPASSWORD', 'PGPASSFILE'];

/**
 * The engine's environment: the parent's without any PG* variable (node-postgres would take its
 * user, host or password from them for whatever URL the team index setting names), except the
 * password ones when a URL from the user's own settings opts in; and the ONNX runtime's telemetry off.
 */
export function engineEnvironment(parent: NodeJS.ProcessEnv, init: WorkerInit): NodeJS.ProcessEnv {
  const team = init.options.team;
  const keep = team?.urlOrigin === 'user' && team.passwordFromEnvironment === true ? PG_PASSWORD_VARIABLES : [];
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(parent)) if (!/^PG/i.test(name) || keep.includes(name)) env[name] = value;
  return { ...env, ...ORT_TELEMETRY_OFF };
}

export function spawnEngineHost(kind: EngineHostKind, script: string, init: WorkerInit, opts: TransportOptions): EngineTransport {
  return kind === 'thread' ? threadTransport(script, init, opts) : processTransport(script, init, opts);
}

function threadTransport(script: string, init: WorkerInit, opts: TransportOptions): EngineTransport {
  const young = opts.youngGenerationMb;
  // A thread's process.env is a copy native code never reads: the runtime's switch goes in this process's own.
  Object.assign(process.env, ORT_TELEMETRY_OFF);
  const worker = new Worker(script, { workerData: init, env: engineEnvironment(process.env, init), ...(young > 0 ? { resourceLimits: { maxYoungGenerationSizeMb: young } } : {}) });
  return {
    pid: undefined,
    post: (msg) => worker.postMessage(msg),
    onMessage: (l) => void worker.on('message', l),
    onError: (l) => void worker.on('error', l),
    onExit: (l) => void worker.on('exit', (code) => l(`exited with code ${code}`)),
    terminate: async () => void (await worker.terminate()),
  };
}

function processTransport(script: string, init: WorkerInit, opts: TransportOptions): EngineTransport {
  // V8 sizes the young generation as three semi-spaces.
  const semiSpaceMb = Math.max(1, Math.round(opts.youngGenerationMb / 3));
  const child: ChildProcess = fork(script, [], {
    // Inside VS Code, execPath is Electron's binary: this makes it a plain Node.js.
    env: { ...(opts.allocatorTuning === false ? {} : ALLOCATOR_ENV), ...engineEnvironment(process.env, init), ELECTRON_RUN_AS_NODE: '1', [INIT_ENV]: JSON.stringify(init) },
    execArgv: [
      ...(opts.youngGenerationMb > 0 ? [`--max-semi-space-size=${semiSpaceMb}`] : []),
      ...(opts.heapGrowingPercent ? [`--heap-growing-percent=${opts.heapGrowingPercent}`] : []),
    ],
    // Structured clone, as between threads (typed arrays, undefined, nested objects).
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderrTail = '';
  child.stderr?.on('data', (d: Buffer) => (stderrTail = (stderrTail + d.toString()).slice(-2000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    pid: child.pid,
    post: (msg) => {
      if (child.connected) child.send(msg);
    },
    onMessage: (l) => void child.on('message', (m) => l(m as FromWorker)),
    onError: (l) => void child.on('error', l),
    onExit: (l) =>
      void child.on('exit', (code, signal) => {
        const tail = stderrTail.trim().split('\n').slice(-3).join(' | ');
        l(`exited with ${signal ? `signal ${signal}` : `code ${code}`}${tail ? ` (${tail})` : ''}`);
      }),
    terminate: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
