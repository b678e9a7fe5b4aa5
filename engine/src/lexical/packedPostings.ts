// The immutable, packed part of the BM25 index (compressed sparse rows over terms).
//
// Postings of one term are its documents in ascending slot order, each written as one varint
// v = gap * 2 + (tf === 1 ? 1 : 0), followed by a varint tf when tf > 1 (most code terms occur
// once in a chunk, so the common posting is a single byte). Gaps run across the whole term; the
// block table (every BLOCK postings: last slot and byte offset) lets a search jump to the block
// that may hold a given slot without decoding the list from its start.

/** Postings per skip block. */
export const BLOCK = 128;
/** Slots must stay below this so that gap * 2 fits the 31-bit varint arithmetic of the hot loops. */
export const MAX_SLOTS = 2 ** 30;

export class PackedSegment {
  private constructor(
    /** External ids by slot, strictly ascending (so lookups are a binary search, not a Map). */
    readonly ids: Int32Array,
    /** Document length (tokens) by slot. */
    readonly lens: Uint32Array,
    /** Postings per term (dead slots included: deletions are tracked outside the segment). */
    readonly df: Int32Array,
    /** First block of each term; blockStart[t + 1] is one past its last. */
    readonly blockStart: Uint32Array,
    /** Last slot of each block. */
    readonly blockLast: Uint32Array,
    /** Byte offset of each block in `bytes`. */
    readonly blockByte: Uint32Array,
    /** Largest tf and smallest document length of each term: a per-term score bound. */
    readonly maxTf: Uint16Array,
    readonly minLen: Uint32Array,
    readonly bytes: Uint8Array,
  ) {}

  get nDocs(): number {
    return this.ids.length;
  }

  get nTerms(): number {
    return this.df.length;
  }

  static empty(): PackedSegment {
    return PackedSegment.fromPostings(new Int32Array(0), new Uint32Array(0), new Int32Array(0), new Uint8Array(0));
  }

  /**
   * Wraps encoded postings, rebuilding the block table and per-term bounds in one pass over the
   * bytes. Validates everything it reads (the same code loads files from disk), so a corrupt
   * input throws instead of producing a segment that reads out of range later.
   */
  static fromPostings(ids: Int32Array, lens: Uint32Array, df: Int32Array, bytes: Uint8Array): PackedSegment {
    const nDocs = ids.length;
    if (lens.length !== nDocs) throw new Error('lexical index corrupt: ids and lengths differ in count');
    if (nDocs >= MAX_SLOTS) throw new Error(`lexical index too large: ${nDocs} documents`);
    for (let i = 1; i < nDocs; i++) {
      if (ids[i] <= ids[i - 1]) throw new Error('lexical index corrupt: document ids not ascending');
    }
    const nTerms = df.length;
    let nBlocks = 0;
    for (let t = 0; t < nTerms; t++) {
      if (df[t] < 0 || df[t] > nDocs) throw new Error(`lexical index corrupt: term ${t} has df ${df[t]}`);
      nBlocks += Math.ceil(df[t] / BLOCK);
    }
    const blockStart = new Uint32Array(nTerms + 1);
    const blockLast = new Uint32Array(nBlocks);
    const blockByte = new Uint32Array(nBlocks);
    const maxTf = new Uint16Array(nTerms);
    const minLen = new Uint32Array(nTerms);
    const end = bytes.length;
    let p = 0;
    let blk = 0;
    for (let t = 0; t < nTerms; t++) {
      blockStart[t] = blk;
      const n = df[t];
      let prev = -1, mt = 0, ml = 0xffffffff;
      for (let i = 0; i < n; i++) {
        if (i % BLOCK === 0) blockByte[blk] = p;
        let v = 0, shift = 0, c = 0;
        do {
          if (p >= end || shift > 28) throw new Error(`lexical index corrupt: postings of term ${t} run past their bytes`);
          c = bytes[p++];
          v += (c & 127) * 2 ** shift;
          shift += 7;
        } while (c >= 128);
        let tf = 1;
        if ((v & 1) === 0) {
          tf = 0; shift = 0;
          do {
            if (p >= end || shift > 14) throw new Error(`lexical index corrupt: tf of term ${t} malformed`);
            c = bytes[p++];
            tf += (c & 127) << shift;
            shift += 7;
          } while (c >= 128);
          if (tf < 2 || tf > 65535) throw new Error(`lexical index corrupt: tf ${tf} of term ${t}`);
        }
        const gap = Math.floor(v / 2);
        const slot = prev + gap;
        if (gap < 1 || slot >= nDocs) throw new Error(`lexical index corrupt: posting slot ${slot} of term ${t}`);
        prev = slot;
        if (tf > mt) mt = tf;
        if (lens[slot] < ml) ml = lens[slot];
        if (i % BLOCK === BLOCK - 1 || i === n - 1) blockLast[blk++] = slot;
      }
      maxTf[t] = mt;
      minLen[t] = n > 0 ? ml : 0;
    }
    blockStart[nTerms] = blk;
    if (p !== end) throw new Error(`lexical index corrupt: ${end - p} postings bytes left over`);
    return new PackedSegment(ids, lens, df, blockStart, blockLast, blockByte, maxTf, minLen, bytes);
  }

  /** Binary search for an external id; -1 when absent. */
  slotOf(id: number): number {
    const ids = this.ids;
    let lo = 0, hi = ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = ids[mid];
      if (v === id) return mid;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Decodes block `blk` of term `t` into slots/tfs; returns how many postings it holds. */
  decodeBlock(t: number, blk: number, slots: Int32Array, tfs: Uint16Array): number {
    const first = this.blockStart[t];
    const n = Math.min(BLOCK, this.df[t] - (blk - first) * BLOCK);
    const bytes = this.bytes;
    let p = this.blockByte[blk];
    let prev = blk > first ? this.blockLast[blk - 1] : -1;
    for (let i = 0; i < n; i++) {
      let v = bytes[p++];
      if (v >= 128) {
        v &= 127;
        let shift = 7, c: number;
        do { c = bytes[p++]; v |= (c & 127) << shift; shift += 7; } while (c >= 128);
      }
      let tf = 1;
      if ((v & 1) === 0) {
        tf = bytes[p++];
        if (tf >= 128) {
          tf &= 127;
          let shift = 7, c: number;
          do { c = bytes[p++]; tf |= (c & 127) << shift; shift += 7; } while (c >= 128);
        }
      }
      prev += v >>> 1;
      slots[i] = prev;
      tfs[i] = tf;
    }
    return n;
  }

  /** Whether term `t` has a posting for `slot` (one block decode). */
  contains(t: number, slot: number, slots: Int32Array, tfs: Uint16Array): boolean {
    if (t >= this.nTerms) return false;
    let lo = this.blockStart[t], hi = this.blockStart[t + 1] - 1;
    if (lo > hi || this.blockLast[hi] < slot) return false;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.blockLast[mid] < slot) lo = mid + 1;
      else hi = mid;
    }
    const n = this.decodeBlock(t, lo, slots, tfs);
    for (let i = 0; i < n; i++) if (slots[i] === slot) return true;
    return false;
  }
}

/** Appends postings in the packed format; used when merging segments. */
export class PostingsWriter {
  bytes = new Uint8Array(1 << 16);
  length = 0;

  private ensure(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    let cap = this.bytes.length * 2;
    while (cap < this.length + extra) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
  }

  /** Reserves room for `n` postings (at most 5 bytes of gap and 3 of tf each). */
  reserve(n: number): void {
    this.ensure(n * 8);
  }

  /** One posting; `gap` ≥ 1 from the term's previous slot (or from -1), 1 ≤ tf ≤ 65535. */
  push(gap: number, tf: number): void {
    const b = this.bytes;
    let p = this.length;
    let v = gap * 2 + (tf === 1 ? 1 : 0);
    while (v >= 128) { b[p++] = (v & 127) | 128; v = Math.floor(v / 128); }
    b[p++] = v;
    if (tf !== 1) {
      while (tf >= 128) { b[p++] = (tf & 127) | 128; tf >>>= 7; }
      b[p++] = tf;
    }
    this.length = p;
  }

  /** The written bytes, trimmed to size (a copy, so the growth slack is freed). */
  finish(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
}
