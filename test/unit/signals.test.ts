// SIGTERM and SIGINT to a real CLI and a real engine process (as EngineClient starts it): the
// engine closes, the writer lock is gone, the process ends by that signal (a shell sees 128 + n),
// and the index it leaves opens again.
import * as assert from 'assert';
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { EngineClient } from '../../engine/src/rpc/client';
import { LOCK_FILE_NAME } from '../../engine/src/store/lock';
import { tempDir } from './tempDir';

const CLI = path.resolve(__dirname, '../../../bin/reporecall.js');
const WORKER = path.resolve(__dirname, '../../engine/src/rpc/worker.js');

/** A workspace whose first index takes a few seconds (time to be interrupted). */
function busyWorkspace(parent: string, files: number): string {
  const root = path.join(parent, 'repo');
  for (let i = 0; i < files; i++) {
    const dir = path.join(root, 'src', `m${i % 20}`);
    fs.mkdirSync(dir, { recursive: true });
    const body = Array.from({ length: 5 }, (_, j) => `export function f${i}_${j}(a: number): number {\n  return helper${j}(a * ${j}) + ${i};\n}\n`).join('\n');
    fs.writeFileSync(path.join(dir, `file${i}.ts`), body);
  }
  return root;
}

async function until(what: string, ok: () => boolean, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('termination signals', function () {
  this.timeout(120_000);
  let work: string;
  let root: string;
  before(() => {
    work = tempDir('rr-signals-');
    root = busyWorkspace(work, 1200);
  });
  after(() => fs.rmSync(work, { recursive: true, force: true }));

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} to \`reporecall index\` mid-index: the lock is released, the process dies by ${signal}, and the index opens again`, async () => {
      const indexDir = path.join(work, `cli-${signal}`);
      const child = spawn(process.execPath, [CLI, 'index', root, '--index-dir', indexDir, '--no-dense'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const exited = new Promise<[number | null, string | null]>((resolve) => child.once('exit', (code, sig) => resolve([code, sig])));
      await until('the writer lock', () => fs.existsSync(path.join(indexDir, LOCK_FILE_NAME)) || child.exitCode !== null);
      assert.strictEqual(child.exitCode, null, `indexing ended before the signal (make the workspace larger): ${out}`);
      child.kill(signal);
      assert.deepStrictEqual(await exited, [null, signal], out);
      assert.ok(!fs.existsSync(path.join(indexDir, LOCK_FILE_NAME)), `${signal} left ${LOCK_FILE_NAME} behind`);
      const again = spawnSync(process.execPath, [CLI, 'index', root, '--index-dir', indexDir, '--no-dense', '--json'], { encoding: 'utf8' });
      assert.strictEqual(again.status, 0, again.stderr);
      assert.strictEqual((JSON.parse(again.stdout) as { files: number }).files, 1200);
    });
  }

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} to the engine process (started by EngineClient) closes the engine, releases the lock and ends it by ${signal}`, async () => {
      const indexDir = path.join(work, `engine-${signal}`);
      const c = new EngineClient({ workerPath: WORKER, init: { options: { root, indexDir, dense: false } }, maxRestarts: 0, recycleAfterFiles: 0 });
      try {
        await c.whenReady();
        const pid = c.enginePid!;
        assert.ok(fs.existsSync(path.join(indexDir, LOCK_FILE_NAME)), 'the engine holds the writer lock');
        const indexing = c.indexAll().catch((e: Error) => e);
        await until('indexing under way', () => fs.readdirSync(indexDir).length > 1 || !alive(pid), 30_000);
        process.kill(pid, signal);
        await until('the engine process to end', () => !alive(pid));
        await indexing;
        assert.ok(!fs.existsSync(path.join(indexDir, LOCK_FILE_NAME)), `${signal} left ${LOCK_FILE_NAME} behind`);
        await until('the client to see the exit', () => c.error !== undefined, 10_000);
        assert.match(c.error!, new RegExp(`exited with signal ${signal}`));
      } finally {
        await c.close();
      }
    });
  }
});
