// Interned strings in one UTF-8 arena: a string costs its bytes plus 4 (offset) and ~8 (hash
// slot), instead of a JS string object, a Map entry and an array slot (~70 bytes for a short name).
// Paths, symbol names and signatures of a 100k-file workspace live here. Strings are never
// removed (an edited name leaves its old spelling behind); a rebuild starts a fresh pool.
import { BinaryReader, BinaryWriter, owned, ownedBuffer } from './binary';
import { grow } from './columns';

export class StringPool {
  private arena = Buffer.alloc(1024);
  private used = 0;
  /** offsets[i]..offsets[i+1] are string i's bytes. */
  private offsets = new Int32Array(64);
  private count = 0;
  /** Open addressing: string index + 1, 0 = empty. */
  private slots = new Int32Array(64);

  get size(): number {
    return this.count;
  }

  /** The index of `s`, adding it if new. */
  intern(s: string): number {
    const found = this.lookup(s, true);
    return found;
  }

  /** The index of `s`, or -1. */
  find(s: string): number {
    return this.lookup(s, false);
  }

  get(i: number): string {
    return this.arena.toString('utf8', this.offsets[i], this.offsets[i + 1]);
  }

  /** Whether string `i` equals `s` (no decoding when the lengths differ). */
  equals(i: number, s: string): boolean {
    return this.offsets[i + 1] - this.offsets[i] === Buffer.byteLength(s) && this.get(i) === s;
  }

  private lookup(s: string, add: boolean): number {
    // Encoded into a scratch buffer, copied into the arena only when new (a loaded pool is sized exactly).
    if (s.length * 3 > scratch.length) scratch = Buffer.alloc(s.length * 3);
    const n = scratch.write(s, 0, 'utf8');
    const hash = fnv(scratch, 0, n);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const v = this.slots[slot];
      if (v === 0) {
        if (!add) return -1;
        if (this.used + n > this.arena.length) {
          const next = Buffer.alloc(Math.max(this.used + n, Math.ceil(this.arena.length * 1.25)));
          this.arena.copy(next, 0, 0, this.used);
          this.arena = next;
        }
        const start = this.used;
        scratch.copy(this.arena, start, 0, n);
        const i = this.count++;
        this.offsets = grow(this.offsets, this.count + 1, this.count);
        this.offsets[i] = start;
        this.offsets[i + 1] = start + n;
        this.used = start + n;
        this.slots[slot] = i + 1;
        if (this.count * 2 > this.slots.length) this.rehash(this.slots.length * 2);
        return i;
      }
      const i = v - 1;
      const a = this.offsets[i];
      if (this.offsets[i + 1] - a === n && scratch.compare(this.arena, a, a + n, 0, n) === 0) return i;
    }
  }

  private rehash(capacity: number): void {
    this.slots = new Int32Array(capacity);
    const mask = capacity - 1;
    for (let i = 0; i < this.count; i++) {
      let slot = fnv(this.arena, this.offsets[i], this.offsets[i + 1]) & mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
      this.slots[slot] = i + 1;
    }
  }

  write(w: BinaryWriter): void {
    w.u32(this.count);
    w.bytes(this.offsets.subarray(0, this.count + 1));
    w.bytes(this.arena.subarray(0, this.used));
  }

  static read(r: BinaryReader): StringPool {
    const pool = new StringPool();
    const count = r.u32();
    const offsets = owned(r.int32s(count + 1));
    const arena = ownedBuffer(r.bytes());
    if (offsets[0] !== 0 || offsets[count] !== arena.length) throw new Error('string pool offsets do not match its bytes');
    for (let i = 0; i < count; i++) if (offsets[i + 1] < offsets[i]) throw new Error('string pool offsets out of order');
    pool.arena = arena;
    pool.used = arena.length;
    pool.offsets = offsets;
    pool.count = count;
    let cap = 64;
    while (cap < count * 2 + 2) cap *= 2;
    pool.rehash(cap);
    return pool;
  }
}

/** Where a looked-up string is encoded (shared: lookups are synchronous). */
let scratch = Buffer.alloc(1024);

/** FNV-1a over bytes. */
function fnv(buf: Buffer, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) {
    h ^= buf[i];
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
