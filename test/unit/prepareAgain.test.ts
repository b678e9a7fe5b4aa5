// After a live update, the engine readies the hover's lookups again (engine/src/lookup/prepareAgain.ts):
// only for files a warm-up or a hover read, one at a time, the latest update winning over a queued
// one, and nothing once closed. The engine-level check (no scopes built, no summary at the next
// hover) is in hoverWork.test.ts.
import * as assert from 'assert';
import { PrepareAgain } from '../../engine/src/lookup/prepareAgain';

/** A prepare that records its file and finishes when `release` is called. */
function recorder(): { prepared: string[]; release: () => void; queue: PrepareAgain } {
  const prepared: string[] = [];
  let wake: (() => void) | undefined;
  const queue = new PrepareAgain((file) => {
    prepared.push(file);
    return new Promise<void>((resolve) => (wake = resolve));
  });
  return { prepared, queue, release: () => { const w = wake; wake = undefined; w?.(); } };
}

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('PrepareAgain: live updates of the files the hover reads', () => {
  it('prepares a file read before, not one never read', async () => {
    const { prepared, queue, release } = recorder();
    queue.changed('src/never.ts');
    queue.noteRead('src/read.ts');
    queue.changed('src/read.ts');
    await turn();
    release();
    await queue.idle();
    assert.deepStrictEqual(prepared, ['src/read.ts']);
  });

  it('one prepare at a time; updates meanwhile leave only the latest queued', async () => {
    const { prepared, queue, release } = recorder();
    for (const f of ['a.ts', 'b.ts', 'c.ts']) queue.noteRead(f);
    queue.changed('a.ts');
    await turn();
    queue.changed('b.ts');
    queue.changed('c.ts');
    queue.changed('c.ts');
    await turn();
    assert.deepStrictEqual(prepared, ['a.ts'], 'the second waits for the first');
    release();
    await turn();
    release();
    await queue.idle();
    assert.deepStrictEqual(prepared, ['a.ts', 'c.ts']);
  });

  it('keeps the last four files read; a removed file or folder is forgotten', async () => {
    const { prepared, queue, release } = recorder();
    for (const f of ['old.ts', 'x/1.ts', 'x/2.ts', 'y.ts', 'z.ts']) queue.noteRead(f);
    queue.forget('x');
    for (const f of ['old.ts', 'x/1.ts', 'y.ts']) {
      queue.changed(f);
      await turn();
      release();
      await queue.idle();
    }
    assert.deepStrictEqual(prepared, ['y.ts'], 'old.ts fell out of the four, x/ was removed');
  });

  it('starts nothing once closed, and close waits for the prepare under way', async () => {
    const { prepared, queue, release } = recorder();
    queue.noteRead('a.ts');
    queue.changed('a.ts');
    await turn();
    let closed = false;
    const closing = queue.close().then(() => (closed = true));
    queue.changed('a.ts');
    await turn();
    assert.strictEqual(closed, false, 'the prepare under way is awaited');
    release();
    await closing;
    assert.deepStrictEqual(prepared, ['a.ts']);
  });
});
