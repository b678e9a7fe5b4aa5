// Okapi BM25 over an incrementally updated set of documents, compact at 100k-file scale.
//
// Layout: an immutable packed base segment (packedPostings.ts: delta-varint postings in one byte
// array, ids and lengths in typed arrays) + a small mutable segment for documents added since the
// last merge + a dead mark per base slot. Statistics (N, df, avgdl) count live documents only, so
// scores equal a fresh build over the same documents: df of a base term is its packed df minus the
// dead base documents that contain it, counted lazily per queried term from a log of deletions.
// The mutable part is merged into a new base once it (plus the dead base slots) passes a fraction
// of the base, on compact(), and before serialization.
//
// Search is term-at-a-time in decreasing idf order with MaxScore pruning: once the k-th best
// partial score exceeds the most any untouched document could still gain, the remaining (frequent,
// long) terms only update the surviving candidates, jumping through the block table. Pruning only
// drops documents that provably cannot reach the top k, so results equal exhaustive scoring.
import { PackedSegment, PostingsWriter, BLOCK, MAX_SLOTS } from './packedPostings';
import { readBm25, writeBm25 } from './bm25Format';

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
/** Relative slack on score bounds, far above floating-point summation error. */
const BOUND_SLACK = 1e-9;

interface MutablePostings {
  /** Mutable-local slots (insertion order) and their tfs. */
  slots: number[];
  tfs: number[];
  maxTf: number;
  minLen: number;
}

interface QueryTerm {
  tid: number;
  term: string;
  /** idf × query tf. */
  weight: number;
  /** Most this term can add to any document's score. */
  bound: number;
  df: number;
}

export class Bm25Index {
  readonly k1: number;
  readonly b: number;
  private readonly mergeMinDocs: number;
  private vocab = new Map<string, number>();
  private terms: string[] = [];

  private base = PackedSegment.empty();
  /** 1 where the base slot's document was removed. */
  private baseDead = new Uint8Array(0);
  /** Base slots removed since the last merge, in removal order. */
  private deadLog: number[] = [];
  /** Per base term: dead base documents containing it, counted over deadLog[0, deadSeen). */
  private deadCount = new Int32Array(0);
  private deadSeen = new Int32Array(0);

  private mutIds: number[] = [];
  private mutLen: number[] = [];
  /** Per mutable slot: term ids and tfs (null once removed), kept to undo df on removal. */
  private mutTids: (Uint32Array | null)[] = [];
  private mutTfs: (Uint16Array | null)[] = [];
  private readonly mutSlotById = new Map<number, number>();
  private mutPostings = new Map<number, MutablePostings>();
  /** Live mutable documents containing each term. */
  private dfMut = new Int32Array(64);

  private liveDocs = 0;
  private totalLen = 0;

  // Query scratch, sized to the slot count and reused (cleared after each search).
  private acc = new Float64Array(0);
  private touched = new Int32Array(0);
  private mark = new Uint8Array(0);
  private values = new Float64Array(0);
  private blockSlots = new Int32Array(BLOCK);
  private blockTfs = new Uint16Array(BLOCK);

  constructor(opts: Bm25Options = {}) {
    this.k1 = opts.k1 ?? 1.2;
    this.b = opts.b ?? 0.75;
    this.mergeMinDocs = opts.mergeMinDocs ?? DEFAULT_MERGE_MIN;
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
    const counts = new Map<number, number>();
    let len = 0;
    for (const t of terms) {
      let tid = this.vocab.get(t);
      if (tid === undefined) {
        tid = this.terms.length;
        this.vocab.set(t, tid);
        this.terms.push(t);
      }
      counts.set(tid, (counts.get(tid) ?? 0) + 1);
      len++;
    }
    if (this.terms.length > this.dfMut.length) {
      const grown = new Int32Array(Math.max(this.terms.length, this.dfMut.length * 2));
      grown.set(this.dfMut);
      this.dfMut = grown;
    }
    const m = this.mutIds.length;
    const tids = new Uint32Array(counts.size);
    const tfs = new Uint16Array(counts.size);
    let i = 0;
    for (const [tid, count] of counts) {
      const tf = Math.min(count, 65535);
      tids[i] = tid;
      tfs[i] = tf;
      i++;
      let p = this.mutPostings.get(tid);
      if (!p) {
        p = { slots: [], tfs: [], maxTf: 0, minLen: len };
        this.mutPostings.set(tid, p);
      }
      p.slots.push(m);
      p.tfs.push(tf);
      if (tf > p.maxTf) p.maxTf = tf;
      if (len < p.minLen) p.minLen = len;
      this.dfMut[tid]++;
    }
    this.mutIds.push(id);
    this.mutLen.push(len);
    this.mutTids.push(tids);
    this.mutTfs.push(tfs);
    this.mutSlotById.set(id, m);
    this.liveDocs++;
    this.totalLen += len;
    this.maybeMerge();
  }

  remove(id: number): boolean {
    const m = this.mutSlotById.get(id);
    if (m !== undefined) {
      this.mutSlotById.delete(id);
      const tids = this.mutTids[m]!;
      for (let i = 0; i < tids.length; i++) this.dfMut[tids[i]]--;
      this.mutTids[m] = null;
      this.mutTfs[m] = null;
      this.liveDocs--;
      this.totalLen -= this.mutLen[m];
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
    let df = tid < this.dfMut.length ? this.dfMut[tid] : 0;
    if (tid < this.base.nTerms) df += this.base.df[tid] - this.deadInBase(tid);
    return df;
  }

  /** Dead base documents containing `tid`, brought up to date with the deletion log. */
  private deadInBase(tid: number): number {
    const log = this.deadLog;
    if (log.length === 0) return 0;
    if (this.deadSeen.length !== this.base.nTerms) {
      this.deadSeen = new Int32Array(this.base.nTerms);
      this.deadCount = new Int32Array(this.base.nTerms);
    }
    let seen = this.deadSeen[tid];
    if (seen === log.length) return this.deadCount[tid];
    const df = this.base.df[tid];
    let count = this.deadCount[tid];
    if ((log.length - seen) * BLOCK > 4 * df) {
      // Many new deletions against a short list: recount by one pass over the list.
      count = 0;
      const first = this.base.blockStart[tid], last = this.base.blockStart[tid + 1];
      for (let blk = first; blk < last; blk++) {
        const n = this.base.decodeBlock(tid, blk, this.blockSlots, this.blockTfs);
        for (let i = 0; i < n; i++) count += this.baseDead[this.blockSlots[i]];
      }
    } else {
      for (; seen < log.length; seen++) if (this.base.contains(tid, log[seen], this.blockSlots, this.blockTfs)) count++;
    }
    this.deadSeen[tid] = log.length;
    this.deadCount[tid] = count;
    return count;
  }

  idf(term: string): number {
    const tid = this.vocab.get(term);
    const df = tid === undefined ? 0 : this.liveDf(tid);
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
      const tid = this.vocab.get(t);
      if (tid !== undefined) qCounts.set(tid, (qCounts.get(tid) ?? 0) + 1);
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
      const mp = this.mutPostings.get(tid);
      if (mp) {
        maxTf = Math.max(maxTf, mp.maxTf);
        minLen = Math.min(minLen, mp.minLen);
      }
      const bound = (weight * maxTf * (k1 + 1)) / (maxTf + k1 * (1 - b + (b * minLen) / avgLen));
      query.push({ tid, term: this.terms[tid], weight, bound, df });
    }
    if (query.length === 0) return [];
    // Rare terms first. The order depends only on live statistics and the terms themselves, so an
    // incrementally updated index sums each score in the same order as a fresh build.
    query.sort((x, y) => y.weight - x.weight || (x.term < y.term ? -1 : x.term > y.term ? 1 : 0));
    const rest = new Float64Array(query.length + 1);
    for (let i = query.length - 1; i >= 0; i--) rest[i] = rest[i + 1] + query[i].bound;

    const nSlots = this.base.nDocs + this.mutIds.length;
    this.ensureScratch(nSlots);
    const acc = this.acc, mark = this.mark;
    // mark: bit 1 = accept() known true, bit 2 = known false, bit 4 = candidate.
    const accepted = (s: number): boolean => {
      if (!accept) return true;
      const m = mark[s];
      if (m & 1) return true;
      if (m & 2) return false;
      const ok = accept(this.slotId(s));
      mark[s] = m | (ok ? 1 : 2);
      return ok;
    };

    let nTouched = 0;
    let theta = 0;
    let i = 0;
    let scoredSinceCheck = 0;
    for (; i < query.length; i++) {
      if (i > 0 && nTouched >= k && scoredSinceCheck >= nTouched / 2) {
        scoredSinceCheck = 0;
        theta = this.kthBest(this.touched, nTouched, k, accepted);
        if (theta > 0 && rest[i] * (1 + BOUND_SLACK) < theta) break;
      }
      const before = nTouched;
      nTouched = this.scoreAll(query[i], avgLen, nTouched);
      scoredSinceCheck += query[i].df + (nTouched - before);
    }

    const top = new TopK(k);
    if (i === query.length) {
      for (let j = 0; j < nTouched; j++) {
        const s = this.touched[j];
        if (accepted(s)) top.offer(this.slotId(s), acc[s]);
      }
    } else {
      // Candidates: touched, accepted, and able to reach theta with what the rest can add.
      let cands = new Int32Array(nTouched);
      let nc = 0;
      for (let j = 0; j < nTouched; j++) {
        const s = this.touched[j];
        if (accepted(s) && (acc[s] + rest[i]) * (1 + BOUND_SLACK) >= theta) cands[nc++] = s;
      }
      cands = cands.subarray(0, nc).sort();
      for (let j = 0; j < nc; j++) mark[cands[j]] |= 4;
      for (; i < query.length; i++) {
        this.scoreCandidates(query[i], avgLen, cands, nc);
        if (nc > k && i + 1 < query.length) {
          theta = this.kthBest(cands, nc, k, accepted);
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
    const cap = Math.max(nSlots, Math.min(MAX_SLOTS, this.acc.length * 2));
    this.acc = new Float64Array(cap);
    this.touched = new Int32Array(cap);
    this.mark = new Uint8Array(cap);
    this.values = new Float64Array(cap);
  }

  /** The k-th best accumulated score among `slots` that pass the filter (0 if fewer than k). */
  private kthBest(slots: Int32Array, n: number, k: number, accepted: (s: number) => boolean): number {
    const vals = this.values;
    let m = 0;
    for (let j = 0; j < n; j++) {
      const s = slots[j];
      if (accepted(s)) vals[m++] = this.acc[s];
    }
    if (m < k) return 0;
    return quickSelectDescending(vals, m, k - 1);
  }

  /** Adds the term's contribution to every live document containing it; returns the new touched count. */
  private scoreAll(q: QueryTerm, avgLen: number, nTouched: number): number {
    const acc = this.acc, touched = this.touched, k1 = this.k1, b = this.b, w = q.weight;
    const seg = this.base;
    if (q.tid < seg.nTerms && seg.df[q.tid] > 0) {
      const bytes = seg.bytes, lens = seg.lens, dead = this.baseDead;
      let p = seg.blockByte[seg.blockStart[q.tid]];
      let slot = -1;
      for (let n = seg.df[q.tid]; n > 0; n--) {
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
        slot += v >>> 1;
        if (dead[slot] !== 0) continue;
        if (acc[slot] === 0) touched[nTouched++] = slot;
        acc[slot] += (w * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * lens[slot]) / avgLen));
      }
    }
    const mp = this.mutPostings.get(q.tid);
    if (mp) {
      const nBase = seg.nDocs;
      for (let j = 0; j < mp.slots.length; j++) {
        const m = mp.slots[j];
        if (this.mutTids[m] === null) continue;
        const s = nBase + m;
        const tf = mp.tfs[j];
        if (acc[s] === 0) touched[nTouched++] = s;
        acc[s] += (w * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * this.mutLen[m]) / avgLen));
      }
    }
    return nTouched;
  }

  /** Adds the term's contribution to the (ascending, live) candidates only. */
  private scoreCandidates(q: QueryTerm, avgLen: number, cands: Int32Array, nc: number): void {
    const acc = this.acc, k1 = this.k1, b = this.b, w = q.weight;
    const seg = this.base, nBase = seg.nDocs;
    const t = q.tid;
    if (t < seg.nTerms && seg.df[t] > 0) {
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
          acc[c] += (w * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * lens[c]) / avgLen));
        }
      }
    }
    const mp = this.mutPostings.get(t);
    if (mp) {
      const mark = this.mark;
      for (let j = 0; j < mp.slots.length; j++) {
        const m = mp.slots[j];
        const s = nBase + m;
        if ((mark[s] & 4) === 0) continue;
        const tf = mp.tfs[j];
        acc[s] += (w * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * this.mutLen[m]) / avgLen));
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
    for (let m = 0; m < this.mutIds.length; m++) if (this.mutTids[m] !== null) liveMut.push(m);
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

    const writer = new PostingsWriter();
    const newTerms: string[] = [];
    const newDf: number[] = [];
    let baseSlots = new Int32Array(1024), baseTfs = new Uint16Array(1024);
    let mutKeys = new Float64Array(1024);
    const slots = this.blockSlots, tfs = this.blockTfs;
    for (let t = 0; t < this.terms.length; t++) {
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
      const mp = this.mutPostings.get(t);
      if (mp) {
        if (mp.slots.length > mutKeys.length) mutKeys = new Float64Array(mp.slots.length * 2);
        for (let j = 0; j < mp.slots.length; j++) {
          const ns = mutMap[mp.slots[j]];
          if (ns >= 0) mutKeys[nm++] = ns * 65536 + mp.tfs[j];
        }
        if (nm > 1) mutKeys.subarray(0, nm).sort();
      }
      if (na + nm === 0) continue;
      writer.reserve(na + nm);
      let prev = -1, a = 0, c = 0;
      while (a < na || c < nm) {
        let slot: number, tf: number;
        if (c >= nm || (a < na && baseSlots[a] < mutKeys[c] / 65536)) {
          slot = baseSlots[a]; tf = baseTfs[a++];
        } else {
          const key = mutKeys[c++];
          slot = Math.floor(key / 65536); tf = key - slot * 65536;
        }
        writer.push(slot - prev, tf);
        prev = slot;
      }
      newTerms.push(this.terms[t]);
      newDf.push(na + nm);
    }
    const dropped = newTerms.length !== this.terms.length;
    this.base = PackedSegment.fromPostings(ids, lens, Int32Array.from(newDf), writer.finish());
    this.resetMutable(newTerms, dropped);
  }

  /** After a merge or load: empty mutable part, no dead slots, vocabulary = base terms. */
  private resetMutable(terms: string[], rebuildVocab: boolean): void {
    this.terms = terms;
    if (rebuildVocab) {
      this.vocab = new Map();
      for (let t = 0; t < terms.length; t++) this.vocab.set(terms[t], t);
    }
    this.baseDead = new Uint8Array(this.base.nDocs);
    this.deadLog = [];
    this.deadCount = new Int32Array(0);
    this.deadSeen = new Int32Array(0);
    this.mutIds = [];
    this.mutLen = [];
    this.mutTids = [];
    this.mutTfs = [];
    this.mutSlotById.clear();
    this.mutPostings = new Map();
    this.dfMut = new Int32Array(Math.max(64, terms.length));
    // Scratch is sized to the slot count; drop it if the index shrank a lot.
    if (this.acc.length > 2 * Math.max(1024, this.base.nDocs)) this.acc = new Float64Array(0);
  }

  /** Binary form (bm25Format.ts); merges first so the file holds one packed segment. */
  serialize(): Buffer {
    this.compact();
    return writeBm25(this.k1, this.b, this.terms, this.base);
  }

  /** Inverse of serialize(); throws a descriptive Error on a foreign, old, truncated or corrupt buffer. */
  static deserialize(buf: Buffer): Bm25Index {
    const { k1, b, terms, segment } = readBm25(buf);
    const idx = new Bm25Index({ k1, b });
    idx.base = segment;
    idx.resetMutable(terms, true);
    if (idx.vocab.size !== terms.length) throw new Error('lexical index corrupt: duplicate terms in vocabulary');
    idx.liveDocs = segment.nDocs;
    let total = 0;
    for (let s = 0; s < segment.nDocs; s++) total += segment.lens[s];
    idx.totalLen = total;
    return idx;
  }
}

/** The value of rank `r` (0 = largest) among vals[0, n); reorders vals. */
function quickSelectDescending(vals: Float64Array, n: number, r: number): number {
  let lo = 0, hi = n - 1;
  while (lo < hi) {
    const pivot = vals[(lo + hi) >>> 1];
    let i = lo, j = hi;
    while (i <= j) {
      while (vals[i] > pivot) i++;
      while (vals[j] < pivot) j--;
      if (i <= j) {
        const t = vals[i]; vals[i] = vals[j]; vals[j] = t;
        i++; j--;
      }
    }
    if (r <= j) hi = j;
    else if (r >= i) lo = i;
    else return vals[r];
  }
  return vals[r];
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
