// Okapi BM25 over an incrementally updated set of documents, compact at 100k-file scale.
//
// Layout: an immutable packed base segment (packedPostings.ts: delta-varint postings in one byte
// array, the most frequent terms as tf-by-slot bytes, ids and lengths in typed arrays), a packed
// term dictionary (termDictionary.ts), a small mutable segment for documents added since the
// last merge (typed-array pools, no object per document), and a dead mark per base slot.
// Statistics (N, df, avgdl) count live documents only, so scores equal a fresh build over the
// same documents: df of a base term is its packed df minus the dead base documents that contain
// it, counted lazily per queried term from a log of deletions. The mutable part is merged into a
// new base once it (plus the dead base slots) passes a fraction of the base, on compact(), and
// before serialization.
//
// A base loaded from a file (deserialize with the open file) or saved to one (save) leaves its
// postings bytes there and reads each queried term's byte range with one positional read
// (postingBytes.ts): the OS page cache holds them, not this process (~46 MB at 100k files). The
// rest of the base stays in memory. A merge builds its new base in memory, until the next save;
// close() releases the file.
//
// Search is term-at-a-time in decreasing idf order with MaxScore pruning: once the k-th best
// partial score exceeds the most any untouched document could still gain, the remaining (frequent,
// long) terms only update the surviving candidates (through the block table, a dense term's
// bytes, or one streaming pass when candidates are dense in the list). The k-th best partial score
// is kept up to date by a small heap while scoring. Pruning only drops documents that provably
// cannot reach the top k, so results equal exhaustive scoring.
import * as fs from 'fs';
import { PackedSegment, SegmentWriter, BLOCK, MAX_SLOTS } from './packedPostings';
import { bm25File, readBm25, writeBm25 } from './bm25Format';
import { TermDictionary } from './termDictionary';
import { writePartsAtomic, type FileDigest } from '../vector/persist';
import { FileBytes } from './postingBytes';

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
   * dropped (at least MIN_QUERY_TERMS are always kept). Below the budget results are exact (on the DEV
   * split it never binds: same A and C numbers, 420 tasks); at
   * 100k files a 60-line query window's common words would otherwise cost hundreds of ms per
   * keystroke, for the terms that separate documents least (their effect on ranking at that scale
   * is not measured: the generated repository has no relevance labels). Default 250,000: 100k generated files, fresh process, 200 queries:
   * p50/p95 274/394 ms exhaustive, 66/92 ms at 1M, 42/63 at 500k, 25/41 at 250k. Infinity = exhaustive.
   */
  maxQueryPostings?: number;
}

export interface ScoredId {
  id: number;
  score: number;
}

export { BM25_FORMAT_VERSION } from './bm25Format';

/** Merge when mutable documents plus dead base slots exceed this fraction of the base... */
const MERGE_FRACTION = 0.125;
/** ...and this many (so that small indexes and a fresh build do not merge all the time). */
const DEFAULT_MERGE_MIN = 4096;
/** Candidate-only scoring decodes a whole list when it holds fewer than this many postings per candidate. */
const STREAM_RATIO = 16;
export const DEFAULT_MAX_QUERY_POSTINGS = 250_000;
/** A budgeted search keeps at least this many of the query's rarest terms. */
export const MIN_QUERY_TERMS = 8;
/** Relative slack on score bounds, far above floating-point summation error. */
const BOUND_SLACK = 1e-9;

interface QueryTerm {
  tid: number;
  /** idf × query tf. */
  weight: number;
  /** Most this term can add to any document's score. */
  bound: number;
  df: number;
}

/** Int32Array that grows by doubling. */
function grow<T extends Int32Array | Uint32Array | Uint16Array>(a: T, need: number, make: (n: number) => T): T {
  if (need <= a.length) return a;
  const next = make(Math.max(need, a.length * 2));
  next.set(a);
  return next;
}

export class Bm25Index {
  readonly k1: number;
  readonly b: number;
  private readonly mergeMinDocs: number;
  /** See Bm25Options.maxQueryPostings; may be changed between searches. */
  maxQueryPostings: number;
  private dict = new TermDictionary();

  private base = PackedSegment.empty();
  /** 1 where the base slot's document was removed. */
  private baseDead = new Uint8Array(0);
  /** Base slots removed since the last merge, in removal order. */
  private deadLog: number[] = [];
  /** Per queried base term: dead base documents containing it, counted over deadLog[0, seen). */
  private deadCounts = new Map<number, { count: number; seen: number }>();

  // Mutable segment. Document m's (term, tf) entries are pool[mutStart[m], mutStart[m + 1]); the
  // entries of one term are also chained (poolNext) from mtHead to mtTail in insertion order, per
  // "mutable term" mt (a term with mutable postings: mutTermOf maps term id → mt).
  private mutIds: number[] = [];
  /** Length of mutable document m, or -1 once removed. */
  private mutLen: number[] = [];
  private mutStart: number[] = [0];
  private readonly mutSlotById = new Map<number, number>();
  private poolMt = new Int32Array(1024);
  private poolTf = new Uint16Array(1024);
  private poolNext = new Int32Array(1024);
  private poolDoc = new Int32Array(1024);
  private poolLength = 0;
  private mutTermOf = new Map<number, number>();
  private mtHead = new Int32Array(256);
  private mtTail = new Int32Array(256);
  /** Live mutable documents containing the term, and score-bound inputs over all its entries. */
  private mtDf = new Int32Array(256);
  private mtMaxTf = new Uint16Array(256);
  private mtMinLen = new Uint32Array(256);
  private mtCount = 0;
  /** Scratch for counting a document's terms. */
  private docTids = new Int32Array(256);

  private liveDocs = 0;
  private totalLen = 0;

  // Query scratch, sized to the slot count and reused (cleared after each search).
  private acc = new Float64Array(0);
  private touched = new Int32Array(0);
  /** Per slot during a search: bits 1/2 = accept() known true/false, 4 = candidate, 8 = in the k-best heap. */
  private mark = new Uint8Array(0);
  /** The same bytes as `mark`, four at a time. */
  private mark32 = new Uint32Array(0);
  // The running k best of a search (see offerTheta) and its filter.
  private heapSlots = new Int32Array(0);
  private heapVals = new Float64Array(0);
  private heapSize = 0;
  private heapK = 0;
  private heapMin = -1;
  private acceptFn: ((id: number) => boolean) | undefined;
  private blockSlots = new Int32Array(BLOCK);
  private blockTfs = new Uint16Array(BLOCK);

  constructor(opts: Bm25Options = {}) {
    this.k1 = opts.k1 ?? 1.2;
    this.b = opts.b ?? 0.75;
    this.mergeMinDocs = opts.mergeMinDocs ?? DEFAULT_MERGE_MIN;
    this.maxQueryPostings = opts.maxQueryPostings ?? DEFAULT_MAX_QUERY_POSTINGS;
  }

  get size(): number {
    return this.liveDocs;
  }

  has(id: number): boolean {
    return this.mutSlotById.has(id) || this.liveBaseSlot(id) >= 0;
  }

  private liveBaseSlot(id: number): number {
    const s = this.base.slotOf(id);
    return s >= 0 && this.baseDead[s] === 0 ? s : -1;
  }

  /** Adds (or replaces) a document given its terms (repeats count as term frequency). */
  add(id: number, terms: Iterable<string>): void {
    if (this.has(id)) this.remove(id);
    let len = 0;
    for (const t of terms) {
      this.docTids = grow(this.docTids, len + 1, (n) => new Int32Array(n));
      this.docTids[len++] = this.dict.intern(t);
    }
    const tids = this.docTids.subarray(0, len).sort();
    let distinct = 0;
    for (let i = 0; i < len; i++) if (i === 0 || tids[i] !== tids[i - 1]) distinct++;
    const need = this.poolLength + distinct;
    if (need > this.poolMt.length) {
      this.poolMt = grow(this.poolMt, need, (n) => new Int32Array(n));
      this.poolTf = grow(this.poolTf, need, (n) => new Uint16Array(n));
      this.poolNext = grow(this.poolNext, need, (n) => new Int32Array(n));
      this.poolDoc = grow(this.poolDoc, need, (n) => new Int32Array(n));
    }
    const m = this.mutIds.length;
    for (let i = 0; i < len; ) {
      const tid = tids[i];
      let j = i + 1;
      while (j < len && tids[j] === tid) j++;
      const tf = Math.min(j - i, 65535);
      i = j;
      let mt = this.mutTermOf.get(tid);
      if (mt === undefined) {
        mt = this.mtCount++;
        if (mt >= this.mtHead.length) {
          const n = mt + 1;
          this.mtHead = grow(this.mtHead, n, (c) => new Int32Array(c));
          this.mtTail = grow(this.mtTail, n, (c) => new Int32Array(c));
          this.mtDf = grow(this.mtDf, n, (c) => new Int32Array(c));
          this.mtMaxTf = grow(this.mtMaxTf, n, (c) => new Uint16Array(c));
          this.mtMinLen = grow(this.mtMinLen, n, (c) => new Uint32Array(c));
        }
        this.mutTermOf.set(tid, mt);
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

  private maybeMerge(): void {
    const pending = this.mutIds.length + this.deadLog.length;
    if (pending > this.mergeMinDocs && pending > MERGE_FRACTION * this.base.nDocs) this.compact();
  }

  /** Live documents containing term `tid`. */
  private liveDf(tid: number): number {
    const mt = this.mutTermOf.get(tid);
    let df = mt === undefined ? 0 : this.mtDf[mt];
    if (tid < this.base.nTerms) df += this.base.df[tid] - this.deadInBase(tid);
    return df;
  }

  /** Dead base documents containing `tid`, brought up to date with the deletion log. */
  private deadInBase(tid: number): number {
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
    return Math.log(1 + (this.liveDocs - df + 0.5) / (df + 0.5));
  }

  /**
   * Scores every document against the query terms (repeats in the query weigh the term more,
   * as in Okapi BM25 over a token list) and returns the best `k`, optionally filtered; ties go
   * to the lower id.
   */
  search(queryTerms: Iterable<string>, k: number, accept?: (id: number) => boolean): ScoredId[] {
    const qCounts = new Map<number, number>();
    for (const t of queryTerms) {
      const tid = this.dict.get(t);
      if (tid >= 0) qCounts.set(tid, (qCounts.get(tid) ?? 0) + 1);
    }
    if (qCounts.size === 0 || this.liveDocs === 0 || k <= 0) return [];
    const avgLen = this.totalLen / this.liveDocs || 1;
    const k1 = this.k1, b = this.b;
    const query: QueryTerm[] = [];
    for (const [tid, qtf] of qCounts) {
      const df = this.liveDf(tid);
      if (df <= 0) continue;
      const weight = Math.log(1 + (this.liveDocs - df + 0.5) / (df + 0.5)) * qtf;
      let maxTf = 0, minLen = Infinity;
      if (tid < this.base.nTerms && this.base.df[tid] > 0) {
        maxTf = this.base.maxTf[tid];
        minLen = this.base.minLen[tid];
      }
      const mt = this.mutTermOf.get(tid);
      if (mt !== undefined) {
        maxTf = Math.max(maxTf, this.mtMaxTf[mt]);
        minLen = Math.min(minLen, this.mtMinLen[mt]);
      }
      const bound = (weight * maxTf * (k1 + 1)) / (maxTf + k1 * (1 - b + (b * minLen) / avgLen));
      query.push({ tid, weight, bound, df });
    }
    if (query.length === 0) return [];
    // Rare terms first. The order depends only on live statistics and the terms themselves, so an
    // incrementally updated index sums each score in the same order as a fresh build.
    query.sort((x, y) => y.weight - x.weight || this.dict.compare(x.tid, y.tid));
    let postings = 0;
    for (let t = 0; t < query.length; t++) {
      postings += query[t].df;
      if (postings > this.maxQueryPostings && t >= MIN_QUERY_TERMS) {
        query.length = t;
        break;
      }
    }
    const rest = new Float64Array(query.length + 1);
    for (let i = query.length - 1; i >= 0; i--) rest[i] = rest[i + 1] + query[i].bound;
    try {
      return this.run(query, rest, k, avgLen, accept);
    } catch (err) {
      // A failed postings read (the index file truncated under us) leaves partial scores in the
      // scratch: clear all of it so the next search starts clean, and let the caller see the error.
      this.acc.fill(0);
      this.mark.fill(0);
      throw err;
    } finally {
      this.acceptFn = undefined;
    }
  }

  /** Scores `query` (rarest first; `rest[i]` bounds what terms i.. can add) into the top k. */
  private run(query: QueryTerm[], rest: Float64Array, k: number, avgLen: number, accept?: (id: number) => boolean): ScoredId[] {
    const nSlots = this.base.nDocs + this.mutIds.length;
    this.ensureScratch(nSlots);
    const acc = this.acc, mark = this.mark;
    this.acceptFn = accept;
    this.heapK = k;
    this.heapSize = 0;
    this.heapMin = -1;
    if (this.heapSlots.length < k) {
      this.heapSlots = new Int32Array(k);
      this.heapVals = new Float64Array(k);
    }

    let nTouched = 0;
    let i = 0;
    for (; i < query.length; i++) {
      // Stop scoring every posting once the k-th best partial score is above what any untouched
      // document could still reach.
      if (this.heapMin > rest[i] * (1 + BOUND_SLACK)) break;
      nTouched = this.scoreAll(query[i], avgLen, nTouched);
    }

    const top = new TopK(k);
    if (i === query.length) {
      for (let j = 0; j < nTouched; j++) {
        const s = this.touched[j];
        if (this.accepted(s)) top.offer(this.slotId(s), acc[s]);
      }
    } else {
      // Candidates: touched, accepted, and able to reach theta with what the rest can add.
      let nc = 0;
      const theta = this.heapMin;
      for (let j = 0; j < nTouched; j++) {
        const s = this.touched[j];
        if ((acc[s] + rest[i]) * (1 + BOUND_SLACK) >= theta && this.accepted(s)) {
          mark[s] |= 4;
          nc++;
        }
      }
      // In ascending slot order: a scan of the marks when candidates are many (sorting 100k
      // typed-array entries costs more than reading every slot's mark), else a sort.
      const cands = new Int32Array(nc);
      let c = 0;
      if (nc * 32 > nSlots) {
        // Four marks at a time (mark's length is a multiple of 4; slots past nSlots are 0).
        const words = this.mark32, n = (nSlots + 3) >> 2;
        for (let wi = 0; wi < n; wi++) {
          if ((words[wi] & 0x04040404) === 0) continue;
          for (let s = wi << 2, e = s + 4; s < e; s++) if (mark[s] & 4) cands[c++] = s;
        }
      } else {
        for (let j = 0; j < nTouched; j++) if (mark[this.touched[j]] & 4) cands[c++] = this.touched[j];
        cands.sort();
      }
      for (; i < query.length; i++) {
        this.scoreCandidates(query[i], avgLen, cands, nc);
        // Re-select theta and drop the candidates that can no longer reach it.
        if (nc > k && i + 1 < query.length) {
          const theta = this.heapMin;
          const r = rest[i + 1];
          let kept = 0;
          for (let j = 0; j < nc; j++) {
            const s = cands[j];
            if ((acc[s] + r) * (1 + BOUND_SLACK) >= theta) cands[kept++] = s;
            else mark[s] &= ~4;
          }
          nc = kept;
        }
      }
      for (let j = 0; j < nc; j++) top.offer(this.slotId(cands[j]), acc[cands[j]]);
    }
    for (let j = 0; j < nTouched; j++) {
      const s = this.touched[j];
      acc[s] = 0;
      mark[s] = 0;
    }
    return top.sorted();
  }

  private slotId(s: number): number {
    const nBase = this.base.nDocs;
    return s < nBase ? this.base.ids[s] : this.mutIds[s - nBase];
  }

  private ensureScratch(nSlots: number): void {
    if (this.acc.length >= nSlots) return;
    // Modest growth: these arrays are a large part of the index's memory at scale.
    const cap = Math.min(MAX_SLOTS, Math.max(nSlots + 1024, Math.ceil(this.acc.length * 1.25)));
    this.acc = new Float64Array(cap);
    this.touched = new Int32Array(cap);
    this.mark = new Uint8Array(cap + 3 - ((cap + 3) % 4));
    this.mark32 = new Uint32Array(this.mark.buffer);
  }

  /** Whether slot `s` passes the search's filter (cached in mark bits 1 and 2). */
  private accepted(s: number): boolean {
    if (!this.acceptFn) return true;
    const m = this.mark[s];
    if (m & 1) return true;
    if (m & 2) return false;
    const ok = this.acceptFn(this.slotId(s));
    this.mark[s] = m | (ok ? 1 : 2);
    return ok;
  }

  /**
   * Records that slot `s` now scores `v` (above the current k-th best). The heap holds the k best
   * accepted documents so far, distinct (mark bit 8); its minimum is a lower bound on the final
   * k-th best score, because accumulated scores only grow. Returns the new minimum (-1 until k
   * documents are in).
   */
  private offerTheta(s: number, v: number): number {
    const mark = this.mark, slots = this.heapSlots, vals = this.heapVals;
    let i: number;
    if (mark[s] & 8) {
      i = 0;
      while (slots[i] !== s) i++;
      vals[i] = v;
    } else {
      if (!this.accepted(s)) return this.heapMin;
      mark[s] |= 8;
      if (this.heapSize < this.heapK) {
        i = this.heapSize++;
        slots[i] = s;
        vals[i] = v;
        while (i > 0) {
          const p = (i - 1) >> 1;
          if (vals[p] <= vals[i]) break;
          const ts = slots[p]; slots[p] = slots[i]; slots[i] = ts;
          const tv = vals[p]; vals[p] = vals[i]; vals[i] = tv;
          i = p;
        }
        this.heapMin = this.heapSize < this.heapK ? -1 : vals[0];
        return this.heapMin;
      }
      mark[slots[0]] &= ~8;
      i = 0;
      slots[0] = s;
      vals[0] = v;
    }
    // The value at i grew (or replaced the root): sift down.
    const n = this.heapSize;
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i;
      if (l < n && vals[l] < vals[m]) m = l;
      if (r < n && vals[r] < vals[m]) m = r;
      if (m === i) break;
      const ts = slots[m]; slots[m] = slots[i]; slots[i] = ts;
      const tv = vals[m]; vals[m] = vals[i]; vals[i] = tv;
      i = m;
    }
    this.heapMin = n < this.heapK ? -1 : vals[0];
    return this.heapMin;
  }

  /** Adds the term's contribution to every live document containing it; returns the new touched count. */
  private scoreAll(q: QueryTerm, avgLen: number, nTouched: number): number {
    const acc = this.acc, touched = this.touched, k1 = this.k1, b = this.b, w = q.weight;
    let hmin = this.heapMin;
    const seg = this.base;
    const dense = seg.dense.size !== 0 ? seg.dense.get(q.tid) : undefined;
    if (dense) {
      const lens = seg.lens, dead = this.baseDead, n = seg.nDocs;
      for (let slot = 0; slot < n; slot++) {
        let tf = dense[slot];
        if (tf === 0 || dead[slot] !== 0) continue;
        if (tf === 255) tf = seg.largeTf(q.tid, slot);
        if (acc[slot] === 0) touched[nTouched++] = slot;
        const score = (acc[slot] += (w * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * lens[slot]) / avgLen)));
        if (score > hmin) hmin = this.offerTheta(slot, score);
      }
    } else if (q.tid < seg.nTerms && seg.df[q.tid] > 0) {
      const lens = seg.lens, dead = this.baseDead, slots = this.blockSlots, tfs = this.blockTfs;
      for (let blk = seg.blockStart[q.tid], end = seg.blockStart[q.tid + 1]; blk < end; blk++) {
        const n = seg.decodeBlock(q.tid, blk, slots, tfs);
        for (let i = 0; i < n; i++) {
          const slot = slots[i], tf = tfs[i];
          if (dead[slot] !== 0) continue;
          if (acc[slot] === 0) touched[nTouched++] = slot;
          const score = (acc[slot] += (w * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * lens[slot]) / avgLen)));
          if (score > hmin) hmin = this.offerTheta(slot, score);
        }
      }
    }
    const mt = this.mutTermOf.get(q.tid);
    if (mt !== undefined) {
      const nBase = seg.nDocs, next = this.poolNext, docs = this.poolDoc, tfs = this.poolTf, mutLen = this.mutLen;
      for (let e = this.mtHead[mt]; e >= 0; e = next[e]) {
        const m = docs[e];
        const len = mutLen[m];
        if (len < 0) continue;
        const s = nBase + m;
        const tf = tfs[e];
        if (acc[s] === 0) touched[nTouched++] = s;
        const score = (acc[s] += (w * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * len) / avgLen)));
        if (score > hmin) hmin = this.offerTheta(s, score);
      }
    }
    return nTouched;
  }

  /** Adds the term's contribution to the (ascending, live) candidates only. */
  private scoreCandidates(q: QueryTerm, avgLen: number, cands: Int32Array, nc: number): void {
    const acc = this.acc, k1 = this.k1, b = this.b, w = q.weight;
    const seg = this.base, nBase = seg.nDocs;
    let hmin = this.heapMin;
    const t = q.tid;
    const dense = seg.dense.size !== 0 ? seg.dense.get(t) : undefined;
    if (dense) {
      const lens = seg.lens;
      for (let j = 0; j < nc; j++) {
        const c = cands[j];
        if (c >= nBase) break;
        let tf = dense[c];
        if (tf === 0) continue;
        if (tf === 255) tf = seg.largeTf(t, c);
        const score = (acc[c] += (w * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * lens[c]) / avgLen)));
        if (score > hmin) hmin = this.offerTheta(c, score);
      }
    } else if (t < seg.nTerms && seg.df[t] > 0 && nc * STREAM_RATIO >= seg.df[t]) {
      // Candidates are dense in this list: one sequential pass, testing the candidate mark, is
      // cheaper than finding each candidate's block.
      const lens = seg.lens, mark = this.mark, slots = this.blockSlots, tfs = this.blockTfs;
      for (let blk = seg.blockStart[t], end = seg.blockStart[t + 1]; blk < end; blk++) {
        const n = seg.decodeBlock(t, blk, slots, tfs);
        for (let i = 0; i < n; i++) {
          const slot = slots[i];
          if ((mark[slot] & 4) === 0) continue;
          const tf = tfs[i];
          const score = (acc[slot] += (w * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * lens[slot]) / avgLen)));
          if (score > hmin) hmin = this.offerTheta(slot, score);
        }
      }
    } else if (t < seg.nTerms && seg.df[t] > 0) {
      const blockLast = seg.blockLast, lens = seg.lens;
      const slots = this.blockSlots, tfs = this.blockTfs;
      let blk = seg.blockStart[t];
      const end = seg.blockStart[t + 1];
      let decoded = -1, p = 0;
      for (let j = 0; j < nc; j++) {
        const c = cands[j];
        if (c >= nBase) break;
        while (blk < end && blockLast[blk] < c) blk++;
        if (blk === end) break;
        if (blk !== decoded) {
          seg.decodeBlock(t, blk, slots, tfs);
          decoded = blk;
          p = 0;
        }
        while (slots[p] < c) p++;
        if (slots[p] === c) {
          const tf = tfs[p];
          const score = (acc[c] += (w * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * lens[c]) / avgLen)));
          if (score > hmin) hmin = this.offerTheta(c, score);
        }
      }
    }
    const mt = this.mutTermOf.get(t);
    if (mt !== undefined) {
      const mark = this.mark, next = this.poolNext, docs = this.poolDoc, tfs = this.poolTf;
      for (let e = this.mtHead[mt]; e >= 0; e = next[e]) {
        const m = docs[e];
        const s = nBase + m;
        if ((mark[s] & 4) === 0) continue;
        const tf = tfs[e];
        const score = (acc[s] += (w * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * this.mutLen[m]) / avgLen)));
        if (score > hmin) hmin = this.offerTheta(s, score);
      }
    }
  }

  /**
   * Merges the mutable documents into a new packed base without dead documents, dropping terms
   * no live document uses. Slots follow ascending id.
   */
  compact(): void {
    if (this.mutIds.length === 0 && this.deadLog.length === 0) return;
    const base = this.base, nBase = base.nDocs;
    const liveMut: number[] = [];
    for (let m = 0; m < this.mutIds.length; m++) if (this.mutLen[m] >= 0) liveMut.push(m);
    liveMut.sort((x, y) => this.mutIds[x] - this.mutIds[y]);
    const nLive = this.liveDocs;
    const ids = new Int32Array(nLive), lens = new Uint32Array(nLive);
    const baseMap = new Int32Array(nBase).fill(-1);
    const mutMap = new Int32Array(this.mutIds.length).fill(-1);
    let s = 0, bi = 0, mi = 0;
    while (bi < nBase || mi < liveMut.length) {
      if (bi < nBase && this.baseDead[bi]) { bi++; continue; }
      if (mi >= liveMut.length || (bi < nBase && base.ids[bi] < this.mutIds[liveMut[mi]])) {
        ids[s] = base.ids[bi]; lens[s] = base.lens[bi]; baseMap[bi] = s; bi++;
      } else {
        const m = liveMut[mi++];
        ids[s] = this.mutIds[m]; lens[s] = this.mutLen[m]; mutMap[m] = s;
      }
      s++;
    }
    if (s !== nLive) throw new Error(`lexical index inconsistent: ${s} live slots, expected ${nLive}`);

    const writer = new SegmentWriter(lens);
    const nTerms = this.dict.size;
    const keep = new Int32Array(nTerms);
    let nKeep = 0;
    let baseSlots = new Int32Array(1024), baseTfs = new Uint16Array(1024);
    let mutKeys = new Float64Array(1024);
    const slots = this.blockSlots, tfs = this.blockTfs;
    for (let t = 0; t < nTerms; t++) {
      let na = 0;
      if (t < base.nTerms && base.df[t] > 0) {
        if (base.df[t] > baseSlots.length) {
          baseSlots = new Int32Array(base.df[t] * 2);
          baseTfs = new Uint16Array(base.df[t] * 2);
        }
        for (let blk = base.blockStart[t]; blk < base.blockStart[t + 1]; blk++) {
          const n = base.decodeBlock(t, blk, slots, tfs);
          for (let j = 0; j < n; j++) {
            const ns = baseMap[slots[j]];
            if (ns < 0) continue;
            baseSlots[na] = ns;
            baseTfs[na++] = tfs[j];
          }
        }
      }
      let nm = 0;
      const mt = this.mutTermOf.get(t);
      if (mt !== undefined) {
        for (let e = this.mtHead[mt]; e >= 0; e = this.poolNext[e]) {
          const ns = mutMap[this.poolDoc[e]];
          if (ns < 0) continue;
          if (nm === mutKeys.length) {
            const next = new Float64Array(nm * 2);
            next.set(mutKeys);
            mutKeys = next;
          }
          mutKeys[nm++] = ns * 65536 + this.poolTf[e];
        }
        if (nm > 1) mutKeys.subarray(0, nm).sort();
      }
      if (na + nm === 0) continue;
      writer.beginTerm(na + nm);
      let a = 0, c = 0;
      while (a < na || c < nm) {
        let slot: number, tf: number;
        if (c >= nm || (a < na && baseSlots[a] * 65536 < mutKeys[c])) {
          slot = baseSlots[a];
          tf = baseTfs[a++];
        } else {
          const key = mutKeys[c++];
          slot = Math.floor(key / 65536);
          tf = key - slot * 65536;
        }
        writer.push(slot, tf);
      }
      writer.endTerm();
      keep[nKeep++] = t;
    }
    if (nKeep !== nTerms) this.dict = this.dict.subset(keep, nKeep);
    this.base = writer.finish(ids);
    base.close(); // the merged base is in memory until the next save
    this.resetMutable();
  }

  /** After a merge or load: empty mutable part, no dead slots, vocabulary = base terms. */
  private resetMutable(): void {
    this.baseDead = new Uint8Array(this.base.nDocs);
    this.deadLog = [];
    this.deadCounts = new Map();
    this.mutIds = [];
    this.mutLen = [];
    this.mutStart = [0];
    this.mutSlotById.clear();
    this.poolMt = new Int32Array(1024);
    this.poolTf = new Uint16Array(1024);
    this.poolNext = new Int32Array(1024);
    this.poolDoc = new Int32Array(1024);
    this.poolLength = 0;
    this.mutTermOf = new Map();
    this.mtHead = new Int32Array(256);
    this.mtTail = new Int32Array(256);
    this.mtDf = new Int32Array(256);
    this.mtMaxTf = new Uint16Array(256);
    this.mtMinLen = new Uint32Array(256);
    this.mtCount = 0;
    // Scratch is sized to the slot count; drop it if the index shrank a lot.
    if (this.acc.length > 2 * Math.max(1024, this.base.nDocs)) {
      this.acc = new Float64Array(0);
    }
  }

  /** Binary form (bm25Format.ts); merges first so the file holds one packed segment. */
  serialize(): Buffer {
    this.compact();
    return writeBm25(this.k1, this.b, this.dict, this.base);
  }

  /**
   * Writes the binary form to `file` atomically (temp file, fsync, rename), streaming postings
   * that are read from a file rather than loading them; from then on the postings are read
   * from the new `file` (the previous one is closed). Returns the written file's digest.
   */
  save(file: string): FileDigest {
    this.compact();
    const out = bm25File(this.k1, this.b, this.dict, this.base);
    const digest = writePartsAtomic(file, out.parts());
    const fd = fs.openSync(file, 'r');
    let source: FileBytes;
    try {
      const size = fs.fstatSync(fd).size;
      if (digest.bytes !== out.length || size !== out.length) throw new Error(`${file} holds ${size} bytes after saving ${out.length}`);
      source = new FileBytes(fd, file, out.postingsOffset, out.postingsLength);
    } catch (err) {
      fs.closeSync(fd);
      throw err;
    }
    const old = this.base;
    this.base = old.withSource(source, out.blockByte);
    // On Linux and macOS the old file stays readable through its descriptor after the rename; it
    // is closed only now that reads go to the new one (another process may still read it).
    old.close();
    return digest;
  }

  /** Whether the packed postings are read from a file (rather than held in memory). */
  get onDisk(): boolean {
    return this.base.onDisk;
  }

  /** Releases the index file (also done when the index is garbage collected); searches fail afterwards if it was disk-backed. */
  close(): void {
    this.base.close();
  }

  /**
   * Inverse of serialize(); throws a descriptive Error on a foreign, old, truncated or corrupt
   * buffer. With `file` (the open file `buf` is the whole content of), the index does not keep
   * the postings but reads them from `file.fd`, which it owns once this returns (the caller
   * closes it if this throws). `opts`: knobs that are not saved with the index.
   */
  static deserialize(buf: Buffer, file?: { fd: number; path: string }, opts: Pick<Bm25Options, 'maxQueryPostings' | 'mergeMinDocs'> = {}): Bm25Index {
    const { k1, b, dict, segment } = readBm25(buf, file);
    const idx = new Bm25Index({ ...opts, k1, b });
    idx.base = segment;
    idx.dict = dict;
    idx.resetMutable();
    idx.liveDocs = segment.nDocs;
    let total = 0;
    for (let s = 0; s < segment.nDocs; s++) total += segment.lens[s];
    idx.totalLen = total;
    return idx;
  }
}

/** The k best (highest score, then lowest id) of a stream of scored ids. */
export class TopK {
  private readonly ids: number[] = [];
  private readonly scores: number[] = [];

  constructor(private readonly k: number) {}

  /** Whether (a) ranks below (b): lower score, or equal score and higher id. */
  private worse(a: number, b: number): boolean {
    const sa = this.scores[a], sb = this.scores[b];
    return sa < sb || (sa === sb && this.ids[a] > this.ids[b]);
  }

  private swap(a: number, b: number): void {
    [this.ids[a], this.ids[b]] = [this.ids[b], this.ids[a]];
    [this.scores[a], this.scores[b]] = [this.scores[b], this.scores[a]];
  }

  offer(id: number, score: number): void {
    if (this.k <= 0) return;
    if (this.ids.length < this.k) {
      this.ids.push(id);
      this.scores.push(score);
      let i = this.ids.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.worse(i, p)) break;
        this.swap(i, p);
        i = p;
      }
      return;
    }
    // The root is the worst kept entry; replace it only with something better.
    if (score < this.scores[0] || (score === this.scores[0] && id > this.ids[0])) return;
    this.ids[0] = id;
    this.scores[0] = score;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i;
      if (l < this.ids.length && this.worse(l, m)) m = l;
      if (r < this.ids.length && this.worse(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }

  /** Best first. */
  sorted(): ScoredId[] {
    const out = this.ids.map((id, i) => ({ id, score: this.scores[i] }));
    out.sort((x, y) => y.score - x.score || x.id - y.id);
    return out;
  }
}
