// The state of a BM25 index and its upkeep: an immutable packed base segment (packedPostings.ts),
// the term dictionary (termDictionary.ts), a small mutable segment for documents added since the
// last merge (typed-array pools, no object per document), a dead mark per base slot and a log of
// deletions. Statistics (N, df, avgdl) count live documents only: df of a base term is its packed
// df minus the dead base documents that contain it, counted lazily per queried term from the log.
// Merging and persistence: bm25Merge.ts; search: bm25.ts.
import { PackedSegment, BLOCK } from './packedPostings';
import { TermDictionary } from './termDictionary';
import { grow } from '../store/columns';
import { LEXICAL_MERGE_MIN_DOCS, lexicalMergeForced } from '../store/mergePolicy';

export interface Bm25Options {
  /** Term-frequency saturation (Okapi k1). */
  k1?: number;
  /** Length normalisation strength (Okapi b). */
  b?: number;
  /**
   * Mutable documents plus dead base slots tolerated before they are merged into the packed base
   * (the merge also waits for MERGE_FRACTION of the base). Default 4096; tests lower it to cross
   * merges with few documents.
   */
  mergeMinDocs?: number;
  /**
   * Work budget of one search, in postings: query terms are taken in decreasing idf order, and
   * once the terms taken so far hold this many postings the remaining, more common ones are
   * dropped (at least MIN_QUERY_TERMS are always kept); below it results are exact. Default
   * 250,000, Infinity = exhaustive (why: docs/investigations/query-latency-at-scale.md).
   */
  maxQueryPostings?: number;
}

/** Okapi BM25's defaults (Bm25Options.k1, .b). */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/** BM25's idf of a term in `df` of `docs` documents. */
export const bm25Idf = (docs: number, df: number): number => Math.log(1 + (docs - df + 0.5) / (df + 0.5));

// Query budget: PARAMS.md (Lexical index); when to merge: store/mergePolicy.ts.
export const DEFAULT_MAX_QUERY_POSTINGS = 250_000;
/** A merge writes its new base's postings to a scratch file beyond this many bytes (segmentWriter.ts). */
const MERGE_SPILL_BYTES = 4 << 20;

export abstract class Bm25Segments {
  readonly k1: number;
  readonly b: number;
  protected readonly mergeMinDocs: number;
  /** See Bm25Options.maxQueryPostings; may be changed between searches. */
  maxQueryPostings: number;
  /** Postings bytes a merge keeps in memory before it writes them to a scratch file (tests lower it). */
  mergeSpillBytes = MERGE_SPILL_BYTES;
  protected dict = new TermDictionary();

  protected base = PackedSegment.empty();
  /** 1 where the base slot's document was removed. */
  protected baseDead = new Uint8Array(0);
  /** Base slots removed since the last merge, in removal order. */
  protected deadLog: number[] = [];
  /** Per queried base term: dead base documents containing it, counted over deadLog[0, seen). */
  protected deadCounts = new Map<number, { count: number; seen: number }>();

  // Mutable segment. Document m's (term, tf) entries are pool[mutStart[m], mutStart[m + 1]); the
  // entries of one term are also chained (poolNext) from mtHead to mtTail in insertion order, per
  // "mutable term" mt (a term with mutable postings: mutTermOf maps term id → mt).
  protected mutIds: number[] = [];
  /** Length of mutable document m, or -1 once removed. */
  protected mutLen: number[] = [];
  protected mutStart: number[] = [0];
  protected readonly mutSlotById = new Map<number, number>();
  protected poolMt = new Int32Array(1024);
  protected poolTf = new Uint16Array(1024);
  protected poolNext = new Int32Array(1024);
  protected poolDoc = new Int32Array(1024);
  protected poolLength = 0;
  protected mutTermOf = new Map<number, number>();
  protected mtHead = new Int32Array(256);
  protected mtTail = new Int32Array(256);
  /** Live mutable documents containing the term, and score-bound inputs over all its entries. */
  protected mtDf = new Int32Array(256);
  protected mtMaxTf = new Uint16Array(256);
  protected mtMinLen = new Uint32Array(256);
  protected mtCount = 0;
  /** Scratch for counting a document's terms. */
  protected docTids = new Int32Array(256);
  protected docTfs = new Uint16Array(256);

  protected liveDocs = 0;
  protected totalLen = 0;

  // What the last commit (index/indexStore.ts) holds, so a save writes only what changed since
  // (bm25Delta.ts): mutable slots below committedMut are in committed delta segments, ids removed
  // since are listed, and baseCommitted says whether the packed base is a committed file.
  /** Term id of mutable term mt (the inverse of mutTermOf), to write mutable documents back out. */
  protected mtTid = new Int32Array(256);
  protected committedMut = 0;
  protected removedSinceCommit: number[] = [];
  protected baseCommitted = false;
  /** Set while a delta segment is replayed: no merge midway (the replay must end as it was saved). */
  protected replaying = false;
  /** Set while a sliced merge runs (bm25Merge.ts); removals meanwhile are applied to its output. */
  protected merging = false;
  protected removedDuringMerge: number[] = [];

  // Query scratch, sized to the slot count and reused (cleared after each search).
  protected acc = new Float64Array(0);
  protected touched = new Int32Array(0);
  /** Per slot during a search: bits 1/2 = accept() known true/false, 4 = candidate, 8 = in the k-best heap. */
  protected mark = new Uint8Array(0);
  /** The same bytes as `mark`, four at a time. */
  protected mark32 = new Uint32Array(0);
  // The running k best of a search (see offerTheta) and its filter.
  protected heapSlots = new Int32Array(0);
  protected heapVals = new Float64Array(0);
  protected heapSize = 0;
  protected heapK = 0;
  protected heapMin = -1;
  protected acceptFn: ((id: number) => boolean) | undefined;
  protected blockSlots = new Int32Array(BLOCK);
  protected blockTfs = new Uint16Array(BLOCK);

  /** Merges the backstop ran inside add or remove (blocking), since this index was created. */
  syncMerges = 0;

  constructor(opts: Bm25Options = {}) {
    this.k1 = opts.k1 ?? BM25_K1;
    this.b = opts.b ?? BM25_B;
    this.mergeMinDocs = opts.mergeMinDocs ?? LEXICAL_MERGE_MIN_DOCS;
    this.maxQueryPostings = opts.maxQueryPostings ?? DEFAULT_MAX_QUERY_POSTINGS;
  }

  get size(): number {
    return this.liveDocs;
  }

  has(id: number): boolean {
    return this.mutSlotById.has(id) || this.liveBaseSlot(id) >= 0;
  }

  protected liveBaseSlot(id: number): number {
    const s = this.base.slotOf(id);
    return s >= 0 && this.baseDead[s] === 0 ? s : -1;
  }

  /** Adds (or replaces) a document given its terms (repeats count as term frequency). */
  add(id: number, terms: Iterable<string>): void {
    if (this.has(id)) this.remove(id);
    let len = 0;
    for (const t of terms) {
      this.docTids = grow(this.docTids, len + 1);
      this.docTids[len++] = this.dict.intern(t);
    }
    const tids = this.docTids.subarray(0, len).sort();
    // Run-length in place: distinct term ids to the front, their counts in docTfs.
    let distinct = 0;
    this.docTfs = grow(this.docTfs, len + 1);
    for (let i = 0; i < len;) {
      const tid = tids[i];
      let j = i + 1;
      while (j < len && tids[j] === tid) j++;
      tids[distinct] = tid;
      this.docTfs[distinct++] = Math.min(j - i, 65535);
      i = j;
    }
    this.addCounted(id, this.docTids, this.docTfs, distinct, len);
  }

  /**
   * Adds a document (its id absent) by its `n` distinct term ids and their counts (1..65535),
   * `len` its length in terms: add()'s second half, and how a saved delta segment is replayed.
   */
  protected addCounted(id: number, tids: ArrayLike<number>, tfs: ArrayLike<number>, n: number, len: number): void {
    const need = this.poolLength + n;
    if (need > this.poolMt.length) {
      this.poolMt = grow(this.poolMt, need);
      this.poolTf = grow(this.poolTf, need);
      this.poolNext = grow(this.poolNext, need);
      this.poolDoc = grow(this.poolDoc, need);
    }
    const m = this.mutIds.length;
    for (let i = 0; i < n; i++) {
      const tid = tids[i];
      const tf = tfs[i];
      let mt = this.mutTermOf.get(tid);
      if (mt === undefined) {
        mt = this.mtCount++;
        if (mt >= this.mtHead.length) {
          const cap = mt + 1;
          this.mtHead = grow(this.mtHead, cap);
          this.mtTail = grow(this.mtTail, cap);
          this.mtDf = grow(this.mtDf, cap);
          this.mtMaxTf = grow(this.mtMaxTf, cap);
          this.mtMinLen = grow(this.mtMinLen, cap);
        }
        this.mtTid = grow(this.mtTid, mt + 1);
        this.mutTermOf.set(tid, mt);
        this.mtTid[mt] = tid;
        this.mtHead[mt] = -1;
        this.mtTail[mt] = -1;
        this.mtDf[mt] = 0;
        this.mtMaxTf[mt] = 0;
        this.mtMinLen[mt] = 0xffffffff;
      }
      const e = this.poolLength++;
      this.poolMt[e] = mt;
      this.poolTf[e] = tf;
      this.poolDoc[e] = m;
      this.poolNext[e] = -1;
      if (this.mtTail[mt] < 0) this.mtHead[mt] = e;
      else this.poolNext[this.mtTail[mt]] = e;
      this.mtTail[mt] = e;
      this.mtDf[mt]++;
      if (tf > this.mtMaxTf[mt]) this.mtMaxTf[mt] = tf;
      if (len < this.mtMinLen[mt]) this.mtMinLen[mt] = len;
    }
    this.mutIds.push(id);
    this.mutLen.push(len);
    this.mutStart.push(this.poolLength);
    this.mutSlotById.set(id, m);
    this.liveDocs++;
    this.totalLen += len;
    this.maybeMerge();
  }

  remove(id: number): boolean {
    const m = this.mutSlotById.get(id);
    if (m !== undefined || this.liveBaseSlot(id) >= 0) {
      this.removedSinceCommit.push(id);
      if (this.merging) this.removedDuringMerge.push(id);
    }
    if (m !== undefined) {
      this.mutSlotById.delete(id);
      for (let e = this.mutStart[m]; e < this.mutStart[m + 1]; e++) this.mtDf[this.poolMt[e]]--;
      this.liveDocs--;
      this.totalLen -= this.mutLen[m];
      this.mutLen[m] = -1;
      this.maybeMerge();
      return true;
    }
    const s = this.liveBaseSlot(id);
    if (s < 0) return false;
    this.baseDead[s] = 1;
    this.deadLog.push(s);
    this.liveDocs--;
    this.totalLen -= this.base.lens[s];
    this.maybeMerge();
    return true;
  }

  protected maybeMerge(): void {
    if (this.replaying || this.merging) return;
    // The backstop (mergePolicy.ts lexicalMergeForced): queries wait for the whole merge (1-2 s at 100k files).
    if (this.mergeDueAt(0)) {
      this.syncMerges++;
      this.compact();
    }
  }

  /** Whether adding `more` documents would make `add` merge at once (the caller can merge in slices first). */
  wouldMergeOnAdd(more: number): boolean {
    return !this.replaying && !this.merging && this.mergeDueAt(more);
  }

  private mergeDueAt(more: number): boolean {
    const pendingDocs = this.mutIds.length + this.deadLog.length + more;
    return lexicalMergeForced({ baseDocs: this.base.nDocs, pendingDocs, minDocs: this.mergeMinDocs });
  }

  /** Live documents containing term `tid`. */
  protected liveDf(tid: number): number {
    const mt = this.mutTermOf.get(tid);
    let df = mt === undefined ? 0 : this.mtDf[mt];
    if (tid < this.base.nTerms) df += this.base.df[tid] - this.deadInBase(tid);
    return df;
  }

  /** Dead base documents containing `tid`, brought up to date with the deletion log. */
  protected deadInBase(tid: number): number {
    const log = this.deadLog;
    if (log.length === 0) return 0;
    let entry = this.deadCounts.get(tid);
    if (!entry) this.deadCounts.set(tid, (entry = { count: 0, seen: 0 }));
    if (entry.seen === log.length) return entry.count;
    const df = this.base.df[tid];
    if ((log.length - entry.seen) * BLOCK > 4 * df) {
      // Many new deletions against a short list: recount by one pass over the list.
      let count = 0;
      const first = this.base.blockStart[tid], last = this.base.blockStart[tid + 1];
      for (let blk = first; blk < last; blk++) {
        const n = this.base.decodeBlock(tid, blk, this.blockSlots, this.blockTfs);
        for (let i = 0; i < n; i++) count += this.baseDead[this.blockSlots[i]];
      }
      entry.count = count;
    } else {
      // Counted aside: a failed postings read must not leave a half-updated count behind.
      let count = entry.count;
      for (let i = entry.seen; i < log.length; i++) if (this.base.contains(tid, log[i], this.blockSlots, this.blockTfs)) count++;
      entry.count = count;
    }
    entry.seen = log.length;
    return entry.count;
  }

  idf(term: string): number {
    const tid = this.dict.get(term);
    const df = tid < 0 ? 0 : this.liveDf(tid);
    return bm25Idf(this.liveDocs, df);
  }

  /** Merges the mutable documents and the deletions into a new packed base (bm25Merge.ts). */
  abstract compact(): void;
}
