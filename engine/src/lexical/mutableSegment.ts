// The mutable segment of a BM25 index: documents added since the last merge, in typed-array pools
// (no object per document). Document m's (term, tf) entries are pool[start[m], start[m + 1]); the
// entries of one term are also chained (poolNext) from head to tail in insertion order, per
// "mutable term" mt (a term with mutable postings: termOf maps term id → mt). Searches and merges
// read these columns; only this class writes them.
import { grow } from '../store/columns';

export class MutableSegment {
  /** Id of mutable document m. */
  readonly ids: number[] = [];
  /** Length of mutable document m, or -1 once removed. */
  readonly lens: number[] = [];
  readonly start: number[] = [0];
  poolMt = new Int32Array(1024);
  poolTf = new Uint16Array(1024);
  poolNext = new Int32Array(1024);
  poolDoc = new Int32Array(1024);
  poolLength = 0;
  readonly termOf = new Map<number, number>();
  head = new Int32Array(256);
  tail = new Int32Array(256);
  /** Live mutable documents containing the term, and score-bound inputs over all its entries. */
  df = new Int32Array(256);
  maxTf = new Uint16Array(256);
  minLen = new Uint32Array(256);
  /** Term id of mutable term mt (the inverse of termOf), to write mutable documents back out. */
  tidOf = new Int32Array(256);
  private mtCount = 0;
  private readonly slotById = new Map<number, number>();

  /** Mutable slots, removed documents included. */
  get slots(): number {
    return this.ids.length;
  }

  /** The live mutable slot of `id`, or undefined. */
  slotOf(id: number): number | undefined {
    return this.slotById.get(id);
  }

  /** Live mutable documents containing term `tid`. */
  liveDf(tid: number): number {
    const mt = this.termOf.get(tid);
    return mt === undefined ? 0 : this.df[mt];
  }

  /** Appends a document (its id absent) by its `n` distinct term ids, their counts and its length. */
  add(id: number, tids: ArrayLike<number>, tfs: ArrayLike<number>, n: number, len: number): void {
    const need = this.poolLength + n;
    if (need > this.poolMt.length) {
      this.poolMt = grow(this.poolMt, need);
      this.poolTf = grow(this.poolTf, need);
      this.poolNext = grow(this.poolNext, need);
      this.poolDoc = grow(this.poolDoc, need);
    }
    const m = this.ids.length;
    for (let i = 0; i < n; i++) {
      const tf = tfs[i];
      const mt = this.termOf.get(tids[i]) ?? this.newTerm(tids[i]);
      const e = this.poolLength++;
      this.poolMt[e] = mt;
      this.poolTf[e] = tf;
      this.poolDoc[e] = m;
      this.poolNext[e] = -1;
      if (this.tail[mt] < 0) this.head[mt] = e;
      else this.poolNext[this.tail[mt]] = e;
      this.tail[mt] = e;
      this.df[mt]++;
      if (tf > this.maxTf[mt]) this.maxTf[mt] = tf;
      if (len < this.minLen[mt]) this.minLen[mt] = len;
    }
    this.ids.push(id);
    this.lens.push(len);
    this.start.push(this.poolLength);
    this.slotById.set(id, m);
  }

  /** Marks `id`'s document removed; returns its length, or -1 if it is not a live mutable document. */
  remove(id: number): number {
    const m = this.slotById.get(id);
    if (m === undefined) return -1;
    this.slotById.delete(id);
    for (let e = this.start[m]; e < this.start[m + 1]; e++) this.df[this.poolMt[e]]--;
    const len = this.lens[m];
    this.lens[m] = -1;
    return len;
  }

  private newTerm(tid: number): number {
    const mt = this.mtCount++;
    if (mt >= this.head.length) {
      const cap = mt + 1;
      this.head = grow(this.head, cap);
      this.tail = grow(this.tail, cap);
      this.df = grow(this.df, cap);
      this.maxTf = grow(this.maxTf, cap);
      this.minLen = grow(this.minLen, cap);
    }
    this.tidOf = grow(this.tidOf, mt + 1);
    this.termOf.set(tid, mt);
    this.tidOf[mt] = tid;
    this.head[mt] = -1;
    this.tail[mt] = -1;
    this.df[mt] = 0;
    this.maxTf[mt] = 0;
    this.minLen[mt] = 0xffffffff;
    return mt;
  }
}
