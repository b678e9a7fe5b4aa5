// dist/THIRD_PARTY_NOTICES.txt (scripts/vscode/notices.cjs): every npm package whose code esbuild
// bundles gets its licence section. The packages are read independently of the metafile the
// notices come from: from the module path comments esbuild writes into an unminified bundle.
import * as assert from 'node:assert';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(__dirname, '../../..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const notices = require(path.join(ROOT, 'scripts/vscode/notices.cjs')) as {
  packageDirOf(input: string): string | undefined;
  bundledPackageDirs(metafile: esbuild.Metafile): string[];
  thirdPartyNotices(root: string, dirs: string[]): string;
};

describe('third-party notices', function () {
  this.timeout(60_000);

  it('names the package of an input path, scoped or not, nested node_modules included', () => {
    assert.strictEqual(notices.packageDirOf('node_modules/pg/lib/client.js'), 'node_modules/pg');
    assert.strictEqual(notices.packageDirOf('node_modules/@huggingface/tokenizers/dist/index.js'), 'node_modules/@huggingface/tokenizers');
    assert.strictEqual(notices.packageDirOf('node_modules/a/node_modules/b/index.js'), 'node_modules/a/node_modules/b');
    assert.strictEqual(notices.packageDirOf('engine/src/engine.ts'), undefined);
  });

  it("has a licence section for every package the engine's bundle holds", async () => {
    const built = await esbuild.build({
      absWorkingDir: ROOT, entryPoints: ['engine/src/rpc/worker.ts'], bundle: true, platform: 'node', format: 'cjs', write: false, metafile: true,
      external: ['vscode', 'onnxruntime-node', 'web-tree-sitter'], logLevel: 'silent', outdir: 'out/notices-test',
    });
    const code = built.outputFiles.find((f) => f.path.endsWith('.js'))!.text;
    const inBundle = new Set([...code.matchAll(/^\/\/ (node_modules\/\S+)$/gm)].map((m) => notices.packageDirOf(m[1])!));
    assert.ok(inBundle.size >= 3, `the bundle names ${[...inBundle].join(', ')}`);
    const text = notices.thirdPartyNotices(ROOT, notices.bundledPackageDirs(built.metafile!));
    for (const dir of inBundle) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a package.json chosen at run time
      const { name, version } = require(path.join(ROOT, dir, 'package.json')) as { name: string; version: string };
      assert.ok(text.includes(`\n${name} ${version} — `), `no notice for ${name} ${version}`);
    }
    assert.ok(/Permission is hereby granted/.test(text), 'the MIT licence texts are included');
  });
});
