// The inline-completion cache and the adaptive debounce (both vscode-free).
import * as assert from 'node:assert';
import { AdaptiveDebounce, delay } from '../../extension/src/features/adaptiveDebounce';
import { CompletionCache } from '../../extension/src/features/completionCache';

describe('CompletionCache', () => {
  it('returns an exact hit and the rest of the last completion while the user types into it', () => {
    const cache = new CompletionCache<string>();
    cache.set('a.ts', 'const x = conv', ';\n', 'exHull(points)', 'meta');
    assert.deepStrictEqual(cache.get('a.ts', 'const x = conv', ';\n'), { text: 'exHull(points)', meta: 'meta' });
    assert.deepStrictEqual(cache.get('a.ts', 'const x = convex', ';\n'), { text: 'Hull(points)', meta: 'meta' });
    assert.strictEqual(cache.get('a.ts', 'const x = convey', ';\n'), undefined, 'typed text diverges from the completion');
    assert.strictEqual(cache.get('b.ts', 'const x = convex', ';\n'), undefined, 'other document');
    assert.strictEqual(cache.get('a.ts', 'const x = convexHull(points)', ';\n'), undefined, 'completion fully typed');
  });

  it('evicts the least recently used entry beyond its capacity', () => {
    const cache = new CompletionCache<number>(2);
    cache.set('d', 'p1', '', 'one', 1);
    cache.set('d', 'p2', '', 'two', 2);
    assert.ok(cache.get('d', 'p1', '')); // p1 is now the most recent
    cache.set('d', 'p3', '', 'three', 3);
    assert.strictEqual(cache.get('d', 'p2', ''), undefined);
    assert.strictEqual(cache.get('d', 'p1', '')?.text, 'one');
  });
});

describe('AdaptiveDebounce', () => {
  it('waits longer during fast bursts and for slow sources, within [base, 4 x base]', () => {
    let now = 0;
    const d = new AdaptiveDebounce(() => 50, () => now);
    assert.strictEqual(d.nextDelay(), 50); // first keystroke: the base
    for (let i = 0; i < 10; i++) {
      now += 150; // a steady 150 ms typing rhythm
      d.nextDelay();
    }
    now += 150;
    assert.strictEqual(d.nextDelay(), 90); // 0.6 x 150
    d.recordLatency(2000);
    now += 150;
    assert.strictEqual(d.nextDelay(), 190); // + min(0.25 x 2000, 2 x 50)
    now += 60_000; // a pause does not count as rhythm
    d.recordLatency(0);
    assert.ok(d.nextDelay() <= 200);
  });

  it('delay() resolves false as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const pending = delay(10_000, controller.signal);
    controller.abort();
    assert.strictEqual(await pending, false);
    assert.strictEqual(await delay(1, new AbortController().signal), true);
  });
});
