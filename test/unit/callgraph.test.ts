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

describe('import resolution per language (enrich/imports.ts)', () => {
  it('Go: an import path names the directory its tail matches', () => {
    assert.ok(importMatches('gin.go', 'github.com/gin-gonic/gin/binding', 'binding/json.go'));
    assert.ok(importMatches('logger.go', 'go.uber.org/zap/zapcore', 'zapcore/core.go'));
    assert.ok(!importMatches('gin.go', 'github.com/gin-gonic/gin/binding', 'render/json.go'));
  });
  it('Java: a package names its directory, a static import its class file', () => {
    assert.ok(importMatches('gson/src/main/java/com/google/gson/Gson.java', 'com.google.gson.internal', 'gson/src/main/java/com/google/gson/internal/Excluder.java'));
    assert.ok(importMatches('a/T.java', 'com.google.gson.internal.GsonTypes', 'src/com/google/gson/internal/GsonTypes.java'));
    assert.ok(!importMatches('a/T.java', 'com.google.gson.internal', 'src/com/google/gson/Gson.java'));
  });
  it('Rust: crate::, self::, super:: and workspace crates name module files', () => {
    assert.ok(importMatches('axum/src/routing/mod.rs', 'crate::extract', 'axum/src/extract/mod.rs'));
    assert.ok(importMatches('axum/src/routing/mod.rs', 'crate::extract', 'axum/src/extract/path/mod.rs'));
    assert.ok(importMatches('axum/src/routing/router.rs', 'super::method_routing', 'axum/src/routing/method_routing.rs'));
    assert.ok(importMatches('axum/src/routing/mod.rs', 'self::future', 'axum/src/routing/future.rs'));
    assert.ok(importMatches('axum/src/lib.rs', 'axum_core::extract', 'axum-core/src/extract/mod.rs'));
    assert.ok(!importMatches('axum/src/lib.rs', 'std::collections', 'axum/src/collections.rs'));
    assert.ok(!importMatches('axum/src/routing/mod.rs', 'crate::extract', 'axum/src/response.rs'));
  });
  it('C/C++: an include names the file its path ends with, the including directory first', () => {
    assert.ok(importMatches('src/unix/core.c', 'internal.h', 'src/unix/internal.h'));
    assert.ok(importMatches('test/test-fs.c', 'uv.h', 'include/uv.h'));
    assert.ok(importMatches('src/format.cc', 'fmt/format.h', 'include/fmt/format.h'));
    assert.ok(!importMatches('src/format.cc', 'fmt/format.h', 'include/fmt/core.h'));
  });
  it('resolves a Go call through the package it is imported from', () => {
    const t = new DefinitionTable();
    t.setFile('render/json.go', [{ name: 'WriteJSON', file: 'render/json.go', signature: 'func WriteJSON(w http.ResponseWriter, obj any) error', chunkId: 1 }]);
    t.setFile('internal/json/json.go', [{ name: 'WriteJSON', file: 'internal/json/json.go', signature: 'func WriteJSON()', chunkId: 2 }]);
    t.setFile('a/json.go', [{ name: 'WriteJSON', file: 'a/json.go', signature: 'func WriteJSON(x int)', chunkId: 3 }]);
    t.setFile('b/json.go', [{ name: 'WriteJSON', file: 'b/json.go', signature: 'func WriteJSON(y int)', chunkId: 4 }]);
    const callees = resolveCallees('context.go', ['render'], [{ local: 'render', imported: '*', source: 'github.com/gin-gonic/gin/render' }], t, new Set());
    assert.deepStrictEqual(callees, [], 'a package name is not a callee');
    const viaImport = t.first('WriteJSON', (f) => importMatches('context.go', 'github.com/gin-gonic/gin/render', f));
    assert.strictEqual(viaImport?.file, 'render/json.go');
  });
});
