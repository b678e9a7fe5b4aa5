// An index folder the engine cannot write — a read-only file system, a full disk, another process
// holding the writer lock — still answers queries from its last commit, and the engine's stats say
// why updates are paused (the extension's status bar shows it). The CLI's `query` never writes.
// The read-only and full disks are real tmpfs mounts (root only: as root, chmod does not stop writes).
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { main } from '../../engine/src/cli';
import { Engine } from '../../engine/src/engine';
import { tempDir } from './tempDir';

const FIXTURE = path.resolve(__dirname, '../../../test/fixtures/engine-repo');
const EDIT = '\nexport function telescopeHarvest(points: number): number {\n  return points * 11;\n}\n';

/** Runs the CLI with its output captured. */
async function runCli(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const [log, error] = [console.log, console.error];
  console.log = (l: string) => out.push(l);
  console.error = (l: string) => err.push(l);
  try {
    return { code: await main(args), out, err };
  } finally {
    [console.log, console.error] = [log, error];
  }
}

describe('an index folder this engine cannot write', function () {
  this.timeout(120_000);
  let work: string;
  let root: string;
  let mounted: string | undefined;
  beforeEach(() => {
    work = tempDir('rr-readonly-');
    root = path.join(work, 'repo');
    fs.cpSync(FIXTURE, root, { recursive: true });
  });
  afterEach(() => {
    if (mounted) execFileSync('umount', [mounted]);
    mounted = undefined;
    fs.rmSync(work, { recursive: true, force: true });
  });

  /** A tmpfs of `size` at work/mnt (root only). */
  function mountTmpfs(context: Mocha.Context, size: string): string {
    if (process.getuid?.() !== 0) context.skip(); // CI runs as root (.ci/run)
    const dir = path.join(work, 'mnt');
    fs.mkdirSync(dir);
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
    mounted = dir;
    return dir;
  }

  async function build(indexDir: string): Promise<string[]> {
    const engine = await Engine.open({ root, indexDir, dense: false });
    await engine.indexAll();
    const names = (await engine.retrieve('cart total price', { k: 5 })).map((h) => `${h.file}:${h.name}`);
    await engine.close();
    return names;
  }

  /** Opens the index, checks it answers as committed, and that an edit is answered from memory. */
  async function answersFromCommit(indexDir: string, expected: string[], paused: RegExp): Promise<void> {
    const logs: string[] = [];
    const engine = await Engine.open({ root, indexDir, dense: false, log: (l) => logs.push(l) });
    const stats = await engine.indexAll();
    assert.ok(logs.some((l) => /^index loaded/.test(l)), logs.join('\n'));
    assert.strictEqual(stats.changedFiles, 0);
    assert.match(stats.updatesPaused ?? '', paused);
    assert.deepStrictEqual((await engine.retrieve('cart total price', { k: 5 })).map((h) => `${h.file}:${h.name}`), expected);
    fs.appendFileSync(path.join(root, 'src/cart.ts'), EDIT);
    await engine.updateFile('src/cart.ts');
    await engine.flush().catch(() => undefined); // a save that cannot be written loses nothing in memory
    assert.strictEqual((await engine.retrieve('telescope harvest points', { k: 1 }))[0].name, 'telescopeHarvest');
    assert.match(engine.stats().updatesPaused ?? '', paused);
    await engine.close();
  }

  it('on a read-only file system: queries answer from the last commit and the stats say why updates are paused', async function () {
    const indexDir = path.join(mountTmpfs(this, '16m'), 'index');
    const expected = await build(indexDir);
    execFileSync('mount', ['-o', 'remount,ro', mounted!]);
    assert.throws(() => fs.writeFileSync(path.join(indexDir, 'probe'), 'x'), /EROFS/);
    await answersFromCommit(indexDir, expected, /read-only file system \(EROFS\)/);
    const cli = await runCli(['query', root, '--index-dir', indexDir, '--text', 'cart total price', '--no-dense', '--json']);
    assert.strictEqual(cli.code, 0, cli.err.join('\n'));
    assert.ok(JSON.parse(cli.out.join('\n')).length > 0);
  });

  it('on a full disk: queries answer from the last commit, no empty lock is left, and the stats say the disk is full', async function () {
    const indexDir = path.join(mountTmpfs(this, '4m'), 'index');
    const expected = await build(indexDir);
    // Fill what is left of the tmpfs.
    const fill = fs.openSync(path.join(mounted!, 'filler'), 'w');
    const block = Buffer.alloc(64 * 1024, 1);
    try {
      for (;;) fs.writeSync(fill, block);
    } catch (err) {
      assert.strictEqual((err as NodeJS.ErrnoException).code, 'ENOSPC');
    } finally {
      fs.closeSync(fill);
    }
    await answersFromCommit(indexDir, expected, /full \(ENOSPC\)/);
    assert.ok(!fs.existsSync(path.join(indexDir, 'writer.lock')), 'no writer.lock left behind');
  });

  it('while another process writes it: the reader says so in its stats', async () => {
    const indexDir = path.join(work, 'index');
    const expected = await build(indexDir);
    const writer = await Engine.open({ root, indexDir, dense: false });
    try {
      await answersFromCommit(indexDir, expected, /written by process \d+/);
    } finally {
      await writer.close();
    }
  });

  it('CLI query never writes: no lock taken, nothing saved, an edit since the commit is answered from memory', async () => {
    const indexDir = path.join(work, 'index');
    await build(indexDir);
    const listing = () => fs.readdirSync(indexDir).map((f) => `${f} ${fs.statSync(path.join(indexDir, f)).mtimeMs}`).sort();
    const before = listing();
    fs.appendFileSync(path.join(root, 'src/cart.ts'), EDIT);
    const { code, out, err } = await runCli(['query', root, '--index-dir', indexDir, '--text', 'telescope harvest points', '--no-dense', '--json', '--k', '1']);
    assert.strictEqual(code, 0, err.join('\n'));
    assert.strictEqual(JSON.parse(out.join('\n'))[0].name, 'telescopeHarvest');
    assert.ok(err.some((l) => /1 of \d+ files changed since the index was saved: caught up in memory/.test(l)), err.join('\n'));
    assert.deepStrictEqual(listing(), before, 'the index folder is as the last commit left it');
  });
});
