// The one growth rule for the engine's typed-array columns (tables, string pools, BM25 pools and
// postings): capacity grows by half (at least 16), so a column of n rows holds at most ~1.5n and
// has been copied O(n) elements in all. Values: PARAMS.md.

type Column = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;

/** Capacity growth factor of every column. */
export const COLUMN_GROWTH = 1.5;

/**
 * A typed array of at least `need` elements holding `old`'s first `used` (default: all of it), the
 * rest filled with `fill` (default 0); `old` itself when it is large enough.
 */
export function grow<T extends Column>(old: T, need: number, used: number = old.length, fill?: number): T {
  if (need <= old.length) return old;
  const cap = Math.max(need, Math.ceil(old.length * COLUMN_GROWTH), 16);
  const next = new (old.constructor as new (n: number) => T)(cap);
  next.set(old.subarray(0, used) as ArrayLike<number> as T);
  if (fill !== undefined) next.fill(fill, used);
  return next;
}
