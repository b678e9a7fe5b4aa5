// Per-request timings (extension/src/timings.ts, vscode-free): engine calls made inside a span are
// added to it, whatever the async hops between; calls outside any span are not recorded.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Timings } from '../../extension/src/timings';
import { tempDir } from './tempDir';

describe('Timings', () => {
  it('adds the engine calls made inside a span to it, across awaits, and none from outside', async () => {
    // A clock that moves 1 ms per engine call, so a span's duration is exact, not the timer's.
    let clock = 0;
    const t = new Timings(undefined, () => clock);
    const call = async (engineMs: number): Promise<void> => {
      await new Promise((r) => setTimeout(r, 1));
      clock += 1;
      t.onEngineCall({ method: 'retrieve', totalMs: engineMs + 2, engineMs });
    };
    await call(100); // outside any span
    const [a, b] = await Promise.all([
      t.span('hover', async (rec) => {
        await call(5);
        await call(7);
        rec.outcome = 'shown';
        return 1;
      }),
      t.span('findRelated', async () => {
        await call(30);
        return 2;
      }),
    ]);
    assert.deepStrictEqual([a, b], [1, 2]);
    const recs = t.snapshot().records;
    const hover = recs.find((r) => r.kind === 'hover')!;
    const related = recs.find((r) => r.kind === 'findRelated')!;
    assert.deepStrictEqual([hover.engineMs, hover.rpcMs, hover.calls, hover.outcome], [12, 16, 2, 'shown']);
    assert.deepStrictEqual([related.engineMs, related.calls], [30, 1]);
    // hover's span saw its own two calls and findRelated's one, which ran concurrently with it.
    assert.strictEqual(hover.ms, 3);
  });

  it('appends records as JSON lines to the file it was given, the activation first', async () => {
    const file = path.join(tempDir('rr-timings-'), 't.jsonl');
    const t = new Timings(file);
    await t.span('complete', async (rec) => void (rec.outcome = 'cache'));
    t.dispose();
    // The append is asynchronous and off the request path: wait until it has landed (on a loaded
    // machine 50 ms was not always enough), rather than for a fixed time.
    const lines = (await linesWhenWritten(file, 2)).map((l) => JSON.parse(l));
    assert.deepStrictEqual(lines.map((l) => [l.kind, l.outcome]), [['activate', undefined], ['complete', 'cache']]);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });
});

/** The file's lines once it holds at least `n` (polling; the test's own timeout bounds the wait). */
async function linesWhenWritten(file: string, n: number): Promise<string[]> {
  for (;;) {
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    const lines = text.split('\n').filter(Boolean);
    if (lines.length >= n && text.endsWith('\n')) return lines;
    await new Promise((r) => setTimeout(r, 10));
  }
}
