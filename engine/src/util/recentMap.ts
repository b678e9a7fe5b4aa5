// A map that keeps its most recently used entries only: the per-request caches of the hover's and
// Find Related Code's lookups (what one parse found), bounded so a long session stays small.

export class RecentMap<K, V> {
  private readonly entries = new Map<K, V>();

  /**
   * @param capacity entries kept; the least recently used goes first
   * @param dropped called with each value that leaves (evicted, replaced by another, deleted, cleared): frees what it holds
   */
  constructor(private readonly capacity: number, private readonly dropped?: (value: V) => void) {}

  get(key: K): V | undefined {
    const v = this.entries.get(key);
    if (v !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, v);
    }
    return v;
  }

  /** Whether `key` is kept (its use not recorded). */
  has(key: K): boolean {
    return this.entries.has(key);
  }

  set(key: K, value: V): void {
    const old = this.entries.get(key);
    this.entries.delete(key);
    this.entries.set(key, value);
    if (old !== undefined && old !== value) this.dropped?.(old);
    if (this.entries.size > this.capacity) this.delete(this.entries.keys().next().value!);
  }

  delete(key: K): void {
    const v = this.entries.get(key);
    this.entries.delete(key);
    if (v !== undefined) this.dropped?.(v);
  }

  /** Drops every entry `drop` accepts. */
  deleteWhere(drop: (value: V, key: K) => boolean): void {
    for (const [k, v] of this.entries) if (drop(v, k)) this.delete(k);
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    const values = [...this.entries.values()];
    this.entries.clear();
    if (this.dropped) for (const v of values) this.dropped(v);
  }
}
