// A repository's ignore files and the user's exclude settings are untrusted input: a pathological
// line through any of them must not hang the scan, a line or file beyond the matching budget is
// reported by name, and per-directory decisions cached with the index must equal a cold scan's
// after any change to rule files or directories.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Engine } from '../../engine/src/engine';
import { IgnoreDecisionCache, scanWorkspace, type ScanOptions, type ScanResult } from '../../engine/src/scan';
import { tempDir } from './tempDir';

const DEEP_DIR = Array.from({ length: 20 }, (_, i) => `d${i}`).join('/');
const LONG_NAME = 'a'.repeat(255);
/** Lines that backtracked for seconds to minutes per path in the regex-based matcher. */
const PATHOLOGICAL = ['**/'.repeat(12) + 'zz', 'd0/' + '**/'.repeat(12) + 'zz', '*a'.repeat(3) + '*b', '**/*a*a*a*b'].join('\n') + '\n';

function makeTree(files: Record<string, string>): string {
  const root = tempDir('reporecall-hostile-');
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
  return root;
}

const summary = (r: ScanResult) => ({
  files: r.files.map((f) => f.relPath),
  skipped: r.skipped.map((s) => `${s.relPath} ${s.reason} ${s.detail ?? ''}`),
});

describe('hostile ignore rules', function () {
  const roots: string[] = [];
  const tree = (files: Record<string, string>) => {
    const root = makeTree({ [`${DEEP_DIR}/f.ts`]: 'x', [`${DEEP_DIR}/${LONG_NAME}`]: 'x', 'src/a.ts': 'x', ...files });
    roots.push(root);
    return root;
  };
  after(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

  describe('a pathological line does not hang the scan', function () {
    // A hang detector: the regex-based matcher took minutes on this tree.
    this.timeout(5_000);
    const expectScanned = (r: ScanResult) => {
      assert.ok(r.files.some((f) => f.relPath === `${DEEP_DIR}/f.ts`));
      assert.ok(r.files.some((f) => f.relPath === `${DEEP_DIR}/${LONG_NAME}`));
    };
    it('through .gitignore', async () => expectScanned(await scanWorkspace(tree({ '.gitignore': PATHOLOGICAL }))));
    it('through .reporecallignore', async () => expectScanned(await scanWorkspace(tree({ '.reporecallignore': PATHOLOGICAL }))));
    it('through .git/info/exclude', async () => expectScanned(await scanWorkspace(tree({ '.git/info/exclude': PATHOLOGICAL }))));
    it('through excludePatterns (reporecall.index.exclude, files.exclude)', async () => {
      expectScanned(await scanWorkspace(tree({}), { excludePatterns: PATHOLOGICAL.trim().split('\n') }));
    });
    it('through a nested .gitignore', async () => expectScanned(await scanWorkspace(tree({ 'd0/d1/.gitignore': PATHOLOGICAL }))));
  });

  it('reports a line or a file beyond the budget by name, in the scan and in the engine stats', async () => {
    const root = tree({
      'src/.gitignore': `a.ts\n${'*x'.repeat(70)}\n`,
      '.reporecallignore': 'ok\n'.repeat(60_000),
    });
    const scan = await scanWorkspace(root);
    assert.deepEqual(scan.warnings.sort(), [
      '.reporecallignore: 60001 lines, 180000 characters exceed the matching budget (50000 lines, 4194304 characters); its rules are not applied',
      'src/.gitignore:2: 70 wildcards in one line (at most 64); this line is not applied',
    ]);
    assert.ok(scan.skipped.some((s) => s.relPath === 'src/a.ts' && s.reason === 'ignored'), 'the file\'s other lines still apply');
    const indexDir = tempDir('reporecall-hostile-index-');
    roots.push(indexDir);
    const logs: string[] = [];
    const engine = await Engine.open({ root, indexDir, dense: false, log: (l) => logs.push(l) });
    try {
      const stats = await engine.indexAll();
      assert.deepEqual(stats.scanWarnings?.sort(), scan.warnings);
      assert.ok(logs.some((l) => l.includes('src/.gitignore:2')), 'the log names the file');
    } finally {
      await engine.close();
    }
  });

  describe('per-directory decisions cached with the index', () => {
    const scanWith = (root: string, cache?: IgnoreDecisionCache, opts: ScanOptions = {}) => scanWorkspace(root, { ...opts, ignoreCache: cache });
    const initial = {
      '.gitignore': '*.log\nbuild-out/\n',
      'build-out/x.ts': 'x',
      'src/a.ts': 'x',
      'src/b.log': 'x',
      'src/deep/c.ts': 'x',
      'lib/d.ts': 'x',
    };

    /** Scans with a cache saved to disk and loaded back, after `change`; the result must equal a cold scan's. */
    async function afterChange(change: (root: string) => void): Promise<{ cache: IgnoreDecisionCache }> {
      const root = tree(initial);
      const file = path.join(root, '..', `${path.basename(root)}-decisions.json`);
      roots.push(file);
      const first = IgnoreDecisionCache.empty();
      await scanWith(root, first);
      first.save(file);
      change(root);
      const loaded = IgnoreDecisionCache.load(file, (why) => assert.fail(why));
      const warm = await scanWith(root, loaded);
      assert.deepEqual(summary(warm), summary(await scanWith(root)));
      return { cache: loaded };
    }

    it('matches nothing again when nothing changed', async () => {
      const { cache } = await afterChange(() => undefined);
      assert.equal(cache.misses, 0);
      assert.ok(cache.hits > 5);
    });

    it('re-matches a directory whose entries changed, and only it', async () => {
      const { cache } = await afterChange((root) => {
        fs.writeFileSync(path.join(root, 'src/new.log'), 'x');
        fs.writeFileSync(path.join(root, 'build-out/y.ts'), 'x'); // inside an ignored directory: never walked
      });
      assert.equal(cache.misses, 1);
    });

    it('re-matches below a changed .gitignore', async () => {
      const { cache } = await afterChange((root) => fs.writeFileSync(path.join(root, '.gitignore'), '*.ts\n!lib/d.ts\n'));
      assert.ok(cache.misses >= 4);
    });

    it('applies a nested .gitignore added since', async () => {
      const { cache } = await afterChange((root) => fs.writeFileSync(path.join(root, 'src/deep/.gitignore'), 'c.ts\n'));
      assert.equal(cache.misses, 1, 'src/deep, whose entries and rules changed');
    });

    it('applies a removed entry and a file that became a directory', async () => {
      await afterChange((root) => {
        fs.rmSync(path.join(root, 'lib/d.ts'));
        fs.rmSync(path.join(root, 'src/b.log'));
        fs.mkdirSync(path.join(root, 'src/b.log'));
        fs.writeFileSync(path.join(root, 'src/b.log/inner.ts'), 'x');
      });
    });

    it('rebuilds from a corrupt or missing file with a message', () => {
      const dir = tempDir('reporecall-hostile-cache-');
      roots.push(dir);
      const problems: string[] = [];
      assert.equal(IgnoreDecisionCache.load(path.join(dir, 'missing.json'), (w) => problems.push(w)).changed, false);
      assert.equal(problems.length, 0);
      fs.writeFileSync(path.join(dir, 'bad.json'), '{"format":"reporecall-ignore-decisions-1","sha256":"x"}\n[]');
      IgnoreDecisionCache.load(path.join(dir, 'bad.json'), (w) => problems.push(w));
      assert.match(problems[0], /checksum mismatch/);
    });

    it('is kept beside the index: an engine reopened on an unchanged tree indexes the same files', async () => {
      const root = tree(initial);
      const indexDir = tempDir('reporecall-hostile-index-');
      roots.push(indexDir);
      const indexed = async (dir: string) => {
        const engine = await Engine.open({ root, indexDir: dir, dense: false });
        try {
          await engine.indexAll();
          return { files: [...engine.fileHashes().keys()].sort(), skipped: engine.skippedFiles().map((s) => `${s.relPath} ${s.detail}`) };
        } finally {
          await engine.close();
        }
      };
      const before = await indexed(indexDir);
      assert.ok(fs.existsSync(path.join(indexDir, 'ignore-decisions.json')));
      fs.writeFileSync(path.join(root, 'src/deep/.gitignore'), 'c.ts\n');
      const reopened = await indexed(indexDir);
      assert.ok(before.files.includes('src/deep/c.ts') && !reopened.files.includes('src/deep/c.ts'));
      const coldDir = tempDir('reporecall-hostile-index-');
      roots.push(coldDir);
      assert.deepEqual(reopened, await indexed(coldDir));
    });
  });
});
