// After a live update, the engine readies the buffer's hover lookups again (engine/src/lookup/prepareAgain.ts):
// one file at a time, the latest update winning over a queued one, nothing for a removed file and
// nothing once closed. The engine-level check (no scopes built, no summary at the next
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

describe('PrepareAgain: hover lookups readied after live updates', () => {
  it('one prepare at a time; updates meanwhile leave only the latest queued', async () => {
    const { prepared, queue, release } = recorder();
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

  it('drops a queued file removed meanwhile, or under a removed folder', async () => {
    const { prepared, queue, release } = recorder();
    queue.changed('a.ts');
    await turn();
    queue.changed('x/1.ts');
    queue.forget('x');
    release();
    await queue.idle();
    queue.changed('y.ts');
    queue.forget('y.ts');
    await turn();
    assert.deepStrictEqual(prepared, ['a.ts', 'y.ts'], 'x/1.ts dropped; y.ts had started before its removal');
    release();
    await queue.idle();
  });

  it('starts nothing once closed, and close waits for the prepare under way', async () => {
    const { prepared, queue, release } = recorder();
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
