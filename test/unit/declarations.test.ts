// Declarations of the names in play (engine/src/context/declarations.ts) on a small index.
import * as assert from 'assert';
import { declarationsFor, namesNearCursor, type DeclarationChunk, type DeclarationRef, type DeclarationSource } from '../../engine/src/context/declarations';

function source(defs: DeclarationRef[], chunks: Record<number, DeclarationChunk>): DeclarationSource {
  return {
    lookup: (name) => defs.filter((d) => d.name === name),
    ofFile: (file) => defs.filter((d) => d.file === file),
    chunk: (id) => chunks[id],
    chunkIdsOfFile: (file) => Object.entries(chunks).filter(([, c]) => c.file === file).map(([id]) => Number(id)),
  };
}

describe('declarations of the names in play', () => {
  const defs: DeclarationRef[] = [
    { name: 'Cart', file: 'shop/cart.py', signature: 'class Cart:', chunkId: 1 },
    { name: 'add_item', file: 'shop/cart.py', signature: 'def add_item(self, sku, quantity=1):', chunkId: 2 },
    { name: 'checkout', file: 'shop/cart.py', signature: 'def checkout(self, payment_method):', chunkId: 3 },
    { name: 'format_price', file: 'shop/money.py', signature: 'def format_price(cents, currency):', chunkId: 4 },
    { name: 'unrelated', file: 'other/x.py', signature: 'def unrelated(a, b, c, d, e):', chunkId: 5 },
  ];
  const chunks: Record<number, DeclarationChunk> = {
    1: { file: 'shop/cart.py', startLine: 0, endLine: 2, kind: 'class-header', name: 'Cart' },
    2: { file: 'shop/cart.py', startLine: 3, endLine: 9, kind: 'method', name: 'Cart.add_item' },
    3: { file: 'shop/cart.py', startLine: 10, endLine: 20, kind: 'method', name: 'Cart.checkout' },
    4: { file: 'shop/money.py', startLine: 0, endLine: 5, kind: 'function', name: 'format_price' },
    5: { file: 'other/x.py', startLine: 0, endLine: 5, kind: 'function', name: 'unrelated' },
  };
  const state = { file: 'app/main.py', prefix: 'from shop.cart import Cart\n\ncart = Cart()\n', line: 3 };

  it('lists the names near the cursor nearest first', () => {
    assert.deepStrictEqual(namesNearCursor(['a = b(c)', 'd.e']), ['e', 'd', 'c', 'b', 'a']);
  });

  it('gives the members of a class used near the cursor, not unrelated definitions', () => {
    const out = declarationsFor(source(defs, chunks), state, { budgetChars: 1000 });
    const text = out.map((c) => c.text).join('\n');
    assert.match(text, /def add_item\(self, sku, quantity=1\):/);
    assert.match(text, /def checkout\(self, payment_method\):/);
    assert.doesNotMatch(text, /unrelated/);
    assert.deepStrictEqual(out.map((c) => c.file), ['shop/cart.py']);
  });

  it('keeps within the budget, the most new names per character first', () => {
    const out = declarationsFor(source(defs, chunks), state, { budgetChars: 40 });
    const text = out.map((c) => c.text).join('\n');
    assert.ok(text.length <= 40, text);
    assert.strictEqual(text.split('\n').length, 1);
  });

  it('leaves out what the editor window already shows of the current file', () => {
    const own: DeclarationRef[] = [{ name: 'helper', file: 'app/main.py', signature: 'def helper(alpha, beta):', chunkId: 9 }];
    const near = { 9: { file: 'app/main.py', startLine: 1, endLine: 2, kind: 'function' as const, name: 'helper' } };
    const far = { 9: { file: 'app/main.py', startLine: 1, endLine: 2, kind: 'function' as const, name: 'helper' } };
    const onScreen = declarationsFor(source(own, near), { file: 'app/main.py', prefix: 'x\ny\nz\n', line: 3 }, { budgetChars: 1000 });
    assert.deepStrictEqual(onScreen, []);
    const lines = Array.from({ length: 100 }, (_, i) => `line${i}`).join('\n') + '\n';
    const offScreen = declarationsFor(source(own, far), { file: 'app/main.py', prefix: lines, line: 100 }, { budgetChars: 1000 });
    assert.match(offScreen[0]?.text ?? '', /def helper\(alpha, beta\):/);
  });
});
