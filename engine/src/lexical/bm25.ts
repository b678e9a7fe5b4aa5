// Okapi BM25 over an incrementally updated set of documents, compact at 100k-file scale.
//
// Layout, deletions and statistics: bm25Segments.ts; merging and saving: bm25Merge.ts.
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
import { MAX_SLOTS } from './postingCodec';
import { readBm25 } from './bm25Format';
import { TopK, type ScoredId } from '../util/topK';
import { Bm25Deltas } from './bm25Delta';
import { bm25Idf, type Bm25Options } from './bm25Segments';

export type { Bm25Options, ScoredId };
export { BM25_FORMAT_VERSION } from './bm25Format';

/** Candidate-only scoring decodes a whole list when it holds fewer than this many postings per candidate. */
const STREAM_RATIO = 16;
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

export class Bm25Index extends Bm25Deltas {
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
      const weight = bm25Idf(this.liveDocs, df) * qtf;
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

  /** Whether a live document holds `term`. */
  holds(term: string): boolean {
    const tid = this.dict.get(term);
    return tid >= 0 && this.liveDf(tid) > 0;
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
