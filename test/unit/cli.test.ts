// The real command line (bin/reporecall.js in a child process): every flag that takes a value
// rejects a missing or invalid one with exit code 2 and a message naming it, `--skipped` lists the
// skipped files with their reasons, and SIGTERM / SIGINT leave no writer lock behind.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { tempDir } from './tempDir';

const CLI = path.resolve(__dirname, '../../../bin/reporecall.js');
const FIXTURE = path.resolve(__dirname, '../../../test/fixtures/engine-repo');

function cli(args: string[], env: NodeJS.ProcessEnv = process.env) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env, timeout: 120_000 });
}

describe('the reporecall command line', function () {
  this.timeout(120_000);
  let work: string;
  let root: string;
  let indexDir: string;

  before(() => {
    work = tempDir('rr-cli-');
    root = path.join(work, 'repo');
    indexDir = path.join(work, 'index');
    fs.cpSync(FIXTURE, root, { recursive: true });
    fs.writeFileSync(path.join(root, 'blob.bin'), Buffer.from([1, 2, 3]));
    fs.writeFileSync(path.join(root, 'nul.txt'), Buffer.from([0x61, 0, 0x62]));
  });
  after(() => fs.rmSync(work, { recursive: true, force: true }));

  describe('rejects what it cannot run as written, with exit code 2, before touching any index', () => {
    const PG = 'postgres://u@127.0.0.1:1/db';
    // [arguments (DIR stands for the workspace), what the message must say]
    const cases: Array<[string[], RegExp]> = [
      [['publish', 'DIR', '--to'], /--to <value>' argument missing/],
      [['publish', 'DIR', '--to', '--no-dense'], /'--to' argument is ambiguous/],
      [['publish', 'DIR', '--to='], /--to needs a value/],
      [['publish', 'DIR', '--to', 'mysql://x@h/db'], /--to takes a PostgreSQL URL/],
      [['publish', 'DIR'], /publish: --to postgres:\/\/USER@HOST\/DB is required/],
      [['publish', 'DIR', '--to', PG, '--commit', 'HEAD'], /--commit takes a full git commit sha/],
      [['publish', 'DIR', '--to', PG, '--keep-commits', '0'], /--keep-commits takes a whole number ≥ 1/],
      [['publish', 'DIR', '--to', PG, '--repo'], /--repo <value>' argument missing/],
      [['publish', 'DIR', '--to', PG, '--local-index'], /--local-index <value>' argument missing/],
      [['publish', 'DIR', '--to', PG, '--index-dir', 'x'], /Unknown option '--index-dir'/],
      [['index', 'DIR', '--to', PG], /Unknown option '--to'/],
      [['index', 'DIR', '--index-dir'], /--index-dir <value>' argument missing/],
      [['index', 'DIR', '--index-dir', '--json'], /'--index-dir' argument is ambiguous/],
      [['index', 'DIR', '--model'], /--model <value>' argument missing/],
      [['index', 'DIR', '--bogus'], /Unknown option '--bogus'/],
      [['index', 'DIR', '--k', '3'], /Unknown option '--k'/],
      [['index'], /exactly one workspace folder \(got none\)/],
      [['index', 'DIR', 'other'], /exactly one workspace folder/],
      [['index', 'NOWHERE'], /is not a directory/],
      [['query', 'DIR', '--text', 'x', '--k', '-1'], /'--k' argument is ambiguous/],
      [['query', 'DIR', '--text', 'x', '--k=-1'], /--k takes a whole number from 1 to 1000 \(got '-1'\)/],
      [['query', 'DIR', '--text', 'x', '--k', 'abc'], /--k takes a whole number/],
      [['query', 'DIR', '--text', 'x', '--k', '0'], /--k takes a whole number/],
      [['mcp', 'DIR', 'other'], /mcp: give at most one workspace folder/],
      [['mcp', 'DIR', '--bogus'], /Unknown option '--bogus'/],
      [['mcp', 'DIR', '--exclude'], /--exclude <value>' argument missing/],
      [['mcp', 'NOWHERE'], /is not a directory/],
      [['query', 'DIR', '--text', 'x', '--k', '2.5'], /--k takes a whole number/],
      [['query', 'DIR', '--text', 'x', '--k'], /--k <value>' argument missing/],
      [['query', 'DIR', '--text'], /--text <value>' argument missing/],
      [['query', 'DIR', '--file', 'src/a.ts', '--line', 'x'], /--line takes a 0-based line number \(got 'x'\)/],
      [['query', 'DIR', '--file', 'src/a.ts', '--line', '-3'], /'--line' argument is ambiguous/],
      [['query', 'DIR', '--file', 'src/a.ts'], /--file F and --line L/],
      [['query', 'DIR', '--line', '2'], /--file F and --line L/],
      [['query', 'DIR', '--file', 'missing.ts', '--line', '0'], /cannot read --file missing\.ts/],
      [['query', 'DIR', '--file', 'FIXTURE_FILE', '--line', '100000'], /--line 100000 is past the end/],
      [['query', 'DIR', '--text', 'x', '--file', 'a.ts', '--line', '1'], /give --text, or --file with --line, not both/],
      [['query', 'DIR', '--from', PG, '--text', 'x'], /Unknown option '--from'/],
      [['query', 'DIR', '--to', PG, '--text', 'x'], /Unknown option '--to'/],
      [['query', 'DIR', '--text', 'x', '--skipped'], /Unknown option '--skipped'/],
      [['frobnicate', 'DIR'], /unknown command 'frobnicate'/],
      [[], /no command given/],
    ];
    for (const [args, message] of cases) {
      it(`reporecall ${args.join(' ')}`, () => {
        const fixtureFile = fs.readdirSync(path.join(root, 'src')).find((f) => f.endsWith('.ts'))!;
        const real = args.map((a) => (a === 'DIR' ? root : a === 'NOWHERE' ? path.join(work, 'nowhere') : a === 'FIXTURE_FILE' ? `src/${fixtureFile}` : a));
        const cache = path.join(work, 'cache');
        const r = cli([...real], { ...process.env, REPORECALL_CACHE_DIR: cache });
        assert.strictEqual(r.status, 2, `exit ${r.status}\n${r.stdout}\n${r.stderr}`);
        assert.match(r.stderr, message);
        assert.match(r.stderr, /^reporecall: /);
        assert.strictEqual(r.stdout, '');
        assert.ok(!fs.existsSync(cache), 'no index was written');
      });
    }
  });

  it('--skipped lists each skipped file with its reason, one a line, and in --json', () => {
    const r = cli(['index', root, '--index-dir', indexDir, '--no-dense', '--skipped']);
    assert.strictEqual(r.status, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.match(lines[0], /^indexed \d+ files/);
    assert.deepStrictEqual(lines.slice(1).filter((l) => /^(blob\.bin|nul\.txt)\t/.test(l)), ['blob.bin\tbinary', 'nul.txt\tbinary']);
    const j = cli(['index', root, '--index-dir', indexDir, '--no-dense', '--skipped', '--json']);
    assert.strictEqual(j.status, 0, j.stderr);
    const stats = JSON.parse(j.stdout) as { skippedFiles: Array<{ relPath: string; reason: string }> };
    assert.deepStrictEqual(stats.skippedFiles.filter((s) => !s.relPath.startsWith('.')).map((s) => [s.relPath, s.reason]), [['blob.bin', 'binary'], ['nul.txt', 'binary']]);
    // Without the flag, the summary alone.
    assert.strictEqual(cli(['index', root, '--index-dir', indexDir, '--no-dense']).stdout.trim().split('\n').length, 1);
    // A valid query runs (exit 0) with the values given.
    const q = cli(['query', root, '--index-dir', indexDir, '--no-dense', '--text', 'apply discount', '--k', '2', '--json']);
    assert.strictEqual(q.status, 0, q.stderr);
    assert.strictEqual((JSON.parse(q.stdout) as unknown[]).length, 2);
  });
});
