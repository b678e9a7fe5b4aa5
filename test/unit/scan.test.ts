// The workspace scanner on real trees built in a temporary directory (so their ignore files never
// affect this repository).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { countSkips, scanWorkspace, type ScanResult } from '../../engine/src/scan';
import type { SkipReason } from '../../engine/src/types';
import { tempDir } from './tempDir';

/** File contents by workspace-relative path; a `{ link }` entry makes a symbolic link instead. */
type Tree = Record<string, string | Buffer | { link: string }>;

function makeTree(tree: Tree): string {
  const root = tempDir('reporecall-scan-');
  for (const [rel, content] of Object.entries(tree)) {
    const abs = path.join(root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    if (typeof content === 'object' && !Buffer.isBuffer(content)) fs.symlinkSync(content.link, abs);
    else fs.writeFileSync(abs, content);
  }
  return root;
}

const runningAsRoot = typeof process.getuid === 'function' && process.getuid() === 0;

const accepted = (r: ScanResult) => r.files.map((f) => f.relPath);
const skipMap = (r: ScanResult) => Object.fromEntries(r.skipped.map((s) => [s.relPath, s.reason]));

const code = (name: string) => `export function ${name}() {\n  return 1;\n}\n`;

describe('scanWorkspace', function () {
  const roots: string[] = [];
  const tree = (t: Tree) => {
    const root = makeTree(t);
    roots.push(root);
    return root;
  };
  after(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

  describe('ignore rules', () => {
    let result: ScanResult;
    before(async () => {
      const root = tree({
        '.git/info/exclude': 'excluded-by-info.txt\n',
        '.git/HEAD': 'ref: refs/heads/main\n',
        '.gitignore': '# comment\n*.log\n!important.log\n/top-only.txt\ntmp-*\n',
        '.reporecallignore': 'private/\n',
        'excluded-by-info.txt': 'x\n',
        'top-only.txt': 'x\n',
        'main.ts': code('main'),
        'src/main.ts': code('main'),
        'src/app.log': 'log\n',
        'src/important.log': 'kept by negation\n',
        'src/top-only.txt': 'anchored pattern applies only at the root\n',
        'src/tmp-scratch.ts': code('scratch'),
        'src/notes.snap': 'snapshot\n',
        'private/notes.md': 'secret plans\n',
        'pkg/.gitignore': '*.gen.ts\n!keep.gen.ts\n/anchored.ts\n',
        'pkg/.reporecallignore': '!forced.gen.ts\n',
        'pkg/a.gen.ts': code('a'),
        'pkg/keep.gen.ts': code('keep'),
        'pkg/forced.gen.ts': code('forced'),
        'pkg/anchored.ts': code('anchored'),
        'pkg/debug.log': 'log\n',
        'pkg/deep/anchored.ts': code('deepAnchored'),
        'pkg/deep/b.gen.ts': code('b'),
        'pkg/sub/.gitignore': '!debug.log\n',
        'pkg/sub/debug.log': 'kept by a deeper negation\n',
        'extra/x.ts': code('x'),
        'node_modules/lib/index.js': code('lib'),
        'dist/bundle.js': code('bundle'),
        'deps/__pycache__/m.pyc': Buffer.from([0x42, 0x0d, 0x0d, 0x0a]),
      });
      result = await scanWorkspace(root, { excludePatterns: ['extra/', '*.snap'] });
    });

    it('accepts exactly the files no rule excludes', () => {
      assert.deepEqual(accepted(result), [
        '.gitignore',
        '.reporecallignore',
        'main.ts',
        'pkg/.gitignore',
        'pkg/.reporecallignore',
        'pkg/deep/anchored.ts',
        'pkg/forced.gen.ts',
        'pkg/keep.gen.ts',
        'pkg/sub/.gitignore',
        'pkg/sub/debug.log',
        'src/important.log',
        'src/main.ts',
        'src/top-only.txt',
      ]);
    });

    it('reports every exclusion as ignored, directories once with a trailing slash', () => {
      assert.deepEqual(skipMap(result), {
        '.git/': 'ignored',
        'deps/__pycache__/': 'ignored',
        'dist/': 'ignored',
        'excluded-by-info.txt': 'ignored',
        'extra/': 'ignored',
        'node_modules/': 'ignored',
        'pkg/a.gen.ts': 'ignored',
        'pkg/anchored.ts': 'ignored',
        'pkg/debug.log': 'ignored',
        'pkg/deep/b.gen.ts': 'ignored',
        'private/': 'ignored',
        'src/app.log': 'ignored',
        'src/notes.snap': 'ignored',
        'src/tmp-scratch.ts': 'ignored',
        'top-only.txt': 'ignored',
      });
    });

    it('says which file and pattern excluded a path', () => {
      const detail = (p: string) => result.skipped.find((s) => s.relPath === p)?.detail;
      assert.equal(detail('excluded-by-info.txt'), '.git/info/exclude: excluded-by-info.txt');
      assert.equal(detail('pkg/a.gen.ts'), 'pkg/.gitignore: *.gen.ts');
      assert.equal(detail('private/'), '.reporecallignore: private/');
      assert.equal(detail('extra/'), 'excludePatterns: extra/');
      assert.equal(detail('node_modules/'), 'default-excluded directory');
    });

    it('walks default-excluded directories when the list is replaced', async () => {
      const root = tree({ 'build/gen.ts': code('gen'), 'node_modules/m/index.js': code('m'), 'src/a.ts': code('a') });
      const r = await scanWorkspace(root, { defaultExcludedDirs: ['node_modules'] });
      assert.deepEqual(accepted(r), ['build/gen.ts', 'src/a.ts']);
      assert.deepEqual(skipMap(r), { 'node_modules/': 'ignored' });
    });

    it('lets excludePatterns re-include what a .gitignore excluded', async () => {
      const root = tree({ '.gitignore': '*.gen.ts\n', 'a.gen.ts': code('a'), 'b.gen.ts': code('b') });
      const r = await scanWorkspace(root, { excludePatterns: ['!a.gen.ts'] });
      assert.deepEqual(accepted(r), ['.gitignore', 'a.gen.ts']);
      assert.deepEqual(skipMap(r), { 'b.gen.ts': 'ignored' });
    });
  });

  describe('content and name classification', () => {
    let root: string;
    before(() => {
      const minifiedLine = 'var a=1;'.repeat(400); // 3200 characters on one line
      root = tree({
        'src/ok.ts': code('ok'),
        'src/with space.ts': code('withSpace'),
        'src/ünïcödé.py': 'def f():\n    return "é"\n',
        'src/日本語.ts': code('nihongo'),
        'src/empty.ts': '',
        'assets/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
        'src/nul.txt': Buffer.concat([Buffer.from('text'), Buffer.from([0]), Buffer.from('more')]),
        'src/latin1.py': Buffer.from([0x23, 0x20, 0xe9, 0x0a]), // "# é" in Latin-1
        'src/app.min.js': code('min'),
        'src/packed.js': `/*! packed v1 */\n${minifiedLine}\n`,
        // Hand-written with long literals: mean line > 200 and a line > 1000, but most bytes are not in
        // the longest lines, so it is not minified.
        'src/big-literal.ts': `// words\nexport const WORDS = [${'"w", '.repeat(300)}];\nexport const SHAPES = [${'"s", '.repeat(150)}];\n${code('a')}`,
        'src/huge.ts': 'x'.repeat(5000),
        'package-lock.json': '{}\n',
        'proto/msg_pb2.py': 'x = 1\n',
        'src/gen.go': '// Code generated by protoc-gen-go. DO NOT EDIT.\npackage x\n',
        'src/gen.py': '# -*- coding: utf-8 -*-\n# @generated by tool\nx = 1\n',
        'src/mentions.py': `${'x = 1\n'.repeat(12)}# this comment says auto-generated, but past the first 10 lines\n`,
        '.env': 'TOKEN=abc\n',
        '.env.local': 'TOKEN=abc\n',
        'config/server.pem': '-----BEGIN PRIVATE KEY-----\n',
        'deploy/id_rsa': 'key\n',
        'deploy/id_ed25519.pub': 'key\n',
        'credentials.json': '{}\n',
        '.npmrc': '//registry/:_authToken=x\n',
        'secrets.yaml': 'a: b\n',
        'ops/prod.vault': 'v\n',
      });
    });

    it('accepts text files and names with spaces and non-ASCII characters', async () => {
      const r = await scanWorkspace(root, { maxFileBytes: 4096, secretPatterns: ['*.vault'] });
      assert.deepEqual(accepted(r), [
        'src/big-literal.ts',
        'src/empty.ts',
        'src/latin1.py', // shown with U+FFFD, as the editor shows it
        'src/mentions.py',
        'src/ok.ts',
        'src/with space.ts',
        'src/ünïcödé.py',
        'src/日本語.ts',
      ]);
      const f = r.files.find((x) => x.relPath === 'src/with space.ts')!;
      assert.equal(f.absPath, path.join(root, 'src', 'with space.ts'));
      assert.equal(f.size, Buffer.byteLength(code('withSpace')));
      assert.ok(f.mtimeMs > 0);
    });

    it('skips each other file with its reason', async () => {
      const r = await scanWorkspace(root, { maxFileBytes: 4096, secretPatterns: ['*.vault'] });
      const expected: Record<string, SkipReason> = {
        '.env': 'secret',
        '.env.local': 'secret',
        '.npmrc': 'secret',
        'assets/logo.png': 'binary',
        'config/server.pem': 'secret',
        'credentials.json': 'secret',
        'deploy/id_ed25519.pub': 'secret',
        'deploy/id_rsa': 'secret',
        'ops/prod.vault': 'secret',
        'package-lock.json': 'generated',
        'proto/msg_pb2.py': 'generated',
        'secrets.yaml': 'secret',
        'src/app.min.js': 'minified',
        'src/gen.go': 'generated',
        'src/gen.py': 'generated',
        'src/huge.ts': 'too-large',
        'src/nul.txt': 'binary',
        'src/packed.js': 'minified',
      };
      assert.deepEqual(skipMap(r), expected);
      assert.deepEqual(countSkips(r.skipped), { secret: 9, binary: 2, generated: 4, minified: 2, 'too-large': 1 });
    });

    it("never opens secret files (an unreadable secret is still reported as 'secret')", async function () {
      if (runningAsRoot) this.skip(); // root can read a chmod 000 file, so the probe proves nothing
      const dir = tree({ '.env': 'TOKEN=abc\n', 'a.ts': code('a') });
      fs.chmodSync(path.join(dir, '.env'), 0o000);
      const r = await scanWorkspace(dir);
      assert.deepEqual(skipMap(r), { '.env': 'secret' });
    });

    it("with contentCheck 'none' judges by name and size only", async () => {
      const r = await scanWorkspace(root, { maxFileBytes: 4096, secretPatterns: ['*.vault'], contentCheck: 'none' });
      const skips = skipMap(r);
      for (const contentOnly of ['src/nul.txt', 'src/latin1.py', 'src/packed.js', 'src/gen.go', 'src/gen.py']) {
        assert.ok(accepted(r).includes(contentOnly), contentOnly);
      }
      assert.equal(skips['src/app.min.js'], 'minified');
      assert.equal(skips['src/huge.ts'], 'too-large');
      assert.equal(skips['.env'], 'secret');
    });

    it("with contentCheck 'full' hands each accepted file's bytes to onFile", async () => {
      const seen = new Map<string, Buffer | undefined>();
      const r = await scanWorkspace(
        root,
        { maxFileBytes: 4096, secretPatterns: ['*.vault'], contentCheck: 'full' },
        { onFile: async (file, bytes) => void seen.set(file.relPath, bytes) },
      );
      assert.deepEqual([...seen.keys()].sort(), accepted(r));
      for (const f of r.files) assert.deepEqual(seen.get(f.relPath), fs.readFileSync(f.absPath));
    });

    it('accepts only the selected extensions when asked', async () => {
      const r = await scanWorkspace(root, { maxFileBytes: 4096, extensions: ['py', '.TS'] });
      assert.deepEqual(accepted(r), ['src/big-literal.ts', 'src/empty.ts', 'src/latin1.py', 'src/mentions.py', 'src/ok.ts', 'src/with space.ts', 'src/ünïcödé.py', 'src/日本語.ts']);
      assert.equal(skipMap(r)['src/nul.txt'], 'unsupported');
      assert.equal(skipMap(r)['.env'], 'secret', 'the secret check comes first');
    });
  });

  describe('symbolic links', () => {
    let root: string;
    let outside: string;
    let result: ScanResult;
    before(async () => {
      outside = tree({ 'elsewhere.ts': code('elsewhere'), 'lib/x.ts': code('x') });
      root = tree({
        'src/main.ts': code('main'),
        'src/loop/up': { link: '..' },
        'root-link': { link: '.' },
        self: { link: 'self' },
        'alias.ts': { link: 'src/main.ts' },
        'dangling.ts': { link: 'missing.ts' },
        'outside.ts': { link: path.join(outside, 'elsewhere.ts') },
        'outside-dir': { link: path.join(outside, 'lib') },
        'innocent.txt': { link: 'conf/.env' },
        'conf/.env': 'TOKEN=abc\n',
        '.gitignore': 'hidden/\n',
        'hidden/h.ts': code('h'),
        shown: { link: 'hidden' },
      });
      result = await scanWorkspace(root);
    });

    it('follows links once, breaking loops and refusing targets outside the workspace', () => {
      assert.deepEqual(accepted(result), ['.gitignore', 'shown/h.ts', 'src/main.ts']);
      assert.deepEqual(skipMap(result), {
        'alias.ts': 'ignored', // duplicate of src/main.ts
        'conf/.env': 'secret',
        'dangling.ts': 'unreadable',
        'hidden/': 'ignored',
        'innocent.txt': 'secret', // the target's name counts
        'outside-dir': 'ignored',
        'outside.ts': 'ignored',
        'root-link/': 'symlink-loop',
        self: 'symlink-loop',
        'src/loop/up/': 'symlink-loop',
      });
    });

    it('skips every link when followSymlinks is off', async () => {
      const r = await scanWorkspace(root, { followSymlinks: false });
      assert.deepEqual(accepted(r), ['.gitignore', 'src/main.ts']);
      const links = ['alias.ts', 'dangling.ts', 'innocent.txt', 'outside-dir', 'outside.ts', 'root-link', 'self', 'shown', 'src/loop/up'];
      for (const l of links) assert.equal(skipMap(r)[l], 'ignored', l);
    });
  });

  describe('failures and limits', () => {
    it('reports files that vanish between listing and reading as unreadable', async () => {
      const root = tree({ 'd/a.ts': code('a'), 'd/b.ts': code('b'), 'd/c.ts': code('c'), 'd/e.ts': code('e') });
      // The first accepted file deletes its siblings, which the scanner has already listed.
      const r = await scanWorkspace(root, {}, {
        onFile: (file) => {
          for (const name of fs.readdirSync(path.join(root, 'd'))) {
            if (`d/${name}` !== file.relPath) fs.rmSync(path.join(root, 'd', name));
          }
        },
      });
      assert.equal(r.files.length, 1);
      assert.equal(r.skipped.length, 3);
      for (const s of r.skipped) {
        assert.equal(s.reason, 'unreadable');
        assert.equal(s.detail, 'vanished during the scan');
      }
    });

    it('reports unreadable files and directories without failing the scan', async function () {
      if (runningAsRoot) this.skip(); // permissions do not bind root
      const root = tree({ 'a.ts': code('a'), 'locked.ts': code('locked'), 'closed/x.ts': code('x') });
      fs.chmodSync(path.join(root, 'locked.ts'), 0o000);
      fs.chmodSync(path.join(root, 'closed'), 0o000);
      try {
        const r = await scanWorkspace(root);
        assert.deepEqual(accepted(r), ['a.ts']);
        assert.deepEqual(skipMap(r), { 'closed/': 'unreadable', 'locked.ts': 'unreadable' });
      } finally {
        fs.chmodSync(path.join(root, 'closed'), 0o755);
      }
    });

    it('stops at maxFiles and says the result is truncated', async () => {
      const root = tree({ 'a.ts': code('a'), 'b.ts': code('b'), 'c.ts': code('c'), 'd.ts': code('d') });
      const r = await scanWorkspace(root, { maxFiles: 2 });
      assert.equal(r.files.length, 2);
      assert.equal(r.truncated, true);
      assert.equal((await scanWorkspace(root)).truncated, false);
    });

    it('rejects a missing root or bad options with a clear message', async () => {
      const missing = path.join(os.tmpdir(), 'reporecall-no-such-dir-' + process.pid);
      await assert.rejects(scanWorkspace(missing), /cannot scan .*reporecall-no-such-dir.*ENOENT/);
      const root = tree({ 'file.ts': code('f') });
      await assert.rejects(scanWorkspace(path.join(root, 'file.ts')), /not a directory/);
      await assert.rejects(scanWorkspace(root, { maxFileBytes: -1 }), /maxFileBytes must be a positive number/);
    });

    it('stops when the abort signal fires', async () => {
      const root = tree({ 'a.ts': code('a'), 'b/c.ts': code('c') });
      const controller = new AbortController();
      controller.abort(new Error('user cancelled'));
      await assert.rejects(scanWorkspace(root, { signal: controller.signal }), /user cancelled/);
    });

    it('reports skips through onSkip as they happen', async () => {
      const root = tree({ 'a.ts': code('a'), '.env': 'x=1\n', 'node_modules/m.js': code('m') });
      const seen: string[] = [];
      const r = await scanWorkspace(root, {}, { onSkip: (s) => seen.push(`${s.relPath}:${s.reason}`) });
      assert.deepEqual(seen.sort(), ['.env:secret', 'node_modules/:ignored']);
      assert.deepEqual(accepted(r), ['a.ts']);
    });
  });
});
