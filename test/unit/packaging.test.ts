import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as zlib from 'zlib';
import { EngineClient } from '../../engine/src/rpc/client';
import { tempDir } from './tempDir';

// Every platform VSIX, without building five of them (41 s for four here, against ~12 s for
// the lists): each target's file list is what vsce's own listFiles() (the collectFiles() that
// `vsce package` runs) returns with the ignore file package.sh hands vsce for that target, checked
// by the same checkFiles() package.sh runs on the VSIX it builds. Size: each file deflated the way
// vsce's zip writer (yazl) does it, plus the zip headers: within 0.02% of the built VSIX, with the
// same file list (measured on the four with a runtime). The linux-x64 VSIX itself is built, installed and run in
// code-server by `WITH_VSIX=1 npm run test:integration`.
const ROOT = path.resolve(__dirname, '../../..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const targets = require(path.join(ROOT, 'scripts/vscode/targets.cjs')) as {
  TARGETS: Record<string, { dir: string; natives: string[]; maxMB: number; noRuntime?: string }>;
  DEFAULT_TARGET: string;
  MB: number;
  MODEL: string[];
  NATIVE: RegExp;
  nativeFiles(target: string): string[];
  ignoreFileText(target: string, root?: string): string;
  listTargetFiles(target: string): Promise<string[]>;
  asPackaged(files: string[]): string[];
  checkFiles(target: string, files: string[]): string[];
};

const ORT_NAPI = path.join(ROOT, 'node_modules/onnxruntime-node/bin/napi-v6');
/** Per-target extension of the onnxruntime shared library the binding links. */
const SHARED_LIB: Record<string, RegExp> = { linux: /\.so(\.\d+)*$/, darwin: /\.dylib$/, win32: /\.dll$/ };

const deflated = new Map<string, number>();
/** Size of a zip of `files` as yazl writes it (deflate, default level; local + central headers). */
function estimatedZipBytes(files: string[]): number {
  let total = 22 + 4096; // end of central directory + extension.vsixmanifest and [Content_Types].xml
  for (const f of files) {
    let size = deflated.get(f); // files shared by every target are deflated once
    if (size === undefined) deflated.set(f, (size = zlib.deflateRawSync(fs.readFileSync(path.join(ROOT, f))).length));
    total += 30 + 46 + 2 * `extension/${f}`.length + 16 + size;
  }
  return total;
}

/** dist/ is missing, or older than a source file it bundles. */
function distIsStale(): boolean {
  const built = ['dist/worker.js', 'dist/extension.js'].map((f) => path.join(ROOT, f));
  if (!built.every((f) => fs.existsSync(f))) return true;
  const builtAt = Math.min(...built.map((f) => fs.statSync(f).mtimeMs));
  const newer = (dir: string): boolean =>
    fs.readdirSync(dir, { withFileTypes: true }).some((e) => {
      const p = path.join(dir, e.name);
      return e.isDirectory() ? newer(p) : e.name.endsWith('.ts') && fs.statSync(p).mtimeMs > builtAt;
    });
  return newer(path.join(ROOT, 'engine/src')) || newer(path.join(ROOT, 'extension/src'));
}

describe('packaging: one VSIX per platform', function () {
  this.timeout(180_000);
  const all = Object.keys(targets.TARGETS);
  const withRuntime = all.filter((t) => !targets.TARGETS[t].noRuntime);
  const lists = new Map<string, string[]>();

  before(async () => {
    // The unit suite runs on a fresh checkout where dist/ is not built yet, or on one where the
    // sources changed since: build it as package.sh does (the darwin-x64 test runs dist/worker.js).
    if (distIsStale()) {
      execFileSync(process.execPath, ['esbuild.config.mjs', '--production'], { cwd: ROOT, stdio: 'ignore' });
    }
    const listed = await Promise.all(all.map((t) => targets.listTargetFiles(t)));
    all.forEach((t, i) => lists.set(t, listed[i]));
  });

  it('covers the five targets, linux-x64 by default', () => {
    assert.deepStrictEqual(Object.keys(targets.TARGETS).sort(), ['darwin-arm64', 'darwin-x64', 'linux-arm64', 'linux-x64', 'win32-x64']);
    assert.strictEqual(targets.DEFAULT_TARGET, 'linux-x64');
  });

  for (const target of ['linux-x64', 'linux-arm64', 'darwin-arm64', 'win32-x64']) {
    describe(target, () => {
      it('holds its own onnxruntime binding and shared library, no other platform\'s native file', () => {
        const files = lists.get(target)!;
        const [platform, arch] = target.split('-');
        const natives = files.filter((f) => targets.NATIVE.test(f));
        const own = `node_modules/onnxruntime-node/bin/napi-v6/${platform}/${arch}/`;
        assert.ok(natives.length >= 2, `natives: ${natives.join(', ')}`);
        for (const f of natives) assert.ok(f.startsWith(own), `${f} is not under ${own}`);
        assert.ok(natives.includes(`${own}onnxruntime_binding.node`), 'the .node binding');
        assert.ok(natives.some((f) => SHARED_LIB[platform].test(f)), `its shared library (${SHARED_LIB[platform]})`);
      });

      it('holds dist/, the grammars and the model (checkFiles, as package.sh checks the VSIX)', () => {
        const files = lists.get(target)!;
        assert.deepStrictEqual(targets.checkFiles(target, targets.asPackaged(files)), []);
        const wasm = files.filter((f) => f.startsWith('grammars/wasm/') && f.endsWith('.wasm'));
        const queries = files.filter((f) => f.startsWith('grammars/queries/') && f.endsWith('.scm'));
        assert.ok(wasm.length >= 10 && queries.length >= 9, `${wasm.length} wasm, ${queries.length} queries`);
        assert.ok(!files.some((f) => f.startsWith('models/reference-use-lite/')), 'the benchmark reference model stays out');
        assert.ok(!files.some((f) => /^(engine|extension\/src|test|out|training|scripts)\//.test(f)), 'no sources or tests');
      });

      it(`is within its size bound (${targets.TARGETS[target].maxMB} MB)`, () => {
        const bytes = estimatedZipBytes(lists.get(target)!);
        assert.ok(bytes <= targets.TARGETS[target].maxMB * targets.MB, `${(bytes / 1048576).toFixed(1)} MB`);
      });
    });
  }

  it('the binding each target ships exists in the installed onnxruntime-node, with the library it links', () => {
    for (const t of withRuntime) {
      for (const f of targets.nativeFiles(t)) assert.ok(fs.existsSync(path.join(ROOT, f)), f);
    }
    // darwin: the binding loads @rpath/libonnxruntime.1.dylib (the versioned copy is left out).
    const binding = fs.readFileSync(path.join(ORT_NAPI, 'darwin/arm64/onnxruntime_binding.node')).toString('latin1');
    assert.ok(binding.includes('@rpath/libonnxruntime.1.dylib'));
    // win32: the binding imports onnxruntime.dll (DirectML/dxcompiler/dxil are left out).
    const win = fs.readFileSync(path.join(ORT_NAPI, 'win32/x64/onnxruntime_binding.node')).toString('latin1');
    assert.ok(win.includes('onnxruntime.dll'));
  });

  describe('darwin-x64 (no onnxruntime binary exists for it: the engine runs without the dense signal)', () => {
    it('is the one target without a runtime, and onnxruntime-node still has no darwin/x64 binary', () => {
      assert.deepStrictEqual(all.filter((t) => targets.TARGETS[t].noRuntime), ['darwin-x64']);
      // When a future onnxruntime-node ships one again, this fails (and so does package.sh): give
      // darwin-x64 its natives in targets.cjs, and the model with them.
      assert.ok(!fs.existsSync(path.join(ORT_NAPI, 'darwin/x64')), 'onnxruntime-node has darwin/x64 again: ship it');
      assert.deepStrictEqual(targets.nativeFiles('darwin-x64'), []);
    });

    it('holds no native file of any platform, nothing of onnxruntime-node/bin, and no model', () => {
      const files = lists.get('darwin-x64')!;
      assert.deepStrictEqual(files.filter((f) => targets.NATIVE.test(f)), []);
      assert.deepStrictEqual(files.filter((f) => /\.(node|dylib|so|dll)(\.|$)/i.test(f)), []);
      assert.deepStrictEqual(files.filter((f) => f.startsWith('node_modules/onnxruntime-node/bin/')), []);
      // Deliberately absent: nothing could run it there (8.6 MB, ~4 MB compressed, of dead weight).
      assert.deepStrictEqual(files.filter((f) => f.startsWith('models/')), []);
    });

    it('holds dist/, the grammars and onnxruntime-node\'s JavaScript (so the engine\'s reason names the missing binding)', () => {
      const files = lists.get('darwin-x64')!;
      assert.deepStrictEqual(targets.checkFiles('darwin-x64', targets.asPackaged(files)), []);
      const wasm = files.filter((f) => f.startsWith('grammars/wasm/') && f.endsWith('.wasm'));
      const queries = files.filter((f) => f.startsWith('grammars/queries/') && f.endsWith('.scm'));
      assert.ok(wasm.length >= 10 && queries.length >= 9, `${wasm.length} wasm, ${queries.length} queries`);
      assert.ok(files.includes('node_modules/onnxruntime-node/dist/index.js'));
      assert.ok(!files.some((f) => /^(engine|extension\/src|test|out|training|scripts)\//.test(f)), 'no sources or tests');
    });

    it('its ignore file leaves out the model, and package.sh refuses it once onnxruntime-node has a darwin/x64 binary', () => {
      assert.match(targets.ignoreFileText('darwin-x64'), /\nmodels\/\*\*\n$/);
      const fake = tempDir('rr-fake-ort-');
      try {
        for (const f of ['.vscodeignore', 'package-lock.json']) fs.copyFileSync(path.join(ROOT, f), path.join(fake, f));
        fs.mkdirSync(path.join(fake, 'node_modules/onnxruntime-node/bin/napi-v6/darwin/x64'), { recursive: true });
        assert.throws(() => targets.ignoreFileText('darwin-x64', fake), /has node_modules\/onnxruntime-node\/bin\/napi-v6\/darwin\/x64 now: give darwin-x64 its natives/);
      } finally {
        fs.rmSync(fake, { recursive: true, force: true });
      }
    });

    it('its engine, laid out as in the VSIX, opens, indexes, retrieves and says why there is no dense signal', async () => {
      // The VSIX's files copied as they would be installed. Its onnxruntime-node has no bin/, so on
      // this machine the require of this platform's binding fails just as darwin/x64's does on an
      // Intel Mac: the bundled worker must still serve, with the reason in modelWarning.
      const ext = tempDir('rr-darwin-x64-');
      let client: EngineClient | undefined;
      try {
        for (const f of lists.get('darwin-x64')!) {
          fs.mkdirSync(path.dirname(path.join(ext, f)), { recursive: true });
          fs.copyFileSync(path.join(ROOT, f), path.join(ext, f));
        }
        const root = path.join(ext, 'workspace');
        fs.cpSync(path.join(ROOT, 'test/fixtures/engine-repo'), root, { recursive: true });
        const logs: string[] = [];
        // As extension/src/ctx.ts resolves them: no models/ folder, so no modelDir.
        client = new EngineClient({ workerPath: path.join(ext, 'dist/worker.js'), init: { options: { root, indexDir: path.join(ext, 'index'), grammarDir: path.join(ext, 'grammars') } } });
        client.onLog((l) => logs.push(l));
        const stats = await client.indexAll();
        assert.strictEqual(stats.files, 4);
        assert.strictEqual(stats.modelDir, null);
        const platform = `${process.platform}-${process.arch}`;
        assert.ok(
          stats.modelWarning?.startsWith(`the ONNX runtime is not available on ${platform}: Cannot find module '../bin/napi-v6/${process.platform}/${process.arch}/onnxruntime_binding.node'`),
          stats.modelWarning,
        );
        assert.match(stats.modelWarning!, /; completions and search use the lexical and symbol signals only$/);
        assert.ok(logs.includes(stats.modelWarning!), 'logged');
        const hits = await client.retrieve({ file: 'src/new.ts', prefix: 'const total = cartTotal(items);\nconst shown = applyDiscount(', line: 1 }, { k: 3 });
        assert.ok(hits.some((h) => h.name === 'applyDiscount' && h.signals.symbol !== undefined), JSON.stringify(hits.map((h) => [h.file, h.name])));
        assert.ok(hits.every((h) => h.signals.dense === undefined));
      } finally {
        await client?.close();
        fs.rmSync(ext, { recursive: true, force: true });
      }
    });

    it(`is within its size bound (${targets.TARGETS['darwin-x64'].maxMB} MB)`, () => {
      const bytes = estimatedZipBytes(lists.get('darwin-x64')!);
      assert.ok(bytes <= targets.TARGETS['darwin-x64'].maxMB * targets.MB, `${(bytes / 1048576).toFixed(1)} MB`);
    });

    it('checkFiles fails it with a native file or the model in it, and fails a runtime target without its model', () => {
      const files = targets.asPackaged(lists.get('darwin-x64')!);
      const arm = targets.nativeFiles('darwin-arm64');
      assert.ok(targets.checkFiles('darwin-x64', [...files, ...arm]).some((p) => p.includes('native file that is not darwin-x64')));
      assert.ok(targets.checkFiles('darwin-x64', [...files, ...targets.MODEL]).some((p) => /no ONNX runtime to run a model/.test(p)));
      const linux = targets.asPackaged(lists.get('linux-x64')!).filter((f) => !f.startsWith('models/'));
      assert.ok(targets.checkFiles('linux-x64', linux).includes(`missing ${targets.MODEL[0]}`));
    });
  });

  it('rejects an unknown target', () => {
    assert.throws(() => targets.ignoreFileText('linux-riscv64'), /unknown target/);
  });
});
