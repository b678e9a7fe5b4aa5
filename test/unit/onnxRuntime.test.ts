import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { Worker } from 'worker_threads';
import { loadOnnxRuntime, OnnxEmbedder, OnnxRuntimeUnavailableError, requireOnnxRuntime } from '../../engine/src/embed';
import { tempDir } from './tempDir';

const ROOT = path.resolve(__dirname, '../../..');

describe('onnxRuntime: onnxruntime-node loaded lazily, in one place', function () {
  this.timeout(60_000);

  it('loads the real module here, once per loader', () => {
    const ort = loadOnnxRuntime();
    assert.strictEqual(typeof ort.InferenceSession.create, 'function');
    assert.strictEqual(loadOnnxRuntime(), ort);
    assert.strictEqual(loadOnnxRuntime(requireOnnxRuntime), ort);
  });

  it('turns a loader error into OnnxRuntimeUnavailableError naming the platform, first line only, and does not retry', () => {
    let calls = 0;
    const failing = (): never => {
      calls++;
      throw new Error('dlopen(/ext/onnxruntime_binding.node, 0x0001): tried: (mach-o file, but is an incompatible architecture)\nRequire stack:\n- x');
    };
    for (let i = 0; i < 2; i++) {
      assert.throws(
        () => loadOnnxRuntime(failing),
        (err: unknown) =>
          err instanceof OnnxRuntimeUnavailableError &&
          err.platform === `${process.platform}-${process.arch}` &&
          err.message === `the ONNX runtime is not available on ${process.platform}-${process.arch}: dlopen(/ext/onnxruntime_binding.node, 0x0001): tried: (mach-o file, but is an incompatible architecture)`,
      );
    }
    assert.strictEqual(calls, 1);
    // A non-Error throw still gives a reason.
    assert.throws(() => loadOnnxRuntime(() => { throw 'boom'; }), /not available on .*: boom$/);
  });

  it('OnnxEmbedder.load takes the runtime it is given', async () => {
    const dir = path.join(ROOT, 'models/reporecall-code');
    if (!fs.existsSync(path.join(dir, 'model.onnx'))) return;
    const embedder = await OnnxEmbedder.load(dir, { runtime: requireOnnxRuntime() });
    assert.ok(embedder.dim > 0);
    await embedder.dispose();
  });

  it('no static import is left: with the binding missing, the compiled engine still opens, indexes and warns', () => {
    // A fresh Node in which every require of an onnxruntime_binding.node fails as it does in the
    // darwin-x64 VSIX (onnxruntime-node's JS is there, its bin/ is not); anything that imported
    // onnxruntime-node at load time would throw before Engine.open.
    const tmp = tempDir('rr-no-ort-');
    try {
      const root = path.join(tmp, 'repo');
      fs.cpSync(path.join(ROOT, 'test/fixtures/engine-repo'), root, { recursive: true });
      const hook = path.join(tmp, 'no-binding.js');
      fs.writeFileSync(
        hook,
        `const Module = require('module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (/onnxruntime_binding\\.node$/.test(request)) {
    const err = new Error("Cannot find module '" + request + "'");
    err.code = 'MODULE_NOT_FOUND';
    throw err;
  }
  return resolve.call(this, request, ...rest);
};`,
      );
      const script = `
const { Engine } = require(${JSON.stringify(path.join(ROOT, 'out/engine/src/engine.js'))});
(async () => {
  const engine = await Engine.open({ root: ${JSON.stringify(root)}, indexDir: ${JSON.stringify(path.join(tmp, 'index'))}, dense: true });
  const stats = await engine.indexAll();
  const hits = await engine.retrieve('apply the discount code', { k: 3 });
  await engine.close();
  console.log(JSON.stringify({ stats, hits: hits.map((h) => ({ file: h.file, name: h.name, dense: h.signals.dense })) }));
})().catch((e) => { console.error(e); process.exit(1); });`;
      const out = execFileSync(process.execPath, ['-r', hook, '-e', script], { encoding: 'utf8' });
      const { stats, hits } = JSON.parse(out.trim().split('\n').pop()!) as {
        stats: { files: number; modelDir: string | null; modelWarning?: string };
        hits: Array<{ file: string; name?: string; dense?: number }>;
      };
      assert.strictEqual(stats.files, 4);
      assert.strictEqual(stats.modelDir, null);
      assert.match(stats.modelWarning ?? '', /^the ONNX runtime is not available on \w+-\w+: Cannot find module '.*onnxruntime_binding\.node'; completions and search use the lexical and symbol signals only$/);
      assert.ok(hits.some((h) => h.name === 'applyDiscount'), JSON.stringify(hits));
      assert.ok(hits.every((h) => h.dense === undefined));
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('turns the runtime\'s telemetry off before loading it, and a worker thread started without the switch refuses to load it', async () => {
    loadOnnxRuntime();
    assert.strictEqual(process.env.ORT_DISABLE_TELEMETRY, '1');
    // A thread's process.env is a copy the native library never reads: without the switch in the
    // starting process's environment, loading there would send telemetry (offline.test.ts).
    const script = `const { parentPort } = require('worker_threads');
const { loadOnnxRuntime } = require(${JSON.stringify(path.join(ROOT, 'out/engine/src/embed/onnxRuntime.js'))});
try { loadOnnxRuntime(); parentPort.postMessage('loaded'); } catch (e) { parentPort.postMessage(e.message); }`;
    const run = (env: Record<string, string>) =>
      new Promise<string>((resolve, reject) => {
        const w = new Worker(script, { eval: true, env });
        w.once('message', (m: string) => void w.terminate().then(() => resolve(m)));
        w.once('error', reject);
      });
    assert.match(await run({}), /^the ONNX runtime is not available on \w+-\w+: onnxruntime-node would send telemetry from this worker thread: set ORT_DISABLE_TELEMETRY=1 in the process that starts it$/);
    assert.strictEqual(await run({ ORT_DISABLE_TELEMETRY: '1' }), 'loaded');
  });

  it('nothing else loads onnxruntime-node: the engine\'s loader and training/ort.mjs are the only requires and imports', () => {
    const loaders: string[] = [];
    const walk = (dir: string): void => {
      for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
        const rel = path.join(dir, e.name);
        if (e.isDirectory()) walk(rel);
        else if (/\.(ts|js|mjs|cjs)$/.test(e.name) && /(require|import)\s*\(\s*['"]onnxruntime-node['"]|^\s*import\s+(?!type\b)[^;]*from\s+['"]onnxruntime-node['"]/m.test(fs.readFileSync(path.join(ROOT, rel), 'utf8'))) loaders.push(rel);
      }
    };
    for (const dir of ['engine', 'extension', 'test', 'training', 'scripts', 'bin']) walk(dir);
    assert.deepStrictEqual(loaders.sort(), ['engine/src/embed/onnxRuntime.ts', 'training/ort.mjs']);
    assert.match(fs.readFileSync(path.join(ROOT, 'training/ort.mjs'), 'utf8'), /process\.env\.ORT_DISABLE_TELEMETRY = '1';\nconst require = createRequire\(import\.meta\.url\);\nexport default require\('onnxruntime-node'\);/);
  });
});
