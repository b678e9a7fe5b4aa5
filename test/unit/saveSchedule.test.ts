// A save due while the editor is asking waits for a quiet moment (indexer/saveSchedule.ts): a save
// blocks the engine's one thread for 100-400 ms, longer than a keystroke's request may take.
import * as assert from 'node:assert';
import { SaveSchedule } from '../../engine/src/indexer/saveSchedule';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, cond: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 10_000; !cond(); await sleep(5)) if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
}

describe('SaveSchedule', () => {
  it('saves after its delay when nothing is asked', async () => {
    let saves = 0;
    const s = new SaveSchedule(() => saves++, () => 10, 60_000);
    s.schedule(0);
    await until('the save', () => saves === 1);
    s.cancel();
  });

  it('a save due while requests arrive waits for the quiet moment after them', async () => {
    let saves = 0;
    const s = new SaveSchedule(() => saves++, () => 10, 60_000);
    s.schedule(0);
    s.noteRead();
    await sleep(100); // ten times the delay: due, but a request came within the quiet period
    assert.strictEqual(saves, 0, 'no save while the editor is asking');
    s.cancel();
    const quick = new SaveSchedule(() => saves++, () => 10, 30);
    quick.noteRead();
    quick.schedule(0);
    await until('the save once the requests stopped', () => saves === 1);
  });
});
