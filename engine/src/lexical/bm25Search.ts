// Search over a BM25 index's read-only views (its base segment, mutable segment, dictionary and
// live statistics), with query scratch sized to the slot count and reused between searches.
//
// Term-at-a-time in decreasing idf order with MaxScore pruning: once the k-th best partial score
// exceeds the most any untouched document could still gain, the remaining (frequent, long) terms
// only update the surviving candidates (through the block table, a dense term's bytes, or one
// streaming pass when candidates are dense in the list). The k-th best partial score is kept up to
// date by a small heap while scoring. Pruning only drops documents that provably cannot reach the
// top k, so results equal exhaustive scoring.
import { MAX_SLOTS } from './postingCodec';
import { BLOCK } from './packedPostings';
import { TopK, type ScoredId } from '../util/topK';
import type { Bm25View } from './bm25Stats';
import { planQuery, type QueryTerm } from './bm25Query';

/** Candidate-only scoring decodes a whole list when it holds fewer than this many postings per candidate. */
const STREAM_RATIO = 16;
/** Relative slack on score bounds, far above floating-point summation error. */
const BOUND_SLACK = 1e-9;

export class Bm25Searcher {
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
  private readonly blockSlots = new Int32Array(BLOCK);
  private readonly blockTfs = new Uint16Array(BLOCK);
  /** The index being searched, during a search. */
  private view: Bm25View | undefined;

  /**
   * Scores every document against the query terms (repeats in the query weigh the term more,
   * as in Okapi BM25 over a token list) and returns the best `k`, optionally filtered; ties go
   * to the lower id.
   */
  search(view: Bm25View, queryTerms: Iterable<string>, k: number, accept?: (id: number) => boolean): ScoredId[] {
    if (k <= 0) return [];
    const plan = planQuery(view, queryTerms);
    if (!plan) return [];
    this.view = view;
    try {
      return this.run(plan.query, plan.rest, k, plan.avgLen, accept);
    } catch (err) {
      // A failed postings read (the index file truncated under us) leaves partial scores in the
      // scratch: clear all of it so the next search starts clean, and let the caller see the error.
      this.acc.fill(0);
      this.mark.fill(0);
      throw err;
    } finally {
      this.acceptFn = undefined;
      this.view = undefined;
    }
  }

  /** Scores `query` (rarest first; `rest[i]` bounds what terms i.. can add) into the top k. */
  private run(query: QueryTerm[], rest: Float64Array, k: number, avgLen: number, accept?: (id: number) => boolean): ScoredId[] {
    const { base, mut } = this.viewed();
    const nSlots = base.packed.nDocs + mut.slots;
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
    const { base, mut } = this.viewed();
    const nBase = base.packed.nDocs;
    return s < nBase ? base.packed.ids[s] : mut.ids[s - nBase];
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
    const { k1, b, base, mut } = this.viewed();
    const acc = this.acc, touched = this.touched, w = q.weight;
    let hmin = this.heapMin;
    const seg = base.packed;
    const dense = seg.dense.size !== 0 ? seg.dense.get(q.tid) : undefined;
    if (dense) {
      const lens = seg.lens, dead = base.dead, n = seg.nDocs;
      for (let slot = 0; slot < n; slot++) {
        let tf = dense[slot];
        if (tf === 0 || dead[slot] !== 0) continue;
        if (tf === 255) tf = seg.largeTf(q.tid, slot);
        if (acc[slot] === 0) touched[nTouched++] = slot;
        const score = (acc[slot] += (w * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * lens[slot]) / avgLen)));
        if (score > hmin) hmin = this.offerTheta(slot, score);
      }
    } else if (q.tid < seg.nTerms && seg.df[q.tid] > 0) {
      const lens = seg.lens, dead = base.dead, slots = this.blockSlots, tfs = this.blockTfs;
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
    const mt = mut.termOf.get(q.tid);
    if (mt !== undefined) {
      const nBase = seg.nDocs, next = mut.poolNext, docs = mut.poolDoc, tfs = mut.poolTf, mutLen = mut.lens;
      for (let e = mut.head[mt]; e >= 0; e = next[e]) {
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
    const { k1, b, base, mut } = this.viewed();
    const acc = this.acc, w = q.weight;
    const seg = base.packed, nBase = seg.nDocs;
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
    const mt = mut.termOf.get(t);
    if (mt !== undefined) {
      const mark = this.mark, next = mut.poolNext, docs = mut.poolDoc, tfs = mut.poolTf, mutLen = mut.lens;
      for (let e = mut.head[mt]; e >= 0; e = next[e]) {
        const m = docs[e];
        const s = nBase + m;
        if ((mark[s] & 4) === 0) continue;
        const tf = tfs[e];
        const score = (acc[s] += (w * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * mutLen[m]) / avgLen)));
        if (score > hmin) hmin = this.offerTheta(s, score);
      }
    }
  }

  /** Drops the scratch if the index shrank well below it (after a merge or load). */
  shrinkTo(nSlots: number): void {
    if (this.acc.length > 2 * Math.max(1024, nSlots)) this.acc = new Float64Array(0);
  }

  private viewed(): Bm25View {
    if (!this.view) throw new Error('lexical search: no index in view');
    return this.view;
  }
}
