// Int8 vector records held contiguously in memory, searched exactly. It is the whole index while
// small and, once inverted lists exist, the staging area for vectors added since the lists were
// last built. Records use the file layout (int8Kernel.ts), so moving them to a list is a copy.
import { Int8Scorer, recordBytes, writeRecord } from './int8Kernel';

export type { ScoredId } from '../util/topK';

export class FlatStore {
  readonly stride: number;
  private data: Buffer;
  private slotIds: number[] = [];
  private slotOf = new Map<number, number>();

  constructor(readonly dim: number, initialCapacity = 64) {
    this.stride = recordBytes(dim);
    this.data = Buffer.alloc(this.stride * Math.max(1, initialCapacity));
  }

  get size(): number {
    return this.slotIds.length;
  }

  /** The records, `size` of them from offset 0. */
  get records(): Buffer {
    return this.data;
  }

  has(id: number): boolean {
    return this.slotOf.has(id);
  }

  /** Adds or replaces the vector of `id` (stored as given: callers normalise). */
  set(id: number, vec: ArrayLike<number>): void {
    const slot = this.slotFor(id); // may grow `data`, so before reading it
    writeRecord(this.data, slot * this.stride, id, vec, this.dim);
  }

  /** Adds or replaces `id` with a record already encoded at `src[off]`. */
  setRecord(src: Buffer, off: number): void {
    const id = src.readUInt32LE(off);
    const slot = this.slotFor(id);
    src.copy(this.data, slot * this.stride, off, off + this.stride);
  }

  private slotFor(id: number): number {
    let slot = this.slotOf.get(id);
    if (slot === undefined) {
      slot = this.slotIds.length;
      if ((slot + 1) * this.stride > this.data.length) {
        const grown = Buffer.alloc(this.data.length * 2);
        this.data.copy(grown);
        this.data = grown;
      }
      this.slotIds.push(id);
      this.slotOf.set(id, slot);
    }
    return slot;
  }

  /** Removes `id` by moving the last record into its slot; returns whether it was present. */
  delete(id: number): boolean {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return false;
    const last = this.slotIds.length - 1;
    if (slot !== last) {
      const lastId = this.slotIds[last];
      this.data.copyWithin(slot * this.stride, last * this.stride, (last + 1) * this.stride);
      this.slotIds[slot] = lastId;
      this.slotOf.set(lastId, slot);
    }
    this.slotIds.pop();
    this.slotOf.delete(id);
    // Give memory back once mostly empty (e.g. after the records moved into lists).
    if (this.data.length > 4096 * this.stride && this.slotIds.length * 4 * this.stride < this.data.length) {
      this.data = Buffer.from(this.data.subarray(0, this.data.length / 2));
    }
    return true;
  }

  clear(): void {
    this.slotIds = [];
    this.slotOf = new Map();
    this.data = Buffer.alloc(this.stride * 64);
  }

  ids(): number[] {
    return this.slotIds.slice();
  }

  /** Scores every record against the scorer's current query. */
  scan(scorer: Int8Scorer, visit: (id: number, score: number) => void): void {
    scorer.scoreRecords(this.data, 0, this.size, (slot, score) => visit(this.slotIds[slot], score));
  }
}
