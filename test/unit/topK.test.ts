// The one top-k of the engine (BM25 search, vector search): the k best by score, ties to the lower id.
import * as assert from 'assert';
import { TopK } from '../../engine/src/util/topK';

describe('TopK (util/topK.ts: BM25 and vector search)', () => {
  it('keeps the k best of a stream, ties broken by lower id, same as a full sort', () => {
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

  it('returns the same k whatever order the candidates arrive in (ties by lower id, not by first seen)', () => {
    const items = Array.from({ length: 300 }, (_, id) => ({ id, score: id % 7 === 0 ? 5 : (id * 37) % 11 }));
    for (const k of [1, 5, 40]) {
      const forward = new TopK(k), backward = new TopK(k);
      for (const it of items) forward.offer(it.id, it.score);
      for (const it of [...items].reverse()) backward.offer(it.id, it.score);
      assert.deepStrictEqual(forward.sorted(), backward.sorted());
      assert.deepStrictEqual(forward.sorted(), [...items].sort((a, b) => b.score - a.score || a.id - b.id).slice(0, k));
    }
  });
});
