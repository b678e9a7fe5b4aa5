// The immutable, packed part of the BM25 index (compressed sparse rows over terms): a term's
// postings in ascending slot order, varint-coded (postingCodec.ts), with a block table (every BLOCK
// postings: last slot and byte offset) so a search jumps to the block that may hold a slot.
// The bytes are in memory (a segment built or merged in this process: dense terms' bytes left
// out) or in the index file the segment was loaded from or saved to (postingBytes.ts: every term's
// bytes as written, the block table pointing into the file's postings section, read per queried
// term). Everything else (block table, bounds, ids, lengths, dense terms) is always in memory.
import { FileBytes, MemoryBytes, type PostingBytes } from './postingBytes';
import { MAX_SLOTS, putPosting } from './postingCodec';
import type { SegmentTables } from './segmentTables';

/** Postings per skip block. */
export const BLOCK = 128;
/**
 * Terms in at least this fraction of a segment's documents are held as one tf byte per slot
 * instead (tf ≥ 255 in a side map): about the size of their varint postings, and a search can
 * look a candidate up in O(1) instead of decoding the whole list (these are the `return`s and
 * `const`s every long query contains).
 */
const DENSE_FRACTION = 1 / 3; // PARAMS.md (Lexical index)
/** Segments below this size keep every term packed. */
const DENSE_MIN_DOCS = 1024;
/** Bytes copied at a time when a file-backed segment is written out again. */
const COPY_CHUNK = 1 << 20;

export class PackedSegment implements SegmentTables {
  readonly ids: Int32Array;
  readonly lens: Uint32Array;
  readonly df: Int32Array;
  readonly blockStart: Uint32Array;
  readonly blockLast: Uint32Array;
  readonly blockByte: Uint32Array;
  readonly maxTf: Uint16Array;
  readonly minLen: Uint16Array;
  // The bytes of the term decodeBlock last read: byte p of the postings is cur[p - curBase].
  private curTerm = -1;
  private cur: Uint8Array = new Uint8Array(0);
  private curBase = 0;

  private constructor(
    tables: SegmentTables,
    /**
     * Postings bytes. In memory: those of the packed terms only, a dense term's blocks all point at
     * an empty range. In a file: every term's, as encodedParts() writes them.
     */
    private readonly source: PostingBytes,
    /** Dense terms: tf by slot (0 = absent, 255 = see denseLargeTf). */
    readonly dense: Map<number, Uint8Array> = new Map(),
    readonly denseLargeTf: Map<number, Map<number, number>> = new Map(),
  ) {
    ({ ids: this.ids, lens: this.lens, df: this.df, blockStart: this.blockStart, blockLast: this.blockLast,
      blockByte: this.blockByte, maxTf: this.maxTf, minLen: this.minLen } = tables);
  }

  get nDocs(): number {
    return this.ids.length;
  }

  get nTerms(): number {
    return this.df.length;
  }

  private tables(): SegmentTables {
    const { ids, lens, df, blockStart, blockLast, blockByte, maxTf, minLen } = this;
    return { ids, lens, df, blockStart, blockLast, blockByte, maxTf, minLen };
  }

  /** Whether the postings are read from a file. */
  get onDisk(): boolean {
    return this.source instanceof FileBytes;
  }

  /** Releases the file the postings are read from (reads fail afterwards). */
  close(): void {
    this.source.close();
    this.curTerm = -1;
    this.cur = new Uint8Array(0);
  }

  /**
   * This segment reading its postings from `source`, the file encodedParts() was written to, with
   * `blockByte` the block offsets that encodedParts() reported. Does not close this one's source.
   */
  withSource(source: PostingBytes, blockByte: Uint32Array): PackedSegment {
    if (blockByte.length !== this.blockByte.length) throw new Error('lexical index inconsistent: block table of another segment');
    return new PackedSegment({ ...this.tables(), blockByte }, source, this.dense, this.denseLargeTf);
  }

  /** A segment from parts the caller built consistently (SegmentWriter); no validation pass. Postings in memory or in a file (every term's, as encodedParts writes them). */
  static trusted(tables: SegmentTables, bytes: Uint8Array | FileBytes): PackedSegment {
    const source = bytes instanceof FileBytes ? bytes : new MemoryBytes(bytes);
    const seg = new PackedSegment(tables, source);
    return source instanceof FileBytes ? seg.densified(() => source) : seg.densified();
  }

  /**
   * This segment with its most frequent terms decoded into tf-by-slot arrays. In memory their
   * bytes are dropped; with `onDisk` (opens the file these postings were read from, called last
   * so that nothing throws after it) the result reads every other term from there, the file's
   * layout and block offsets unchanged.
   */
  private densified(onDisk?: () => PostingBytes): PackedSegment {
    const nDocs = this.nDocs;
    const dense = new Map<number, Uint8Array>();
    const large = new Map<number, Map<number, number>>();
    const isDense = (t: number) => nDocs >= DENSE_MIN_DOCS && this.df[t] >= nDocs * DENSE_FRACTION && this.df[t] > 0;
    const slots = new Int32Array(BLOCK), tfs = new Uint16Array(BLOCK);
    for (let t = 0; t < this.nTerms; t++) {
      if (!isDense(t)) continue;
      const d = new Uint8Array(nDocs);
      for (let blk = this.blockStart[t]; blk < this.blockStart[t + 1]; blk++) {
        const n = this.decodeBlock(t, blk, slots, tfs);
        for (let i = 0; i < n; i++) {
          if (tfs[i] >= 255) {
            let m = large.get(t);
            if (!m) large.set(t, (m = new Map()));
            m.set(slots[i], tfs[i]);
          }
          d[slots[i]] = Math.min(tfs[i], 255);
        }
      }
      dense.set(t, d);
    }
    const make = (blockByte: Uint32Array, source: PostingBytes) =>
      new PackedSegment({ ...this.tables(), blockByte }, source, dense, large);
    if (onDisk) return make(this.blockByte, onDisk());
    if (dense.size === 0) return this;
    // Sized exactly (the packed terms' bytes) rather than allocated at full size and sliced: at
    // 100k files that second copy was ~50 MB of load-time peak.
    let packedBytes = this.source.length;
    for (const t of dense.keys()) packedBytes -= this.termEnd(t) - this.blockByte[this.blockStart[t]];
    const out = new Uint8Array(packedBytes);
    const blockByte = new Uint32Array(this.blockByte);
    let o = 0;
    for (let t = 0; t < this.nTerms; t++) {
      const first = this.blockStart[t], last = this.blockStart[t + 1];
      if (first === last) continue;
      if (dense.has(t)) {
        for (let blk = first; blk < last; blk++) blockByte[blk] = o;
      } else {
        const start = this.blockByte[first], end = this.termEnd(t);
        out.set(this.source.read(start, end), o);
        for (let blk = first; blk < last; blk++) blockByte[blk] = this.blockByte[blk] - start + o;
        o += end - start;
      }
    }
    if (o !== packedBytes) throw new Error(`lexical index corrupt: packed terms hold ${o} bytes, expected ${packedBytes}`);
    return make(blockByte, new MemoryBytes(out));
  }

  /**
   * One past the last byte of term t. Blocks are in term order and a term's bytes end where the
   * next block starts (in memory, a dense term's empty blocks point at the next packed term).
   */
  private termEnd(t: number): number {
    const next = this.blockStart[t + 1];
    return next < this.blockByte.length ? this.blockByte[next] : this.source.length;
  }

  /** tf of a dense term at a slot whose byte is 255. */
  largeTf(t: number, slot: number): number {
    return this.denseLargeTf.get(t)?.get(slot) ?? 255;
  }

  /**
   * All postings in the packed encoding (dense terms re-encoded), the form written to disk, piece
   * by piece. A piece is only valid until the next one is taken (buffers are reused; a file is
   * copied COPY_CHUNK bytes at a time, never loaded whole). Fills `fileBlockByte` with each
   * block's offset in that form.
   */
  * encodedParts(fileBlockByte: Uint32Array): IterableIterator<Uint8Array> {
    const source = this.source;
    if (this.dense.size === 0 || !(source instanceof MemoryBytes)) {
      // Already the file's layout.
      fileBlockByte.set(this.blockByte);
      if (source instanceof MemoryBytes) {
        if (source.length > 0) yield source.bytes;
        return;
      }
      const buf = new Uint8Array(Math.min(COPY_CHUNK, source.length));
      for (let at = 0; at < source.length; at += buf.length) {
        const piece = buf.subarray(0, Math.min(buf.length, source.length - at));
        source.copyTo(piece, at);
        yield piece;
      }
      return;
    }
    // In memory, packed terms' bytes are contiguous: emit runs of them as they are, and each dense
    // term encoded from its tf-by-slot array in between.
    const bytes = source.bytes;
    let o = 0, runStart = 0, runEnd = 0;
    let enc = new Uint8Array(0);
    for (let t = 0; t < this.nTerms; t++) {
      const first = this.blockStart[t], last = this.blockStart[t + 1];
      if (first === last) continue;
      const d = this.dense.get(t);
      if (!d) {
        const start = this.blockByte[first];
        for (let blk = first; blk < last; blk++) fileBlockByte[blk] = o + (runEnd - runStart) + this.blockByte[blk] - start;
        runEnd = this.termEnd(t);
        continue;
      }
      if (runEnd > runStart) yield bytes.subarray(runStart, runEnd);
      o += runEnd - runStart;
      runStart = runEnd;
      if (enc.length < this.df[t] * 8) enc = new Uint8Array(this.df[t] * 8);
      let p = 0, prev = -1, i = 0, blk = first;
      for (let slot = 0; slot < d.length; slot++) {
        if (d[slot] === 0) continue;
        if (i++ % BLOCK === 0) fileBlockByte[blk++] = o + p;
        p = putPosting(enc, p, slot - prev, d[slot] === 255 ? this.largeTf(t, slot) : d[slot]);
        prev = slot;
      }
      if (i !== this.df[t]) throw new Error(`lexical index inconsistent: dense term ${t} holds ${i} postings, df ${this.df[t]}`);
      yield enc.subarray(0, p);
      o += p;
    }
    if (runEnd > runStart) yield bytes.subarray(runStart, runEnd);
  }

  static empty(): PackedSegment {
    return PackedSegment.fromPostings(new Int32Array(0), new Uint32Array(0), new Int32Array(0), new Uint8Array(0));
  }

  /**
   * Wraps encoded postings, rebuilding the block table and per-term bounds in one pass over the
   * bytes. Validates everything it reads (the same code loads files from disk), so a corrupt
   * input throws instead of producing a segment that reads out of range later.
   * `opts.borrowed`: `bytes` is a view on a larger buffer (a file read) that the segment must not
   * keep alive; they are copied unless densifying already made a new array.
   * `opts.file`: `bytes` are also the file's bytes [offset, offset + bytes.length) of `fd`; once
   * validated the segment reads them from there instead (and owns `fd`, which it does not if
   * this throws).
   */
  static fromPostings(
    ids: Int32Array, lens: Uint32Array, df: Int32Array, bytes: Uint8Array,
    opts: { borrowed?: boolean; file?: { fd: number; path: string; offset: number } } = {},
  ): PackedSegment {
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
    const minLen = new Uint16Array(nTerms);
    const end = bytes.length;
    let p = 0;
    let blk = 0;
    for (let t = 0; t < nTerms; t++) {
      blockStart[t] = blk;
      const n = df[t];
      let prev = -1, mt = 0, ml = 0xffffffff;
      for (let i = 0; i < n; i++) {
        if (i % BLOCK === 0) blockByte[blk] = p;
        let v = 0, shift = 0, c: number;
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
      minLen[t] = n > 0 ? Math.min(ml, 65535) : 0;
    }
    blockStart[nTerms] = blk;
    if (p !== end) throw new Error(`lexical index corrupt: ${end - p} postings bytes left over`);
    const tables = { ids, lens, df, blockStart, blockLast, blockByte, maxTf, minLen };
    const whole = new PackedSegment(tables, new MemoryBytes(bytes));
    const file = opts.file;
    if (file) return whole.densified(() => new FileBytes(file.fd, file.path, file.offset, bytes.length));
    const seg = whole.densified();
    if (!opts.borrowed || seg !== whole) return seg;
    // Borrowed bytes (a view on a whole file's buffer) are copied only if densified() kept them
    // (`new Uint8Array`, not `slice`: on a Buffer, slice is another view).
    return new PackedSegment(tables, new MemoryBytes(new Uint8Array(bytes)), seg.dense, seg.denseLargeTf);
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
    if (this.dense.size !== 0) {
      const d = this.dense.get(t);
      if (d) {
        let i = 0;
        for (let s = blk > first ? this.blockLast[blk - 1] + 1 : 0; i < n; s++) {
          const tf = d[s];
          if (tf === 0) continue;
          slots[i] = s;
          tfs[i++] = tf === 255 ? this.largeTf(t, s) : tf;
        }
        return n;
      }
    }
    if (t !== this.curTerm) this.loadTerm(t);
    const bytes = this.cur;
    let p = this.blockByte[blk] - this.curBase;
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

  /**
   * Makes `cur` hold term t's bytes: the whole array in memory; from a file, one read of the
   * term's range (a query decodes each of its terms' blocks from that one read).
   */
  private loadTerm(t: number): void {
    const source = this.source;
    if (source instanceof MemoryBytes) {
      this.cur = source.bytes;
      this.curBase = 0;
    } else {
      this.curTerm = -1; // until the read succeeds
      const start = this.blockByte[this.blockStart[t]];
      this.cur = source.read(start, this.termEnd(t));
      this.curBase = start;
    }
    this.curTerm = t;
  }

  /** Whether term `t` has a posting for `slot` (one block decode). */
  contains(t: number, slot: number, slots: Int32Array, tfs: Uint16Array): boolean {
    if (t >= this.nTerms) return false;
    const d = this.dense.size !== 0 ? this.dense.get(t) : undefined;
    if (d) return slot < d.length && d[slot] !== 0;
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
