// Exact nearest-neighbour search over vectors held contiguously in memory. Used for small
// indexes, where it is exact and needs no graph build, and as the staging area before an HNSW
// graph is worth building.

export interface ScoredId {
  id: number;
  /** Cosine similarity (vectors are stored unit length). */
  score: number;
}

export class FlatStore {
  private data: Float32Array;
  private slotIds: number[] = [];
  private slotOf = new Map<number, number>();

  constructor(readonly dim: number, initialCapacity = 256) {
    this.data = new Float32Array(dim * Math.max(1, initialCapacity));
  }

  get size(): number {
    return this.slotIds.length;
  }

  has(id: number): boolean {
    return this.slotOf.has(id);
  }

  /** Adds or replaces the vector of `id` (stored as given: callers normalise). */
  set(id: number, vec: ArrayLike<number>): void {
    let slot = this.slotOf.get(id);
    if (slot === undefined) {
      slot = this.slotIds.length;
      if ((slot + 1) * this.dim > this.data.length) {
        const grown = new Float32Array(this.data.length * 2);
        grown.set(this.data);
        this.data = grown;
      }
      this.slotIds.push(id);
      this.slotOf.set(id, slot);
    }
    this.data.set(vec, slot * this.dim);
  }

  /** Removes `id` by moving the last vector into its slot; returns whether it was present. */
  delete(id: number): boolean {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return false;
    const last = this.slotIds.length - 1;
    if (slot !== last) {
      const lastId = this.slotIds[last];
      this.data.copyWithin(slot * this.dim, last * this.dim, (last + 1) * this.dim);
      this.slotIds[slot] = lastId;
      this.slotOf.set(lastId, slot);
    }
    this.slotIds.pop();
    this.slotOf.delete(id);
    return true;
  }

  get(id: number): Float32Array | undefined {
    const slot = this.slotOf.get(id);
    return slot === undefined ? undefined : this.data.slice(slot * this.dim, (slot + 1) * this.dim);
  }

  *entries(): IterableIterator<[number, Float32Array]> {
    for (let slot = 0; slot < this.slotIds.length; slot++) {
      yield [this.slotIds[slot], this.data.subarray(slot * this.dim, (slot + 1) * this.dim)];
    }
  }

  /** Top-k by inner product, best first. */
  search(query: ArrayLike<number>, k: number): ScoredId[] {
    const dim = this.dim;
    const top: ScoredId[] = []; // kept sorted, best first; k is small so insertion is cheap
    for (let slot = 0; slot < this.slotIds.length; slot++) {
      const base = slot * dim;
      let dot = 0;
      for (let d = 0; d < dim; d++) dot += this.data[base + d] * query[d];
      if (top.length === k && dot <= top[k - 1].score) continue;
      let at = top.length;
      while (at > 0 && top[at - 1].score < dot) at--;
      top.splice(at, 0, { id: this.slotIds[slot], score: dot });
      if (top.length > k) top.pop();
    }
    return top;
  }
}
