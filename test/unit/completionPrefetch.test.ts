// The request started at the keystroke, before VS Code asks for inline completions (vscode-free).
import * as assert from 'node:assert';
import { CompletionPrefetch, cursorAfterEdit, prefetchKey } from '../../extension/src/features/completionPrefetch';

describe('CompletionPrefetch', () => {
  it('serves the request started for exactly the same document version and cursor', async () => {
    const prefetch = new CompletionPrefetch<string>();
    let runs = 0;
    prefetch.start(prefetchKey('a.ts', 3, 120), 0, async () => {
      runs++;
      return 'exHull(points)';
    });
    assert.strictEqual(prefetch.take(prefetchKey('a.ts', 3, 121)), undefined, 'another cursor');
    assert.strictEqual(prefetch.take(prefetchKey('a.ts', 4, 120)), undefined, 'another version');
    assert.strictEqual(prefetch.take(prefetchKey('b.ts', 3, 120)), undefined, 'another document');
    assert.deepStrictEqual(await prefetch.take(prefetchKey('a.ts', 3, 120)), { value: 'exHull(points)' });
    assert.strictEqual(runs, 1);
  });

  it('tells an empty answer from a cancelled request, so the provider asks again only after a cancellation', async () => {
    const prefetch = new CompletionPrefetch<string>();
    prefetch.start('k', 0, async () => undefined);
    assert.deepStrictEqual(await prefetch.take('k'), { value: undefined });

    let signalSeen: AbortSignal | undefined;
    prefetch.start('k1', 0, (signal) => {
      signalSeen = signal;
      return new Promise((resolve) => setTimeout(() => resolve('late'), 20));
    });
    const pending = prefetch.take('k1');
    await new Promise((resolve) => setTimeout(resolve, 1)); // the request is running
    prefetch.start('k2', 0, async () => 'next'); // the next keystroke
    assert.strictEqual(signalSeen?.aborted, true, 'the earlier request is cancelled');
    assert.strictEqual(await pending, undefined, 'a cancelled request yields no answer');
    assert.strictEqual(prefetch.take('k1'), undefined);
    assert.deepStrictEqual(await prefetch.take('k2'), { value: 'next' });
  });

  it('waits the delay before running, and never runs a request cancelled meanwhile', async () => {
    const prefetch = new CompletionPrefetch<string>();
    let ran = false;
    prefetch.start('k', 30, async () => {
      ran = true;
      return 'x';
    });
    const pending = prefetch.take('k');
    prefetch.cancel();
    assert.strictEqual(await pending, undefined);
    assert.strictEqual(ran, false);
    // Without a delay too: the next keystroke can come before the request got to run.
    prefetch.start('k0', 0, async () => {
      ran = true;
      return 'x';
    });
    const immediate = prefetch.take('k0');
    prefetch.start('k1', 0, async () => 'y');
    assert.strictEqual(await immediate, undefined);
    assert.strictEqual(ran, false);
  });

  it('turns a failing source into no answer instead of an unhandled rejection', async () => {
    const prefetch = new CompletionPrefetch<string>();
    prefetch.start('k', 0, async () => {
      throw new Error('engine restarting');
    });
    assert.strictEqual(await prefetch.take('k'), undefined);
  });
});

describe('cursorAfterEdit', () => {
  const cases: Array<[string, Array<{ rangeOffset: number; text: string }>, number | undefined]> = [
    ['a typed character', [{ rangeOffset: 40, text: 'x' }], 41],
    ['a deleted selection', [{ rangeOffset: 40, text: '' }], 40],
    ['a pasted line', [{ rangeOffset: 10, text: 'const a = 1;\n' }], 23],
    ['several cursors', [{ rangeOffset: 10, text: 'x' }, { rangeOffset: 50, text: 'x' }], undefined],
    ['no change', [], undefined],
  ];
  for (const [name, changes, expected] of cases) {
    it(name, () => assert.strictEqual(cursorAfterEdit(changes), expected));
  }
});
