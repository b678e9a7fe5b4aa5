// Host of the Engine outside the extension host's event loop, so that scanning, parsing, embedding
// and index writes never run there: EngineClient starts this file as a child process (WorkerInit in
// the REPORECALL_ENGINE_INIT environment variable, messages over the IPC channel) or as a worker
// thread (`workerData`, messages over parentPort); see transport.ts.
//
// Requests are served by id; index mutations are serialised (one at a time, in order) while reads
// (retrieve, complete, stats) run as soon as the engine is open. A `cancel` message aborts the
// AbortSignal handed to the engine for that request.
import { parentPort, workerData } from 'node:worker_threads';
import { Engine } from '../engine';
import { MUTATING_METHODS, serializeError, type FromWorker, type MethodCall, type ToWorker, type WorkerInit } from './protocol';
import { INIT_ENV } from './transport';
import { closeOnSignals } from '../util/termination';
import { invoke } from './handlers';

interface Port {
  post(msg: FromWorker): void;
  onMessage(listener: (msg: ToWorker) => void): void;
}

function connect(): { port: Port; init: WorkerInit } {
  if (parentPort) {
    const thread = parentPort;
    return { port: { post: (m) => thread.postMessage(m), onMessage: (l) => void thread.on('message', l) }, init: workerData as WorkerInit };
  }
  const send = process.send?.bind(process);
  const initJson = process.env[INIT_ENV];
  if (!send || !initJson) throw new Error('engine/src/rpc/worker.ts must be started by EngineClient (a worker thread, or a child process with an IPC channel)');
  // Without the extension host there is nobody to serve: never linger as an orphan.
  process.on('disconnect', () => process.exit(0));
  return { port: { post: (m) => void send(m), onMessage: (l) => void process.on('message', (m) => l(m as ToWorker)) }, init: JSON.parse(initJson) as WorkerInit };
}

const { port, init } = connect();

function post(msg: FromWorker): void {
  port.post(msg);
}

function abortError(): Error {
  const err = new Error('cancelled');
  err.name = 'AbortError';
  return err;
}

const opened: Promise<Engine> = Engine.open({ ...init.options, log: (line) => post({ type: 'log', line }), onTeamState: (state) => post({ type: 'team', state }) });
opened.then(
  (engine) => {
    post({ type: 'ready' });
    void warmUp(engine);
  },
  (err) => post({ type: 'open-failed', error: serializeError(err) }),
);

/**
 * One throwaway completion right after the engine opened, so the user's first keystroke does not
 * pay for the first run of the embedding model's session, the first reads of the index files and
 * the unoptimised first pass through the query code (0.8-1.3 s before, in VS Code on a 2-core
 * machine). Requests that arrive meanwhile are served as usual. Then the update path's first
 * costs (Engine.warmUpdatePath): the indexed languages' grammars and the model's document pass.
 */
async function warmUp(engine: Engine): Promise<void> {
  const t0 = performance.now();
  try {
    await engine.complete({ file: '', prefix: WARM_UP_PREFIX, line: 3 });
    const grammars = await engine.warmUpdatePath();
    post({ type: 'log', line: `engine warmed up in ${Math.round(performance.now() - t0)} ms (grammars: ${grammars.join(', ') || 'none'})` });
  } catch (err) {
    post({ type: 'log', line: `engine warm-up failed: ${(err as Error).message}` });
  }
}

const WARM_UP_PREFIX = 'import { readFile } from "node:fs/promises";\n\nexport async function loadConfig(path: string) {\n  const text = await readFile(path, "utf8");\n  return ';
// The failure is reported once via `open-failed`; requests see it through their own awaits.
opened.catch(() => undefined);

const controllers = new Map<number, AbortController>();
let mutationQueue: Promise<unknown> = Promise.resolve();

async function serve(call: MethodCall): Promise<void> {
  const { id, method } = call;
  const t0 = performance.now();
  const controller = new AbortController();
  controllers.set(id, controller);
  const run = async (): Promise<unknown> => {
    const engine = await opened;
    if (controller.signal.aborted) throw abortError();
    return invoke(engine, call, { signal: controller.signal, progress: (progress) => post({ type: 'progress', id, progress }), partial: (value) => post({ type: 'partial', id, value }) });
  };
  let task: Promise<unknown>;
  if (MUTATING_METHODS.has(method)) {
    task = mutationQueue.then(run);
    mutationQueue = task.catch(() => undefined);
  } else {
    task = run();
  }
  try {
    const value = await task;
    post({ type: 'result', id, ok: true, value, ms: performance.now() - t0 });
  } catch (err) {
    post({ type: 'result', id, ok: false, error: serializeError(controller.signal.aborted ? abortError() : err), ms: performance.now() - t0 });
  } finally {
    controllers.delete(id);
  }
}

port.onMessage((msg: ToWorker) => {
  switch (msg.type) {
    case 'ping':
      post({ type: 'pong', id: msg.id });
      break;
    case 'cancel':
      controllers.get(msg.id)?.abort();
      break;
    case 'call':
      void serve(msg);
      break;
  }
});

/**
 * SIGTERM / SIGINT / SIGHUP to the engine process (a child process: signals do not reach a worker
 * thread): requests in flight are cancelled, the mutations queued finish or fail, the engine closes
 * (saving and releasing the writer lock), and the process ends by that signal (util/termination.ts).
 */
async function closeEngine(): Promise<void> {
  for (const c of controllers.values()) c.abort();
  const engine = await opened.catch(() => undefined);
  await mutationQueue;
  await engine?.close();
}

if (!parentPort) {
  void closeOnSignals((stop) => new Promise<void>((resolve, reject) => stop.addEventListener('abort', () => closeEngine().then(resolve, reject), { once: true })));
}
