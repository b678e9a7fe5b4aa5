// Writes a packed segment (packedPostings.ts) term by term: the merge's output (bm25Merge.ts).
import { BLOCK, PackedSegment } from './packedPostings';
import { putPosting } from './postingCodec';
import { grow } from '../store/columns';

/** Writes a segment term by term (ascending term ids, ascending slots); used when merging. */
export class SegmentWriter {
  private bytes = new Uint8Array(1 << 16);
  private length = 0;
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

  constructor(private readonly lens: Uint32Array) {}

  /** Starts the next term's postings (at most `n` of them). */
  beginTerm(n: number): void {
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
    if (this.count % BLOCK === 0) this.blockByte[this.nBlocks] = this.length;
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

  finish(ids: Int32Array): PackedSegment {
    const n = this.nTerms;
    this.blockStart[n] = this.nBlocks;
    return PackedSegment.trusted(
      ids, this.lens, this.df.slice(0, n), this.blockStart.slice(0, n + 1), this.blockLast.slice(0, this.nBlocks),
      this.blockByte.slice(0, this.nBlocks), this.maxTf.slice(0, n), this.minLen.slice(0, n), this.bytes.slice(0, this.length),
    );
  }
}
