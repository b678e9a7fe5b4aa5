// EngineClient supervision with real child processes and worker threads. The engine here is a small scripted peer
// speaking the engine protocol (engine/src/rpc/protocol.ts), so crashes, hangs and cancellation
// can be produced on demand; the real engine behind the same protocol is exercised by the
// extension-host suites (test/integration).
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { EngineClient, type EngineClientState } from '../../engine/src/rpc/client';
import { tempDir } from './tempDir';

const SCRIPTED_WORKER = `
const { parentPort, workerData: threadData } = require('node:worker_threads');
// As the real worker: a thread (parentPort) or a child process (IPC, init in the environment).
const workerData = parentPort ? threadData : JSON.parse(process.env.REPORECALL_ENGINE_INIT);
const post = (m) => (parentPort ? parentPort.postMessage(m) : process.send(m));
const onMessage = (l) => (parentPort ? parentPort.on('message', l) : process.on('message', l));
if (!parentPort) process.on('disconnect', () => process.exit(0));
if (workerData.options.root === 'fail-open') post({ type: 'open-failed', error: { name: 'Error', message: 'no index here' } });
else post({ type: 'ready' });
const waiting = new Map();
onMessage((msg) => {
  if (msg.type === 'ping') return post({ type: 'pong', id: msg.id });
  if (msg.type === 'cancel') {
    const id = msg.id; if (waiting.has(id)) { waiting.delete(id); post({ type: 'result', id, ok: false, error: { name: 'AbortError', message: 'cancelled' } }); }
    return;
  }
  const [arg] = msg.args;
  if (msg.method === 'retrieve' && arg === 'crash') process.exit(3);
  // What a native crash does (onnxruntime, the allocator): only meaningful in a child process.
  if (msg.method === 'retrieve' && arg === 'segfault') process.kill(process.pid, 'SIGSEGV');
  if (msg.method === 'retrieve' && arg === 'pid') return post({ type: 'result', id: msg.id, ok: true, value: { pid: process.pid } });
  if (msg.method === 'retrieve' && arg === 'execArgv') return post({ type: 'result', id: msg.id, ok: true, value: process.execArgv });
  if (msg.method === 'retrieve' && arg === 'hang') { for (;;) {} }
  if (msg.method === 'retrieve' && arg === 'wait') { waiting.set(msg.id, true); return; }
  if (msg.method === 'indexAll') {
    post({ type: 'progress', id: msg.id, progress: { phase: 'parse', done: 1, total: 2 } });
    post({ type: 'progress', id: msg.id, progress: { phase: 'parse', done: 2, total: 2 } });
  }
  post({ type: 'result', id: msg.id, ok: true, value: { method: msg.method, arg, pid: workerData.options.indexDir }, ms: msg.method === 'stats' ? 7.5 : undefined });
});
`;

for (const host of ['process', 'thread'] as const)
  describe(`EngineClient (engine in a ${host === 'process' ? 'child process' : 'worker thread'})`, function () {
    this.timeout(10_000);
    let workerPath: string;
    const clients: EngineClient[] = [];
    const client = (root = 'ok', extra: Partial<ConstructorParameters<typeof EngineClient>[0]> = {}): EngineClient => {
      const c = new EngineClient({ workerPath, host, init: { options: { root, indexDir: 'idx' } }, backoffMs: 20, heartbeatMs: 50, ...extra });
      clients.push(c);
      return c;
    };

    before(() => {
      workerPath = path.join(tempDir('reporecall-client-'), 'worker.js');
      fs.writeFileSync(workerPath, SCRIPTED_WORKER);
    });
    afterEach(async () => {
      await Promise.all(clients.splice(0).map((c) => c.close()));
    });

    it('serves requests once ready and forwards indexAll progress', async () => {
      const c = client();
      await c.whenReady();
      assert.strictEqual(c.state, 'ready');
      const progress: number[] = [];
      const result = (await c.indexAll((p) => progress.push(p.done))) as unknown as { method: string };
      assert.strictEqual(result.method, 'indexAll');
      assert.deepStrictEqual(progress, [1, 2]);
    });

    it('rejects requests in flight when the worker crashes, then restarts it and serves again', async () => {
      const c = client();
      await c.whenReady();
      const states: EngineClientState[] = [];
      c.onState((s) => states.push(s));
      let restarted = 0;
      c.onRestarted(() => restarted++);
      await assert.rejects(c.retrieve('crash'), (e: Error) => e.name === 'EngineCrashedError' && /exited with code 3/.test(e.message));
      const after = (await c.retrieve('again')) as unknown as { arg: string };
      assert.strictEqual(after.arg, 'again');
      assert.strictEqual(restarted, 1);
      assert.deepStrictEqual(states, ['restarting', 'ready']);
    });

    it('reports each answered request with the engine\'s own time, in the caller\'s async context', async () => {
      const c = client();
      await c.whenReady();
      const { AsyncLocalStorage } = await import('node:async_hooks');
      const als = new AsyncLocalStorage<string>();
      const seen: Array<[string, number, string | undefined]> = [];
      c.onTiming((t) => seen.push([t.method, t.engineMs, als.getStore()]));
      await als.run('span', () => c.stats());
      await c.retrieve('no time reported');
      assert.deepStrictEqual(seen, [['stats', 7.5, 'span'], ['retrieve', 0, undefined]]);
    });

    it('cancels a request through its AbortSignal', async () => {
      const c = client();
      await c.whenReady();
      const controller = new AbortController();
      const pending = c.retrieve('wait', { signal: controller.signal });
      controller.abort();
      await assert.rejects(pending, (e: Error) => e.name === 'AbortError');
      assert.strictEqual(((await c.retrieve('next')) as unknown as { arg: string }).arg, 'next');
    });

    it('times a request out without killing a healthy worker', async () => {
      const c = client('ok', { requestTimeoutMs: 100 });
      await c.whenReady();
      await assert.rejects(c.retrieve('wait'), (e: Error) => e.name === 'TimeoutError');
      assert.strictEqual(c.state, 'ready');
    });

    it('replaces a worker that stops answering heartbeats', async () => {
      const c = client('ok', { hangTimeoutMs: 300, requestTimeoutMs: 0 });
      let restarted = 0;
      c.onRestarted(() => restarted++);
      await c.whenReady();
      await assert.rejects(c.retrieve('hang'), (e: Error) => e.name === 'EngineCrashedError' && /hung/.test(e.message));
      assert.strictEqual(((await c.retrieve('alive')) as unknown as { arg: string }).arg, 'alive');
      assert.strictEqual(restarted, 1);
    });

    it('reports an engine that cannot open as failed instead of restarting it forever', async () => {
      const c = client('fail-open');
      await assert.rejects(c.whenReady(), /no index here/);
      assert.strictEqual(c.state, 'failed');
      assert.strictEqual(c.error, 'no index here');
    });

    it('gives up after maxRestarts consecutive crashes', async () => {
      const c = client('ok', { maxRestarts: 0 });
      await c.whenReady();
      await assert.rejects(c.retrieve('crash'));
      assert.strictEqual(c.state, 'failed');
      await assert.rejects(c.stats(), /gave up/);
    });
  });

describe('EngineClient: the engine child process', function () {
  this.timeout(20_000);
  let workerPath: string;
  before(() => {
    workerPath = path.join(tempDir('reporecall-client-'), 'worker.js');
    fs.writeFileSync(workerPath, SCRIPTED_WORKER);
  });

  it('survives a native crash (SIGSEGV) of the engine: this process lives on, a new engine serves', async () => {
    const c = new EngineClient({ workerPath, init: { options: { root: 'ok', indexDir: 'idx' } }, backoffMs: 20, heartbeatMs: 50 });
    try {
      await c.whenReady();
      const first = ((await c.retrieve('pid')) as unknown as { pid: number }).pid;
      assert.notStrictEqual(first, process.pid);
      await assert.rejects(c.retrieve('segfault'), (e: Error) => e.name === 'EngineCrashedError' && /SIGSEGV/.test(e.message));
      const second = ((await c.retrieve('pid')) as unknown as { pid: number }).pid;
      assert.notStrictEqual(second, first);
    } finally {
      await c.close();
    }
  });

  it('starts the engine with its V8 heap settings, and without those set to 0', async () => {
    // Node refuses to start on a V8 flag it does not know, so an answer also shows the flags are real.
    const execArgvOf = async (opts: { youngGenerationMb?: number; heapGrowingPercent?: number }) => {
      const c = new EngineClient({ workerPath, init: { options: { root: 'ok', indexDir: 'idx' } }, ...opts });
      try {
        return (await c.retrieve('execArgv')) as unknown as string[];
      } finally {
        await c.close();
      }
    };
    assert.deepStrictEqual(await execArgvOf({}), ['--max-semi-space-size=2', '--heap-growing-percent=30']);
    assert.deepStrictEqual(await execArgvOf({ youngGenerationMb: 0, heapGrowingPercent: 0 }), []);
  });

  it('exits when the process that started it dies (no orphaned engine)', async () => {
    const clientModule = path.resolve(__dirname, '../../engine/src/rpc/client.js');
    const parentScript = `
      const { EngineClient } = require(${JSON.stringify(clientModule)});
      const c = new EngineClient({ workerPath: ${JSON.stringify(workerPath)}, init: { options: { root: 'ok', indexDir: 'idx' } } });
      c.retrieve('pid').then((r) => console.log('engine-pid ' + r.pid));
      setInterval(() => undefined, 1000);`;
    const parent = spawn(process.execPath, ['-e', parentScript], { stdio: ['ignore', 'pipe', 'inherit'] });
    const enginePid = await new Promise<number>((resolve, reject) => {
      parent.stdout.on('data', (d: Buffer) => {
        const m = /engine-pid (\d+)/.exec(d.toString());
        if (m) resolve(Number(m[1]));
      });
      parent.on('exit', () => reject(new Error('parent exited early')));
    });
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    assert.ok(alive(enginePid));
    parent.kill('SIGKILL');
    const deadline = Date.now() + 10_000;
    while (alive(enginePid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.ok(!alive(enginePid), `engine process ${enginePid} outlived its parent`);
  });
});

describe('EngineClient with the real engine worker', function () {
  this.timeout(60_000);
  const FIXTURE = path.resolve(__dirname, '../../../test/fixtures/engine-repo');
  const realWorker = path.resolve(__dirname, '../../engine/src/rpc/worker.js');

  it('after a large index, replaces the worker by a fresh one on the saved index without failing requests', async () => {
    const root = tempDir('rr-recycle-');
    fs.cpSync(FIXTURE, root, { recursive: true });
    const indexDir = tempDir('rr-recycle-index-');
    const logs: string[] = [];
    const states: EngineClientState[] = [];
    const c = new EngineClient({ workerPath: realWorker, init: { options: { root, indexDir, dense: false } }, recycleAfterFiles: 3 });
    c.onLog((l) => logs.push(l));
    c.onState((s) => states.push(s));
    try {
      await c.whenReady();
      const indexing = c.indexAll();
      const stats = await indexing;
      assert.strictEqual(stats.changedFiles, 4);
      assert.ok(logs.some((l) => /replacing the engine worker by a fresh one \(4 files were indexed\)/.test(l)), logs.join('\n'));
      // The fresh worker loaded the saved index (it did not rebuild) and serves from it.
      assert.ok(logs.some((l) => /index loaded: 4 files/.test(l)), logs.join('\n'));
      // Shown as the index opening again, not as a crash.
      assert.ok(!states.includes('restarting'), states.join(' '));
      assert.deepStrictEqual(states.slice(-2), ['starting', 'ready']);
      const hits = await c.retrieve({ file: 'src/new.ts', prefix: 'const shown = applyDiscount(', line: 0 }, { k: 3 });
      assert.ok(hits.some((h) => h.name === 'applyDiscount'), JSON.stringify(hits.map((h) => h.name)));
      // A small incremental run does not recycle.
      logs.length = 0;
      fs.writeFileSync(path.join(root, 'src', 'extra.ts'), 'export function extra(): number { return 1; }\n');
      assert.strictEqual((await c.indexAll()).changedFiles, 1);
      assert.ok(!logs.some((l) => /replacing the engine worker/.test(l)), logs.join('\n'));
    } finally {
      await c.close();
      fs.rmSync(root, { recursive: true, force: true });
      fs.rmSync(indexDir, { recursive: true, force: true });
    }
  });

  it('answers requests and cancellation while a large index is being parsed (indexing yields to the event loop)', async () => {
    // Parsing and enrichment are synchronous; without turns of the event loop in between, a
    // 100k-file index left the engine unable to answer for 50 s (taken for a hang and killed).
    const root = tempDir('rr-busy-');
    const FILES = 1500;
    for (let i = 0; i < FILES; i++) {
      const dir = path.join(root, 'src', `m${i % 30}`);
      fs.mkdirSync(dir, { recursive: true });
      const body = Array.from({ length: 6 }, (_, j) => `export function f${i}_${j}(a: number, b: number): number {\n  const t = a * ${j} + b;\n  return t > ${i} ? t - ${i} : helper${j}(t);\n}\n`).join('\n');
      fs.writeFileSync(path.join(dir, `file${i}.ts`), body);
    }
    const indexDir = tempDir('rr-busy-index-');
    const c = new EngineClient({ workerPath: realWorker, init: { options: { root, indexDir, dense: false } }, recycleAfterFiles: 0 });
    try {
      await c.whenReady();
      const order: string[] = [];
      let statsSent = false;
      let statsDone: Promise<unknown> = Promise.resolve();
      const indexing = c.indexAll((p) => {
        if (p.phase !== 'parse' || statsSent) return;
        statsSent = true;
        statsDone = c.stats().then((s) => { order.push(`stats:${s.files}`); });
      }).then(() => order.push('indexAll'));
      await indexing;
      await statsDone;
      assert.ok(statsSent);
      // Answered in the middle of the run, from the index as it stood, before indexAll finished.
      assert.match(order[0], /^stats:\d+$/, order.join(' '));
      assert.ok(Number(order[0].slice(6)) < FILES, order.join(' '));

      // A cancellation sent during the parse stops the run instead of waiting for its end.
      const root2 = tempDir('rr-busy2-');
      fs.cpSync(root, root2, { recursive: true });
      const c2 = new EngineClient({ workerPath: realWorker, init: { options: { root: root2, indexDir: tempDir('rr-busy2-index-'), dense: false } }, recycleAfterFiles: 0 });
      try {
        await c2.whenReady();
        const controller = new AbortController();
        let lastDone = 0;
        const run = c2.indexAll((p) => { lastDone = p.done; if (p.phase === 'parse' && p.done >= 10) controller.abort(); }, controller.signal);
        await assert.rejects(run, (e: Error) => e.name === 'AbortError');
        assert.ok(lastDone < FILES, `parse went on to ${lastDone}`);
        assert.ok((await c2.stats()).files < FILES);
      } finally {
        await c2.close();
        fs.rmSync(root2, { recursive: true, force: true });
      }
    } finally {
      await c.close();
      fs.rmSync(root, { recursive: true, force: true });
      fs.rmSync(indexDir, { recursive: true, force: true });
    }
  });

  it('an update and a removal answer with the index\'s stats after them (no second request for the status bar)', async () => {
    const root = tempDir('rr-update-stats-');
    fs.cpSync(FIXTURE, root, { recursive: true });
    const indexDir = tempDir('rr-update-stats-index-');
    const c = new EngineClient({ workerPath: realWorker, init: { options: { root, indexDir, dense: false } } });
    try {
      await c.whenReady();
      const before = await c.indexAll();
      fs.writeFileSync(path.join(root, 'src', 'added.ts'), 'export function added(): number { return 2; }\n');
      const afterAdd = await c.updateFile('src/added.ts');
      assert.strictEqual(afterAdd.files, before.files + 1);
      const afterRemove = await c.removeFile('src/added.ts');
      assert.strictEqual(afterRemove.files, before.files);
      assert.deepStrictEqual(afterRemove.files, (await c.stats()).files);
    } finally {
      await c.close();
      fs.rmSync(root, { recursive: true, force: true });
      fs.rmSync(indexDir, { recursive: true, force: true });
    }
  });

  it('a request sent while the worker is being replaced waits for the fresh one', async () => {
    const root = tempDir('rr-recycle-');
    fs.cpSync(FIXTURE, root, { recursive: true });
    const indexDir = tempDir('rr-recycle-index-');
    const c = new EngineClient({ workerPath: realWorker, init: { options: { root, indexDir, dense: false } }, recycleAfterFiles: 1 });
    try {
      await c.whenReady();
      let replacing = false;
      c.onState((s) => { if (s === 'starting') replacing = true; });
      const indexing = c.indexAll();
      // Sent as soon as the replacement starts: it must be served by the new worker, not fail.
      const during = new Promise<unknown>((resolve, reject) => {
        const sub = c.onState((s) => {
          if (s !== 'starting') return;
          sub.dispose();
          c.retrieve('applyDiscount price', { k: 3 }).then(resolve, reject);
        });
      });
      await indexing;
      const hits = (await during) as { name?: string }[];
      assert.ok(replacing);
      assert.ok(hits.length > 0);
    } finally {
      await c.close();
      fs.rmSync(root, { recursive: true, force: true });
      fs.rmSync(indexDir, { recursive: true, force: true });
    }
  });
});
