// The one column growth rule (store/columns.ts).
import * as assert from 'assert';
import { COLUMN_GROWTH, grow } from '../../engine/src/store/columns';

describe('column growth', () => {
  it('returns the column itself while it is large enough', () => {
    const a = new Int32Array(8);
    assert.strictEqual(grow(a, 8), a);
  });
  it('grows by COLUMN_GROWTH (at least to need, at least 16), keeping the used prefix and filling the rest', () => {
    const a = Uint16Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    const b = grow(a, 21, 3, 9);
    assert.ok(b instanceof Uint16Array);
    assert.strictEqual(b.length, Math.ceil(20 * COLUMN_GROWTH));
    assert.deepStrictEqual([...b.subarray(0, 5)], [1, 2, 3, 9, 9]);
    assert.strictEqual(grow(new Float64Array(2), 3).length, 16);
    assert.strictEqual(grow(new Uint8Array(20), 100).length, 100);
    assert.deepStrictEqual([...grow(Int32Array.from([4, 5]), 40).subarray(0, 3)], [4, 5, 0]);
  });
});
