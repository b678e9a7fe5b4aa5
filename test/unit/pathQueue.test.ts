import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { PathQueue } from '../../engine/src/indexer/pathQueue';
import { Engine } from '../../engine/src/engine';
import { tempDir } from './tempDir';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe('index work per path runs in arrival order (indexer/pathQueue.ts)', () => {
  it('a removal asked while an update of the same path runs waits for it', async () => {
    const q = new PathQueue();
    const done: string[] = [];
    await Promise.all([
      q.run('a.ts', async () => { await sleep(30); done.push('update a.ts'); }),
      q.run('a.ts', async () => { done.push('remove a.ts'); }),
      q.run('b.ts', async () => { done.push('update b.ts'); }),
    ]);
    assert.deepStrictEqual(done, ['update b.ts', 'update a.ts', 'remove a.ts']);
    assert.strictEqual(q.size, 0, 'nothing is kept once the work is done');
  });

  it('a folder removal waits for work on the paths under it, and a failure does not stop the next step', async () => {
    const q = new PathQueue();
    const done: string[] = [];
    const failing = q.run('src/x.ts', async () => { await sleep(20); throw new Error('parse failed'); });
    const slow = q.run('src/deep/y.ts', async () => { await sleep(40); done.push('y'); });
    const other = q.run('srcfoo.ts', async () => { await sleep(60); done.push('srcfoo'); });
    const removal = q.run('src', async () => { done.push('remove src'); }, true);
    await assert.rejects(failing, /parse failed/);
    await Promise.all([slow, removal, other]);
    assert.deepStrictEqual(done, ['y', 'remove src', 'srcfoo'], 'srcfoo.ts is not under src/');
  });

  it('the engine: a file removed while its update is in flight stays out of the index', async () => {
    const root = tempDir('rr-pathqueue-');
    fs.mkdirSync(path.join(root, 'src'));
    fs.writeFileSync(path.join(root, 'src', 'keep.ts'), 'export function keepAlpacaRouting(x: number) {\n  return x + 1;\n}\n');
    const engine = await Engine.open({ root, indexDir: path.join(root, '.index'), dense: false });
    try {
      await engine.indexAll();
      const text = 'export function zebraQuokkaChecksum(data: string): number {\n  return data.length * 31;\n}\n';
      // The update parses (it awaits) while the removal arrives, as when a file is deleted right after a save.
      await Promise.all([engine.updateFile('src/gone.ts', text), engine.removeFile('src/gone.ts')]);
      const hits = await engine.retrieve('zebraQuokkaChecksum', { k: 5 });
      assert.ok(!hits.some((h) => h.file === 'src/gone.ts'), JSON.stringify(hits.map((h) => h.file)));
    } finally {
      await engine.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
