// The inline-completion cache and the adaptive debounce (both vscode-free).
import * as assert from 'node:assert';
import { AdaptiveDebounce, delay, EditClock, sinceKeystroke } from '../../extension/src/features/adaptiveDebounce';
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

  it('serves the rest of the completion while the user types into it, when the capped prefix window slid forward', () => {
    const cache = new CompletionCache<string>();
    const cap = (text: string) => text.slice(-30); // the editor hands in a capped window
    const doc = 'x'.repeat(100) + 'function f() {\n  return conv';
    cache.set('a.ts', cap(doc), '\n}', 'exHull(points);', 'm', doc.length);
    const typed = doc + 'ex';
    assert.deepStrictEqual(cache.get('a.ts', cap(typed), '\n}', typed.length), { text: 'Hull(points);', meta: 'm' });
    assert.strictEqual(cache.get('a.ts', cap(typed), '\n}'), undefined, 'without the offset a slid window cannot be matched');
    const other = 'y'.repeat(100) + 'function g() {\n  return conv' + 'ex';
    assert.strictEqual(cache.get('a.ts', cap(other), '\n}', other.length), undefined, 'different text before the typed part');
    assert.strictEqual(cache.get('a.ts', cap(doc + 'ey'), '\n}', doc.length + 2), undefined, 'typed text diverges');
    assert.strictEqual(cache.get('a.ts', cap(typed), ')\n}', typed.length), undefined, 'text after the cursor changed');
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
  it('counts the base delay from the keystroke, so time VS Code already waited is not waited again', () => {
    const d = new AdaptiveDebounce(() => 75);
    assert.strictEqual(d.nextDelay(), 75);
    assert.strictEqual(d.nextDelay(50), 25); // VS Code's 50 ms inline-suggest delay already passed
    assert.strictEqual(d.nextDelay(200), 0);
    assert.strictEqual(d.nextDelay(Infinity), 0); // no edit before the request
  });

  it('counts at least VS Code\'s own 50 ms as passed since the keystroke, however late the edit event came', () => {
    assert.strictEqual(sinceKeystroke(3), 50);
    assert.strictEqual(sinceKeystroke(120), 120);
    assert.strictEqual(sinceKeystroke(Infinity), Infinity);
    // With the default 50 ms base the built-in source then waits nothing more.
    assert.strictEqual(new AdaptiveDebounce(() => 50).nextDelay(sinceKeystroke(3)), 0);
  });

  it('asks a slow source less eagerly, up to 4 x base, and forgets it on reset', () => {
    const d = new AdaptiveDebounce(() => 50);
    d.recordLatency(2000);
    assert.strictEqual(d.nextDelay(), 150); // + min(0.25 x 2000, 2 x 50)
    assert.strictEqual(d.nextDelay(50), 100);
    d.recordLatency(0);
    assert.strictEqual(d.nextDelay(), 150); // EMA 1600: still capped at 2 x base
    d.reset();
    assert.strictEqual(d.nextDelay(), 50);
  });

  it('EditClock tells how long ago a document changed', () => {
    let now = 1000;
    const clock = new EditClock(() => now);
    assert.strictEqual(clock.since('a'), Infinity);
    clock.note('a');
    now += 60;
    assert.strictEqual(clock.since('a'), 60);
    clock.forget('a');
    assert.strictEqual(clock.since('a'), Infinity);
  });

  it('delay() resolves false as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const pending = delay(10_000, controller.signal);
    controller.abort();
    assert.strictEqual(await pending, false);
    assert.strictEqual(await delay(1, new AbortController().signal), true);
  });
});
