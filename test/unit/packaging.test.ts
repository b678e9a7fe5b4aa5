import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as zlib from 'zlib';

// Every platform VSIX, without building four of them (41 s for the four here, against ~12 s for
// the lists): each target's file list is what vsce's own listFiles() (the collectFiles() that
// `vsce package` runs) returns with the ignore file package.sh hands vsce for that target, checked
// by the same checkFiles() package.sh runs on the VSIX it builds. Size: each file deflated the way
// vsce's zip writer (yazl) does it, plus the zip headers: within 0.02% of the built VSIX, with the
// same file list (measured on all four). The linux-x64 VSIX itself is built, installed and run in
// code-server by `WITH_VSIX=1 npm run test:integration`.
const ROOT = path.resolve(__dirname, '../../..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const targets = require(path.join(ROOT, 'scripts/vscode/targets.cjs')) as {
  TARGETS: Record<string, { dir: string; natives: string[]; unsupported?: string }>;
  DEFAULT_TARGET: string;
  MAX_VSIX_BYTES: number;
  NATIVE: RegExp;
  nativeFiles(target: string): string[];
  ignoreFileText(target: string): string;
  listTargetFiles(target: string): Promise<string[]>;
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

describe('packaging: one VSIX per platform', function () {
  this.timeout(180_000);
  const buildable = Object.keys(targets.TARGETS).filter((t) => !targets.TARGETS[t].unsupported);
  const lists = new Map<string, string[]>();

  before(async () => {
    // The unit suite runs on a fresh checkout where dist/ is not built yet: build it as package.sh does.
    if (!fs.existsSync(path.join(ROOT, 'dist/worker.js')) || !fs.existsSync(path.join(ROOT, 'dist/extension.js'))) {
      execFileSync(process.execPath, ['esbuild.config.mjs', '--production'], { cwd: ROOT, stdio: 'ignore' });
    }
    const listed = await Promise.all(buildable.map((t) => targets.listTargetFiles(t)));
    buildable.forEach((t, i) => lists.set(t, listed[i]));
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
        assert.deepStrictEqual(targets.checkFiles(target, files), []);
        const wasm = files.filter((f) => f.startsWith('grammars/wasm/') && f.endsWith('.wasm'));
        const queries = files.filter((f) => f.startsWith('grammars/queries/') && f.endsWith('.scm'));
        assert.ok(wasm.length >= 10 && queries.length >= 9, `${wasm.length} wasm, ${queries.length} queries`);
        assert.ok(!files.some((f) => f.startsWith('models/reference-use-lite/')), 'the benchmark reference model stays out');
        assert.ok(!files.some((f) => /^(engine|extension\/src|test|out|training|scripts)\//.test(f)), 'no sources or tests');
      });

      it('is at most 40 MB', () => {
        const bytes = estimatedZipBytes(lists.get(target)!);
        assert.ok(bytes <= targets.MAX_VSIX_BYTES, `${(bytes / 1048576).toFixed(1)} MB`);
      });
    });
  }

  it('the binding each target ships exists in the installed onnxruntime-node, with the library it links', () => {
    for (const t of buildable) {
      for (const f of targets.nativeFiles(t)) assert.ok(fs.existsSync(path.join(ROOT, f)), f);
    }
    // darwin: the binding loads @rpath/libonnxruntime.1.dylib (the versioned copy is left out).
    const binding = fs.readFileSync(path.join(ORT_NAPI, 'darwin/arm64/onnxruntime_binding.node')).toString('latin1');
    assert.ok(binding.includes('@rpath/libonnxruntime.1.dylib'));
    // win32: the binding imports onnxruntime.dll (DirectML/dxcompiler/dxil are left out).
    const win = fs.readFileSync(path.join(ORT_NAPI, 'win32/x64/onnxruntime_binding.node')).toString('latin1');
    assert.ok(win.includes('onnxruntime.dll'));
  });

  it('darwin-x64 is refused with the reason while onnxruntime-node has no darwin/x64 binary', () => {
    // When a future onnxruntime-node ships one again, this fails: enable the target in targets.cjs.
    assert.ok(!fs.existsSync(path.join(ORT_NAPI, 'darwin/x64')), 'onnxruntime-node has darwin/x64 again: enable the target');
    assert.throws(() => targets.ignoreFileText('darwin-x64'), /no darwin\/x64 \(Intel Mac\) binary/);
  });

  it('rejects an unknown target', () => {
    assert.throws(() => targets.ignoreFileText('linux-riscv64'), /unknown target/);
  });
});
