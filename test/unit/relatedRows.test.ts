// Find Related Code rows (extension/src/features/relatedRows.ts): look-alike rows are told apart
// by a line the earlier one lacks, or folded into it when none differs.
import * as assert from 'node:assert/strict';
import type { SymbolInfo } from '../../engine/src/retrieve/symbols';
import type { RetrievedChunk } from '../../engine/src/types';
import { relatedRows } from '../../extension/src/features/relatedRows';

const chunk = (file: string, startLine: number, text: string, name?: string): RetrievedChunk => ({ file, startLine, endLine: startLine + text.split('\n').length - 1, kind: 'function', ...(name ? { name } : {}), text, score: 1, signals: {} });

describe('Find Related rows', () => {
  it('tells apart tests that start alike by the first line the earlier one lacks', () => {
    const head = "const rawRequest = new Request('http://localhost?page=2')\nconst c = new Context(rawRequest, {";
    const rows = relatedRows([
      chunk('src/a.test.ts', 10, `${head}\n  path: '/a',\n})\nexpect(c.req.query('page')).toBe('2')\nexpect(c.req.query('tag')).toBe('A')\nexpect(c.req.query('q')).toBeUndefined()`),
      chunk('src/b.test.ts', 40, `${head}\n  path: '/a',\n})\nexpect(c.req.queries('tag')).toEqual(['A'])\nexpect(c.req.queries('page')).toEqual(['2'])\nexpect(c.req.queries('q')).toBeUndefined()`),
    ], null, 'src/x.ts', 10);
    assert.equal(rows.length, 2);
    assert.match(rows[0].preview!, /^const rawRequest/);
    assert.equal(rows[1].preview, "… expect(c.req.queries('tag')).toEqual(['A'])");
  });

  it('folds rows that show the same name, reason and line and differ in no line into one row with copies', () => {
    const symbol = { name: 'Env', definitions: [], usedInFiles: ['src/types.ts'] } as unknown as SymbolInfo;
    const overload = 'E6 extends Env = IntersectNonAnyTypes<[E, E2, E3, E4, E5]>,';
    const rows = relatedRows([
      chunk('src/helper/factory/index.ts', 100, `export function createHandlers<\n${overload}\nP extends string = any,`, 'createHandlers'),
      chunk('src/helper/factory/index.ts', 200, `export function createHandlers<\n${overload}\nP extends string = any,`, 'createHandlers'),
      chunk('src/types.ts', 600, `export function createHandlers<\n${overload}\nR extends Env = any,`, 'createHandlers'),
    ], symbol, 'src/x.ts', 10);
    assert.equal(rows.length, 2);
    assert.equal(rows[0].copies.length, 1);
    assert.equal(rows[0].copies[0].startLine, 200);
    assert.equal(rows[0].preview, overload);
    assert.equal(rows[1].preview, '… R extends Env = any,');
    assert.deepEqual(rows.map((r) => r.reason), ['uses it', 'uses it']);
  });

  it('keeps distinct rows as they are', () => {
    const rows = relatedRows([chunk('a.py', 0, 'def f():\n    return 1', 'f'), chunk('b.py', 0, 'def g():\n    return 2', 'g')], null, 'c.py', 10);
    assert.deepEqual(rows.map((r) => [r.chunk.file, r.copies.length, r.preview]), [['a.py', 0, 'def f(): ⏎ return 1'], ['b.py', 0, 'def g(): ⏎ return 2']]);
  });
});
