// Term string → dense term id, without a JS string and Map entry per term (~70 bytes each, the
// largest part of a lexical index with a million distinct identifiers): the UTF-8 bytes of all
// terms in one array, an offset per term, and an open-addressing hash table of ids (~25 bytes per
// term in all). Ids are assigned in insertion order and never change until the dictionary is
// rebuilt (on a merge, without the terms no live document uses).
import { grow } from '../store/columns';

const EMPTY = -1;

export class TermDictionary {
  private bytes: Uint8Array;
  private byteLength = 0;
  /** Term t occupies bytes [offsets[t], offsets[t + 1]). */
  private offsets: Uint32Array;
  private count = 0;
  /** Open addressing, linear probing, at most 3/4 full; slots hold term ids or EMPTY. Size is a power of two. */
  private table: Int32Array;
  /** Scratch for non-ASCII lookups. */
  private encoded: Uint8Array = new Uint8Array(0);

  constructor(expectedTerms = 64, expectedBytes = expectedTerms * 8) {
    this.bytes = new Uint8Array(Math.max(64, expectedBytes));
    this.offsets = new Uint32Array(Math.max(64, expectedTerms) + 1);
    this.table = new Int32Array(tableSizeFor(expectedTerms)).fill(EMPTY);
  }

  get size(): number {
    return this.count;
  }

  /** Bytes held (for memory accounting in benchmarks). */
  get byteSize(): number {
    return this.bytes.byteLength + this.offsets.byteLength + this.table.byteLength;
  }

  /** The id of `term`, or -1. */
  get(term: string): number {
    const ascii = isAscii(term);
    const n = ascii ? term.length : this.encode(term);
    const h = ascii ? hashAscii(term) : hashBytes(this.encoded, 0, n);
    const mask = this.table.length - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const t = this.table[i];
      if (t === EMPTY) return -1;
      if (ascii ? this.equalsAscii(t, term) : this.equalsBytes(t, this.encoded, n)) return t;
    }
  }

  /** The id of `term`, adding it if new. */
  intern(term: string): number {
    const ascii = isAscii(term);
    const n = ascii ? term.length : this.encode(term);
    const h = ascii ? hashAscii(term) : hashBytes(this.encoded, 0, n);
    const mask = this.table.length - 1;
    let i = h & mask;
    for (; ; i = (i + 1) & mask) {
      const t = this.table[i];
      if (t === EMPTY) break;
      if (ascii ? this.equalsAscii(t, term) : this.equalsBytes(t, this.encoded, n)) return t;
    }
    const id = this.append(ascii ? null : this.encoded, term, n);
    this.table[i] = id;
    if ((this.count + 1) * 4 > this.table.length * 3) this.rehash(this.table.length * 2);
    return id;
  }

  /** The string of term `t`. */
  term(t: number): string {
    const s = this.offsets[t], e = this.offsets[t + 1];
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset + s, e - s).toString('utf8');
  }

  /** Compares the stored bytes of `t` with `term` (ASCII). */
  private equalsAscii(t: number, term: string): boolean {
    const s = this.offsets[t], e = this.offsets[t + 1];
    if (e - s !== term.length) return false;
    const b = this.bytes;
    for (let j = 0; j < term.length; j++) if (b[s + j] !== term.charCodeAt(j)) return false;
    return true;
  }

  private equalsBytes(t: number, src: Uint8Array, n: number): boolean {
    const s = this.offsets[t], e = this.offsets[t + 1];
    if (e - s !== n) return false;
    const b = this.bytes;
    for (let j = 0; j < n; j++) if (b[s + j] !== src[j]) return false;
    return true;
  }

  /** Orders terms `t` and `u` by their UTF-8 bytes (= code point order; the same as `<` for ASCII). */
  compare(t: number, u: number): number {
    const b = this.bytes;
    let i = this.offsets[t], j = this.offsets[u];
    const ie = this.offsets[t + 1], je = this.offsets[u + 1];
    for (; i < ie && j < je; i++, j++) if (b[i] !== b[j]) return b[i] - b[j];
    return ie - i - (je - j);
  }

  private encode(term: string): number {
    const need = term.length * 3;
    if (this.encoded.length < need) this.encoded = new Uint8Array(need * 2);
    return Buffer.from(this.encoded.buffer, this.encoded.byteOffset, this.encoded.length).write(term, 'utf8');
  }

  private append(src: Uint8Array | null, term: string, n: number): number {
    this.bytes = grow(this.bytes, this.byteLength + n, this.byteLength);
    this.offsets = grow(this.offsets, this.count + 2);
    const b = this.bytes, o = this.byteLength;
    if (src) b.set(src.subarray(0, n), o);
    else for (let j = 0; j < n; j++) b[o + j] = term.charCodeAt(j);
    this.byteLength += n;
    const id = this.count++;
    this.offsets[id + 1] = this.byteLength;
    return id;
  }

  private rehash(size: number): void {
    const table = new Int32Array(size).fill(EMPTY);
    const mask = size - 1;
    for (let t = 0; t < this.count; t++) {
      let i = hashBytes(this.bytes, this.offsets[t], this.offsets[t + 1]) & mask;
      while (table[i] !== EMPTY) i = (i + 1) & mask;
      table[i] = t;
    }
    this.table = table;
  }

  /** A new dictionary holding the terms `keep` (ascending ids) of this one, renumbered 0, 1, ... */
  subset(keep: ArrayLike<number>, n: number): TermDictionary {
    let bytes = 0;
    for (let j = 0; j < n; j++) bytes += this.offsets[keep[j] + 1] - this.offsets[keep[j]];
    const out = new TermDictionary(n, bytes);
    for (let j = 0; j < n; j++) {
      const t = keep[j], s = this.offsets[t], e = this.offsets[t + 1];
      out.bytes.set(this.bytes.subarray(s, e), out.byteLength);
      out.byteLength += e - s;
      out.offsets[j + 1] = out.byteLength;
    }
    out.count = n;
    out.rehash(tableSizeFor(n));
    return out;
  }

  /** Serialized form of the first `n` terms: varint byte length of each term, then their bytes. */
  toBytes(n = this.count): { lengths: Uint8Array; bytes: Uint8Array } {
    const lengths = new Uint8Array(n * 5);
    let p = 0;
    for (let t = 0; t < n; t++) {
      let v = this.offsets[t + 1] - this.offsets[t];
      while (v >= 128) { lengths[p++] = (v & 127) | 128; v >>>= 7; }
      lengths[p++] = v;
    }
    return { lengths: lengths.subarray(0, p), bytes: this.bytes.subarray(0, this.offsets[n]) };
  }

  /** Inverse of toBytes(); throws on malformed input or duplicate terms. */
  static fromBytes(count: number, lengths: Uint8Array, bytes: Uint8Array): TermDictionary {
    const out = new TermDictionary(count, bytes.length);
    out.bytes.set(bytes);
    let p = 0, o = 0;
    for (let t = 0; t < count; t++) {
      let v = 0, shift = 0, c: number;
      do {
        if (p >= lengths.length || shift > 28) throw new Error('lexical index corrupt: vocabulary lengths malformed');
        c = lengths[p++];
        v |= (c & 127) << shift;
        shift += 7;
      } while (c >= 128);
      o += v;
      if (o > bytes.length) throw new Error('lexical index corrupt: vocabulary runs past its bytes');
      out.offsets[t + 1] = o;
    }
    if (p !== lengths.length || o !== bytes.length) throw new Error('lexical index corrupt: vocabulary sizes disagree');
    out.byteLength = o;
    out.count = count;
    const mask = out.table.length - 1;
    for (let t = 0; t < count; t++) {
      let i = hashBytes(out.bytes, out.offsets[t], out.offsets[t + 1]) & mask;
      for (; out.table[i] !== EMPTY; i = (i + 1) & mask) {
        if (out.equalsBytes(out.table[i], out.bytes.subarray(out.offsets[t]), out.offsets[t + 1] - out.offsets[t])) {
          throw new Error('lexical index corrupt: duplicate terms in vocabulary');
        }
      }
      out.table[i] = t;
    }
    return out;
  }
}

function tableSizeFor(n: number): number {
  let size = 64;
  while (size * 3 < n * 4 + 4) size *= 2;
  return size;
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 127) return false;
  return true;
}

/** FNV-1a over the char codes of an ASCII string: equal to hashBytes over its UTF-8 bytes. */
function hashAscii(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h ^ (h >>> 15)) >>> 0;
}

function hashBytes(b: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ b[i], 0x01000193);
  return (h ^ (h >>> 15)) >>> 0;
}
