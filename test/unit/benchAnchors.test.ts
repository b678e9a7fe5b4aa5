// The anchors' pipelines in the bench (test/bench/systems/anchors): the pieces each follows from its
// public description, on small inputs whose answer is known.
import * as assert from 'assert';
import { bestWindow, neighbourFiles, tokensOf, topOnePerFile } from '../../test/bench/systems/anchors/copilot';
import { capPerFile, identifiersNearCursor, rrfFuse, TABBY } from '../../test/bench/systems/anchors/tabby';
import { fillShares, rootPathHeaders } from '../../test/bench/systems/anchors/continue';
import { keywordsOf } from '../../test/bench/protocols';

describe('bench anchors: copilot', () => {
  const none = new Set<string>();
  it('picks the window sharing most tokens with the query, sliding one line at a time', () => {
    const lines = ['alpha beta', 'gamma', 'delta', 'query one', 'query two', 'epsilon'];
    const w = bestWindow('f.ts', lines, new Set(['query', 'one', 'two']), 2, none)!;
    assert.deepStrictEqual([w.startLine, w.endLine], [3, 4]);
    assert.strictEqual(w.score, 1);
  });
  it('scores Jaccard over token sets (repeats count once)', () => {
    const w = bestWindow('f.ts', ['a a a b', 'c'], new Set(['a', 'x']), 2, none)!;
    // window {a, b, c} vs query {a, x}: 1 shared of 4 distinct
    assert.strictEqual(w.score, 1 / 4);
  });
  it('keeps one window per file, best first, at most n', () => {
    const ws = [
      { file: 'a', startLine: 0, endLine: 59, score: 0.5 },
      { file: 'a', startLine: 10, endLine: 69, score: 0.9 },
      { file: 'b', startLine: 0, endLine: 59, score: 0.7 },
      { file: 'c', startLine: 0, endLine: 59, score: 0.1 },
    ];
    assert.deepStrictEqual(topOnePerFile(ws, 2).map((w) => `${w.file}:${w.startLine}`), ['a:10', 'b:0']);
  });
  it('takes imported files first, then the directory, never the file itself, at most max', () => {
    const all = ['src/a.ts', 'src/b.ts', 'src/sub/c.ts', 'lib/d.ts', 'src/e.ts'];
    assert.deepStrictEqual(neighbourFiles('src/a.ts', ['lib/d.ts'], all, 20), ['lib/d.ts', 'src/b.ts', 'src/e.ts']);
    assert.deepStrictEqual(neighbourFiles('src/a.ts', ['lib/d.ts'], all, 2), ['lib/d.ts', 'src/b.ts']);
  });
  it('leaves the language keywords out of the tokens', () => {
    assert.deepStrictEqual(tokensOf('func main() { return x }', keywordsOf('go')), ['main', 'x']);
  });
});

describe('bench anchors: tabby', () => {
  it('fuses by reciprocal rank and drops hits under the threshold', () => {
    const bm25 = [{ id: 1, score: 9 }, { id: 2, score: 8 }, { id: 3, score: 1 }];
    const dense = [{ id: 2, score: 0.9 }, { id: 1, score: 0.8 }];
    const fused = rrfFuse([bm25, dense], 60, TABBY.minRrfScore);
    // 1 and 2 are in both lists (1/61 + 1/62 >= 0.028); 3 is in one list only (1/63 < 0.028).
    assert.deepStrictEqual(fused.map((h) => h.id), [1, 2]);
    assert.ok(Math.abs(fused[0].score - (1 / 61 + 1 / 62)) < 1e-12);
    assert.deepStrictEqual(rrfFuse([bm25, dense], 60, 0).map((h) => h.id), [1, 2, 3]);
  });
  it('keeps at most two chunks per file, in order, up to n', () => {
    const hits = [['a', 1], ['a', 2], ['a', 3], ['b', 4], ['a', 5], ['c', 6]] as const;
    assert.deepStrictEqual(capPerFile([...hits], (h) => h[0], TABBY.maxPerFile, 20).map((h) => h[1]), [1, 2, 4, 6]);
    assert.deepStrictEqual(capPerFile([...hits], (h) => h[0], TABBY.maxPerFile, 2).map((h) => h[1]), [1, 2]);
  });
  it('lists the identifiers near the cursor nearest first, without keywords', () => {
    assert.deepStrictEqual(identifiersNearCursor(['const a = make(b)', 'return c.d'], keywordsOf('typescript')), ['d', 'c', 'b', 'make', 'a']);
  });
});

describe('bench anchors: continue', () => {
  const count = (s: string) => s.length;
  const cut = (s: string, n: number) => s.slice(0, n);
  it('gives each source an equal share, then the leftover to what did not fit, cut to the room left', () => {
    // budget 10, share 5: root fits 'aaaa' (4) but not 'bbbbbb' (6); imports fit 'cc' (2)
    const out = fillShares([['aaaa', 'bbbbbb'], ['cc', 'ddd']], 10, count, cut);
    // shares: root 'aaaa', imports 'cc' + 'ddd' (5); leftover 1 goes to root's 'bbbbbb' cut to 1
    assert.deepStrictEqual(out, ['aaaa', 'b', 'cc', 'ddd']);
  });
  it('gives a source the whole budget when the other has nothing', () => {
    assert.deepStrictEqual(fillShares([[], ['aaaa', 'bbbb']], 8, count, cut), ['aaaa', 'bbbb']);
  });
  it('reads the headers of the scopes around the cursor, innermost first', async () => {
    const text = 'class Shop(Base):\n    def buy(self, item: Item) -> Receipt:\n        total = 0\n';
    const headers = await rootPathHeaders('shop.py', text);
    assert.strictEqual(headers.length, 2);
    assert.match(headers[0], /def buy\(self, item: Item\) -> Receipt:/);
    assert.match(headers[1], /class Shop\(Base\):/);
  });
});
