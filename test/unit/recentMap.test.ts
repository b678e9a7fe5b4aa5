// RecentMap (engine/src/util/recentMap.ts): the bounded caches of the hover's lookups and the resolver.
import * as assert from 'assert';
import { RecentMap } from '../../engine/src/util/recentMap';

describe('RecentMap', () => {
  it('drops the least recently used entry past its capacity; a get counts as a use', () => {
    const m = new RecentMap<string, number>(2);
    m.set('a', 1);
    m.set('b', 2);
    assert.strictEqual(m.get('a'), 1);
    m.set('c', 3);
    assert.deepStrictEqual([m.get('a'), m.get('b'), m.get('c'), m.size], [1, undefined, 3, 2]);
  });

  it('deleteWhere drops exactly the entries it accepts', () => {
    const m = new RecentMap<string, number>(8);
    for (const [k, v] of [['a', 1], ['b', 2], ['c', 3]] as const) m.set(k, v);
    m.deleteWhere((v, k) => v % 2 === 1 && k !== 'c');
    assert.deepStrictEqual([m.get('a'), m.get('b'), m.get('c'), m.size], [undefined, 2, 3, 2]);
  });

  it('hands each value that leaves to `dropped` once: evicted, replaced by another, deleted, cleared', () => {
    const gone: number[] = [];
    const m = new RecentMap<string, number>(2, (v) => gone.push(v));
    m.set('a', 1);
    m.set('b', 2);
    m.set('b', 2); // the same value again: still held
    m.set('c', 3); // evicts a
    m.set('b', 20); // replaces 2
    m.delete('c');
    m.deleteWhere((v) => v === 20);
    m.set('d', 4);
    m.clear();
    assert.deepStrictEqual(gone, [1, 2, 3, 20, 4]);
    assert.strictEqual(m.size, 0);
  });
});
