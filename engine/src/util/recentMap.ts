// A map that keeps its most recently used entries only: the per-request caches of the hover's and
// Find Related Code's lookups (what one parse found), bounded so a long session stays small.

export class RecentMap<K, V> {
  private readonly entries = new Map<K, V>();

  /** @param capacity entries kept; the least recently used goes first */
  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const v = this.entries.get(key);
    if (v !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, v);
    }
    return v;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Drops every entry `drop` accepts. */
  deleteWhere(drop: (value: V, key: K) => boolean): void {
    for (const [k, v] of this.entries) if (drop(v, k)) this.entries.delete(k);
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}
