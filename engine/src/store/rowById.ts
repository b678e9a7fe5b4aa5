// The row of each chunk id, read at the id itself. Chunk ids are small integers counted up from 0
// (IndexTables.nextChunkId), so one array read answers what a binary search over the id column
// answered in ~19 dependent reads; a query's filter asks it for every candidate, which was ~30% of
// a query at 100k files (PARAMS.md, Storage). Ids outside [0, MAX_DIRECT_ID) are not held here:
// the caller searches for them.
import { grow } from './columns';

/** 16M ids: 64 MB at most; beyond it (or below 0) `get` says "not held". */
export const MAX_DIRECT_ID = 1 << 24;
/** What `get` answers for an id this map does not cover. */
export const NOT_HELD = -2;

export class RowById {
  private rowOf = new Int32Array(0);

  /** The row of `id`, -1 when it has none, NOT_HELD when `id` is outside what this map covers. */
  get(id: number): number {
    if (!(id >= 0 && id < MAX_DIRECT_ID)) return NOT_HELD;
    return id < this.rowOf.length ? this.rowOf[id] : -1;
  }

  set(id: number, row: number): void {
    if (!(id >= 0 && id < MAX_DIRECT_ID)) return;
    this.rowOf = grow(this.rowOf, id + 1, this.rowOf.length, -1);
    this.rowOf[id] = row;
  }

  delete(id: number): void {
    if (id >= 0 && id < this.rowOf.length) this.rowOf[id] = -1;
  }

  /** Forgets every row (before the rows are renumbered). */
  clear(): void {
    this.rowOf.fill(-1);
  }
}
