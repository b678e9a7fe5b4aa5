// The read-only base segment of a BM25 index: a packed segment (packedPostings.ts) and its
// deletions, a dead mark per slot and the log of slots removed since it was built (as tantivy
// keeps an alive bitset beside a segment). Dead documents per term are counted lazily from the log.
import { PackedSegment, BLOCK } from './packedPostings';
import type { PostingBytes } from './postingBytes';

export class BaseSegment {
  /** The postings; replaced only by reopen() (the same postings, read from another source). */
  packed: PackedSegment;
  /** 1 where the slot's document was removed. */
  readonly dead: Uint8Array;
  /** Slots removed since the segment was built, in removal order. */
  readonly deadLog: number[] = [];
  /** Per queried term: dead documents containing it, counted over deadLog[0, seen). */
  private readonly deadCounts = new Map<number, { count: number; seen: number }>();
  private readonly blockSlots = new Int32Array(BLOCK);
  private readonly blockTfs = new Uint16Array(BLOCK);

  constructor(packed: PackedSegment = PackedSegment.empty()) {
    this.packed = packed;
    this.dead = new Uint8Array(packed.nDocs);
  }

  /** The live slot of `id`, or -1. */
  liveSlot(id: number): number {
    const s = this.packed.slotOf(id);
    return s >= 0 && this.dead[s] === 0 ? s : -1;
  }

  /** Marks live slot `s` removed. */
  kill(s: number): void {
    this.dead[s] = 1;
    this.deadLog.push(s);
  }

  /** Live documents containing term `tid`. */
  liveDf(tid: number): number {
    return tid < this.packed.nTerms ? this.packed.df[tid] - this.deadIn(tid) : 0;
  }

  /** Reads the same postings from `source` from now on (after a save); closes the previous source. */
  reopen(source: PostingBytes, blockByte: Uint32Array): void {
    const old = this.packed;
    this.packed = old.withSource(source, blockByte);
    // On Linux and macOS the old file stays readable through its descriptor after the rename; it
    // is closed only now that reads go to the new one (another process may still read it).
    old.close();
  }

  /** Dead documents containing `tid`, brought up to date with the deletion log. */
  private deadIn(tid: number): number {
    const log = this.deadLog;
    if (log.length === 0) return 0;
    let entry = this.deadCounts.get(tid);
    if (!entry) this.deadCounts.set(tid, (entry = { count: 0, seen: 0 }));
    if (entry.seen === log.length) return entry.count;
    const seg = this.packed;
    if ((log.length - entry.seen) * BLOCK > 4 * seg.df[tid]) {
      // Many new deletions against a short list: recount by one pass over the list.
      let count = 0;
      for (let blk = seg.blockStart[tid], last = seg.blockStart[tid + 1]; blk < last; blk++) {
        const n = seg.decodeBlock(tid, blk, this.blockSlots, this.blockTfs);
        for (let i = 0; i < n; i++) count += this.dead[this.blockSlots[i]];
      }
      entry.count = count;
    } else {
      // Counted aside: a failed postings read must not leave a half-updated count behind.
      let count = entry.count;
      for (let i = entry.seen; i < log.length; i++) if (seg.contains(tid, log[i], this.blockSlots, this.blockTfs)) count++;
      entry.count = count;
    }
    entry.seen = log.length;
    return entry.count;
  }
}
