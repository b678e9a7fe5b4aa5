import * as assert from 'assert';
import { Bm25Index } from '../../engine/src/lexical/bm25';
import { lexicalTerms, splitIdentifier } from '../../engine/src/lexical/tokenize';

describe('lexical tokenisation', () => {
  it('splits camelCase, PascalCase, acronyms and snake_case, keeping the whole identifier', () => {
    assert.deepStrictEqual(splitIdentifier('HTTPServerError'), ['http', 'server', 'error']);
    assert.deepStrictEqual(splitIdentifier('parse_config_file'), ['parse', 'config', 'file']);
    assert.deepStrictEqual(lexicalTerms('user.getName(x, 42)'), ['user', 'get', 'name', 'getname', '42']);
  });
});

describe('Bm25Index', () => {
  // Hand-computed example: 3 documents, k1 = 1.2, b = 0.75.
  //   d1 = [a, b, a] (len 3), d2 = [b, c] (len 2), d3 = [c, c, c, d] (len 4); avgdl = 3.
  //   idf(a) = ln(1 + (3 - 1 + 0.5) / (1 + 0.5)) = ln(8/3)
  //   query [a]:  d1 = idf(a) * 2 * 2.2 / (2 + 1.2 * (0.25 + 0.75 * 3/3)) = idf(a) * 4.4 / 3.2
  //   query [c]:  idf(c) = ln(1 + 1.5/2.5) = ln(1.6)
  //               d2 = ln(1.6) * 1 * 2.2 / (1 + 1.2 * (0.25 + 0.75 * 2/3)) = ln(1.6) * 2.2 / 1.9
  //               d3 = ln(1.6) * 3 * 2.2 / (3 + 1.2 * (0.25 + 0.75 * 4/3)) = ln(1.6) * 6.6 / 4.5
  const build = () => {
    const idx = new Bm25Index({ k1: 1.2, b: 0.75 });
    idx.add(1, ['a', 'b', 'a']);
    idx.add(2, ['b', 'c']);
    idx.add(3, ['c', 'c', 'c', 'd']);
    return idx;
  };

  it('matches hand-computed Okapi scores', () => {
    const idx = build();
    const a = idx.search(['a'], 10);
    assert.strictEqual(a.length, 1);
    assert.strictEqual(a[0].id, 1);
    assert.ok(Math.abs(a[0].score - (Math.log(8 / 3) * 4.4) / 3.2) < 1e-9);
    const c = idx.search(['c'], 10);
    assert.deepStrictEqual(c.map((r) => r.id), [3, 2]);
    assert.ok(Math.abs(c[0].score - (Math.log(1.6) * 6.6) / 4.5) < 1e-9);
    assert.ok(Math.abs(c[1].score - (Math.log(1.6) * 2.2) / 1.9) < 1e-9);
  });

  it('removal and re-adding give the same scores as a fresh build', () => {
    const idx = build();
    idx.add(4, ['x', 'y']);
    idx.remove(4);
    const fresh = build();
    assert.deepStrictEqual(idx.search(['c', 'a'], 10), fresh.search(['c', 'a'], 10));
    idx.remove(2);
    assert.deepStrictEqual(idx.search(['c'], 10).map((r) => r.id), [3]);
    idx.compact();
    assert.deepStrictEqual(idx.search(['c'], 10).map((r) => r.id), [3]);
  });

  it('round-trips through serialize/deserialize and rejects truncation', () => {
    const idx = build();
    idx.remove(2);
    const buf = idx.serialize();
    const back = Bm25Index.deserialize(buf);
    assert.deepStrictEqual(back.search(['a', 'c', 'd'], 10), idx.search(['a', 'c', 'd'], 10));
    assert.throws(() => Bm25Index.deserialize(buf.subarray(0, buf.length - 3)), /truncated/);
    const bad = Buffer.from(buf);
    bad.writeUInt32LE(0xdeadbeef, 0);
    assert.throws(() => Bm25Index.deserialize(bad), /bad magic/);
  });
});

describe('TopK', () => {
  it('keeps the k best of a stream, ties broken by lower id, same as a full sort', () => {
    const { TopK } = require('../../engine/src/lexical/bm25') as typeof import('../../engine/src/lexical/bm25');
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const items = Array.from({ length: 5000 }, (_, id) => ({ id, score: Math.floor(rand() * 200) / 10 }));
    for (const k of [1, 10, 100, 6000]) {
      const top = new TopK(k);
      for (const it of items) top.offer(it.id, it.score);
      const expected = [...items].sort((a, b) => b.score - a.score || a.id - b.id).slice(0, k);
      assert.deepStrictEqual(top.sorted(), expected);
    }
  });
});
