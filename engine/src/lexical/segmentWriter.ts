// Writes a packed segment (packedPostings.ts) term by term: the merge's output (bm25Merge.ts).
// Past `spillAbove` bytes the postings go to a scratch file as they are produced and the segment
// reads them from there, so a merge never holds a whole base's postings (at 100k files ~50 MB,
// copied twice on the way: PARAMS.md, Lexical index: MERGE_SPILL_BYTES).
import { BLOCK, PackedSegment } from './packedPostings';
import { putPosting } from './postingCodec';
import { grow } from '../store/columns';
import { discardScratch, openScratch, writeAt, type ScratchFile } from '../store/scratchFile';
import { FileBytes } from './postingBytes';

/** Writes a segment term by term (ascending term ids, ascending slots); used when merging. */
export class SegmentWriter {
  private bytes = new Uint8Array(1 << 16);
  /** Bytes in `bytes`; the postings' offset `flushed + i` is bytes[i]. */
  private length = 0;
  /** Bytes already written to `spill`. */
  private flushed = 0;
  private spill: ScratchFile | undefined;
  private df = new Int32Array(1024);
  private maxTf = new Uint16Array(1024);
  private minLen = new Uint16Array(1024);
  private blockStart = new Uint32Array(1025);
  private blockLast = new Uint32Array(1024);
  private blockByte = new Uint32Array(1024);
  private nTerms = 0;
  private nBlocks = 0;
  // The term being written.
  private prev = -1;
  private count = 0;

  constructor(
    private readonly lens: Uint32Array,
    /** Postings bytes kept in memory at most; beyond, they are written to a scratch file. */
    private readonly spillAbove = Infinity,
  ) {}

  /** Starts the next term's postings (at most `n` of them). */
  beginTerm(n: number): void {
    const need = this.length + n * 8;
    if (need > this.bytes.length && (this.spill || need > this.spillAbove)) this.writeOut();
    this.bytes = grow(this.bytes, this.length + n * 8, this.length);
    const t = this.nTerms;
    if (t + 1 >= this.df.length) {
      // The per-term columns keep one capacity (blockStart one more), checked through df's.
      this.df = grow(this.df, t + 2);
      this.maxTf = grow(this.maxTf, this.df.length);
      this.minLen = grow(this.minLen, this.df.length);
      this.blockStart = grow(this.blockStart, this.df.length + 1);
    }
    const blocks = this.nBlocks + Math.ceil(n / BLOCK) + 1;
    if (blocks > this.blockLast.length) {
      this.blockLast = grow(this.blockLast, blocks);
      this.blockByte = grow(this.blockByte, this.blockLast.length);
    }
    this.blockStart[t] = this.nBlocks;
    this.minLen[t] = 65535;
    this.prev = -1;
    this.count = 0;
  }

  /** One posting: `slot` above the term's previous one, 1 ≤ tf ≤ 65535. */
  push(slot: number, tf: number): void {
    const t = this.nTerms;
    if (this.count % BLOCK === 0) this.blockByte[this.nBlocks] = this.flushed + this.length;
    this.length = putPosting(this.bytes, this.length, slot - this.prev, tf);
    this.prev = slot;
    if (tf > this.maxTf[t]) this.maxTf[t] = tf;
    if (this.lens[slot] < this.minLen[t]) this.minLen[t] = this.lens[slot];
    if (++this.count % BLOCK === 0) this.blockLast[this.nBlocks++] = slot;
  }

  endTerm(): void {
    if (this.count % BLOCK !== 0) this.blockLast[this.nBlocks++] = this.prev;
    this.df[this.nTerms++] = this.count;
  }

  /** Moves the buffered bytes to the scratch file (opened on first use). */
  private writeOut(): void {
    this.spill ??= openScratch('lexical-merge');
    try {
      writeAt(this.spill.fd, this.bytes.subarray(0, this.length), this.flushed);
    } catch (err) {
      this.abandon();
      throw err;
    }
    this.flushed += this.length;
    this.length = 0;
  }

  /** Drops the scratch file, if any (a merge that failed or was given up). */
  abandon(): void {
    if (!this.spill) return;
    discardScratch(this.spill);
    this.spill = undefined;
  }

  finish(ids: Int32Array): PackedSegment {
    const n = this.nTerms;
    this.blockStart[n] = this.nBlocks;
    const df = this.df.slice(0, n), blockStart = this.blockStart.slice(0, n + 1), blockLast = this.blockLast.slice(0, this.nBlocks);
    const blockByte = this.blockByte.slice(0, this.nBlocks), maxTf = this.maxTf.slice(0, n), minLen = this.minLen.slice(0, n);
    if (!this.spill && this.length <= this.spillAbove) return PackedSegment.trusted({ ids, lens: this.lens, df, blockStart, blockLast, blockByte, maxTf, minLen }, this.bytes.slice(0, this.length));
    if (this.length) this.writeOut();
    const spill = this.spill!;
    this.spill = undefined;
    this.bytes = new Uint8Array(0);
    // The segment owns the descriptor from here (closing it removes the name where it remains).
    return PackedSegment.trusted({ ids, lens: this.lens, df, blockStart, blockLast, blockByte, maxTf, minLen }, new FileBytes(spill.fd, spill.path, 0, this.flushed, true));
  }
}
