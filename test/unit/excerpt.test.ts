import * as assert from 'assert';
import { excerpt } from '../../engine/src/context/excerpt';

describe('excerpt', () => {
  const fn = ['def train(model, loader):', '    """Train for one epoch."""', ...Array.from({ length: 30 }, (_, i) => `    step_${i} = run(${i})`), '    scheduler.step(optimizer)', '    return model'];

  it('keeps short chunks whole', () => {
    assert.strictEqual(excerpt(fn.slice(0, 5), new Set(), { maxLines: 10, compact: false }), fn.slice(0, 5).join('\n'));
  });

  it('keeps the declaration and the window that shares most with the query', () => {
    const out = excerpt(fn, new Set(['scheduler', 'optimizer']), { maxLines: 5, compact: false }).split('\n');
    assert.strictEqual(out.length, 5);
    assert.strictEqual(out[0], 'def train(model, loader):');
    assert.ok(out.includes('    scheduler.step(optimizer)'), out.join('\n'));
  });

  it('compact drops blank and comment-only lines but never the first line', () => {
    const out = excerpt(['// header', 'const a = 1;', '', '  // note', 'const b = 2;'], new Set(), { maxLines: 10, compact: true });
    assert.strictEqual(out, '// header\nconst a = 1;\nconst b = 2;');
  });
});

describe('selectNovel', () => {
  it('moves a chunk that repeats the editor window behind one that brings new identifiers', async () => {
    const { selectNovel } = await import('../../engine/src/context/excerpt');
    const ranked = [
      { text: 'total = price * quantity' }, // everything already in the window
      { text: 'applyDiscount(total, couponCode)' },
    ];
    const window = 'price = item.price\nquantity = item.quantity\ntotal = price * quantity';
    assert.deepStrictEqual(selectNovel(ranked, window, 0, 2).map((c) => c.text), ranked.map((c) => c.text), 'weight 0 keeps the ranking');
    assert.strictEqual(selectNovel(ranked, window, 0.8, 2)[0].text, 'applyDiscount(total, couponCode)');
  });
});

describe('excerpt with names already seen', () => {
  it('drops lines (after the first) that add no new name, and remembers the names it keeps', () => {
    const seen = new Set(['a', 'x', 'return']);
    const text = excerpt(['def f(a):', '    x = a', '    return x', '    y = new_name(a)'], new Set(), { maxLines: 20, compact: true, seen });
    assert.strictEqual(text, 'def f(a):\n    y = new_name(a)');
    assert.ok(seen.has('new_name') && seen.has('y') && seen.has('f'));
    // A second chunk repeating those names keeps only its first line.
    assert.strictEqual(excerpt(['def g():', '    y = new_name(x)'], new Set(), { maxLines: 20, compact: true, seen }), 'def g():');
  });
});
