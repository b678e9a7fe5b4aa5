import * as assert from 'assert';
import { CALLEE_MARKER, DefinitionTable, enrichedText, importMatches, resolveCallees } from '../../engine/src/enrich/callgraph';

describe('call-graph enrichment', () => {
  const table = new DefinitionTable();
  table.setFile('lib/pricing.ts', [
    { name: 'formatPrice', file: 'lib/pricing.ts', signature: 'export function formatPrice(cents: number): string', chunkId: 1 },
    { name: 'applyDiscount', file: 'lib/pricing.ts', signature: 'export function applyDiscount(amount: number, code?: string): number', chunkId: 2 },
  ]);
  table.setFile('legacy/pricing.ts', [
    { name: 'formatPrice', file: 'legacy/pricing.ts', signature: 'function formatPrice(p)', chunkId: 3 },
  ]);
  table.setFile('pkg/models/base.py', [{ name: 'BaseModel', file: 'pkg/models/base.py', signature: 'class BaseModel(nn.Module):', chunkId: 4 }]);

  it('resolves relative and dotted imports to files', () => {
    assert.ok(importMatches('src/cart.ts', '../lib/pricing', 'lib/pricing.ts'));
    assert.ok(!importMatches('src/cart.ts', '../lib/pricing', 'legacy/pricing.ts'));
    assert.ok(importMatches('src/app/index.ts', './util', 'src/app/util/index.ts'));
    assert.ok(importMatches('pkg/train.py', 'pkg.models.base', 'pkg/models/base.py'));
    assert.ok(importMatches('pkg/train.py', '.models.base', 'pkg/models/base.py'));
  });

  it('prefers the imported definition over a same-named one elsewhere, and skips its own names', () => {
    const callees = resolveCallees('src/cart.ts', ['formatPrice', 'applyDiscount', 'cartTotal', 'unknownFn'],
      [{ local: 'formatPrice', imported: 'formatPrice', source: '../lib/pricing' }], table, new Set(['cartTotal']));
    assert.deepStrictEqual(callees.map((c) => `${c.file}:${c.name}`), ['lib/pricing.ts:formatPrice', 'lib/pricing.ts:applyDiscount']);
  });

  it('resolves an aliased import by its exported name', () => {
    const callees = resolveCallees('pkg/train.py', ['Base'], [{ local: 'Base', imported: 'BaseModel', source: 'pkg.models.base' }], table, new Set());
    assert.strictEqual(callees[0]?.name, 'BaseModel');
  });

  it('appends callee signatures behind the code with a marker, within the size bound', () => {
    const callees = resolveCallees('src/cart.ts', ['applyDiscount', 'formatPrice'], [], table, new Set());
    const text = enrichedText('src/cart.ts', 'return formatPrice(applyDiscount(t, c));', callees, { maxChars: 90 });
    const lines = text.split('\n');
    assert.strictEqual(lines[0], '# file: src/cart.ts');
    assert.strictEqual(lines[2], `${CALLEE_MARKER}export function applyDiscount(amount: number, code?: string): number`);
    assert.strictEqual(lines.length, 3, 'the second signature would pass the 90-character bound');
  });

  it('forgets a file\'s definitions when it is removed', () => {
    const t = new DefinitionTable();
    t.setFile('a.py', [{ name: 'f', file: 'a.py', signature: 'def f():', chunkId: 1 }]);
    t.removeFile('a.py');
    assert.deepStrictEqual(t.lookup('f'), []);
  });
});
