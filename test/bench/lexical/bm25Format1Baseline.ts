// Frozen copy of engine/src/lexical/bm25.ts as it was on main before the packed format 2
// (`git show main:engine/src/lexical/bm25.ts`), kept only as the baseline of
// test/bench/lexicalScale.ts. Do not use it in the engine.
// Okapi BM25 over an incrementally updated set of documents.
// Postings are rebuilt from the per-document term lists on load, so the serialized form holds each
// (term, tf) once; removal marks a slot dead and compaction drops dead slots when they pile up.

export interface Bm25Options {
  /** Term-frequency saturation (Okapi k1). */
  k1?: number;
  /** Length normalisation strength (Okapi b). */
  b?: number;
}

// The heap of the k best is the engine's own (not part of the format).
import { TopK, type ScoredId } from '../../../engine/src/util/topK';
export { TopK, type ScoredId };

const FORMAT_MAGIC = 0x4d425252; // "RRBM"
/** Bump when the binary layout below changes; older files are rejected and rebuilt. */
export const BM25_FORMAT_VERSION = 1;
/** Compact when this fraction of slots is dead. */
const COMPACT_DEAD_FRACTION = 0.25;

interface Posting {
  slots: number[];
  tfs: number[];
}

export class Bm25Index {
  readonly k1: number;
  readonly b: number;
  private readonly vocab = new Map<string, number>();
  private readonly terms: string[] = [];
  private postings: Posting[] = [];
  private df: number[] = [];
  /** Per slot: external id, length, term ids and tfs (kept for removal and serialization). */
  private slotIds: number[] = [];
  private slotLen: number[] = [];
  private slotTerms: (Uint32Array | null)[] = [];
  private slotTfs: (Uint16Array | null)[] = [];
  private readonly idToSlot = new Map<number, number>();
  private liveDocs = 0;
  private totalLen = 0;
  private scratch = new Float64Array(0);

  constructor(opts: Bm25Options = {}) {
    this.k1 = opts.k1 ?? 1.2;
    this.b = opts.b ?? 0.75;
  }

  get size(): number {
    return this.liveDocs;
  }

  has(id: number): boolean {
    return this.idToSlot.has(id);
  }

  /** Adds (or replaces) a document given its terms (repeats count as term frequency). */
  add(id: number, terms: Iterable<string>): void {
    if (this.idToSlot.has(id)) this.remove(id);
    const counts = new Map<number, number>();
    let len = 0;
    for (const t of terms) {
      let tid = this.vocab.get(t);
      if (tid === undefined) {
        tid = this.terms.length;
        this.vocab.set(t, tid);
        this.terms.push(t);
        this.postings.push({ slots: [], tfs: [] });
        this.df.push(0);
      }
      counts.set(tid, (counts.get(tid) ?? 0) + 1);
      len++;
    }
    const tids = new Uint32Array(counts.size);
    const tfs = new Uint16Array(counts.size);
    let i = 0;
    for (const [tid, tf] of counts) {
      tids[i] = tid;
      tfs[i] = Math.min(tf, 65535);
      i++;
    }
    this.insertSlot(id, len, tids, tfs);
  }

  private insertSlot(id: number, len: number, tids: Uint32Array, tfs: Uint16Array): void {
    const slot = this.slotIds.length;
    this.slotIds.push(id);
    this.slotLen.push(len);
    this.slotTerms.push(tids);
    this.slotTfs.push(tfs);
    this.idToSlot.set(id, slot);
    for (let i = 0; i < tids.length; i++) {
      const p = this.postings[tids[i]];
      p.slots.push(slot);
      p.tfs.push(tfs[i]);
      this.df[tids[i]]++;
    }
    this.liveDocs++;
    this.totalLen += len;
  }

  remove(id: number): boolean {
    const slot = this.idToSlot.get(id);
    if (slot === undefined) return false;
    this.idToSlot.delete(id);
    const tids = this.slotTerms[slot]!;
    for (let i = 0; i < tids.length; i++) this.df[tids[i]]--;
    this.liveDocs--;
    this.totalLen -= this.slotLen[slot];
    this.slotTerms[slot] = null;
    this.slotTfs[slot] = null;
    const dead = this.slotIds.length - this.liveDocs;
    if (dead > 64 && dead > COMPACT_DEAD_FRACTION * this.slotIds.length) this.compact();
    return true;
  }

  /** Rebuilds slots and postings without dead documents. */
  compact(): void {
    const ids = this.slotIds, lens = this.slotLen, terms = this.slotTerms, tfs = this.slotTfs;
    this.slotIds = [];
    this.slotLen = [];
    this.slotTerms = [];
    this.slotTfs = [];
    this.idToSlot.clear();
    this.postings = this.terms.map(() => ({ slots: [], tfs: [] }));
    this.df = this.terms.map(() => 0);
    this.liveDocs = 0;
    this.totalLen = 0;
    for (let s = 0; s < ids.length; s++) {
      const t = terms[s];
      if (t) this.insertSlot(ids[s], lens[s], t, tfs[s]!);
    }
  }

  idf(term: string): number {
    const tid = this.vocab.get(term);
    const df = tid === undefined ? 0 : this.df[tid];
    return Math.log(1 + (this.liveDocs - df + 0.5) / (df + 0.5));
  }

  /**
   * Scores every document against the query terms (repeats in the query weigh the term more,
   * as in Okapi BM25 over a token list) and returns the best `k`, optionally filtered.
   */
  search(queryTerms: Iterable<string>, k: number, accept?: (id: number) => boolean): ScoredId[] {
    const qCounts = new Map<number, number>();
    for (const t of queryTerms) {
      const tid = this.vocab.get(t);
      if (tid !== undefined && this.df[tid] > 0) qCounts.set(tid, (qCounts.get(tid) ?? 0) + 1);
    }
    if (qCounts.size === 0 || this.liveDocs === 0) return [];
    const nSlots = this.slotIds.length;
    if (this.scratch.length < nSlots) this.scratch = new Float64Array(Math.max(nSlots, this.scratch.length * 2));
    const acc = this.scratch;
    const touched: number[] = [];
    const avgLen = this.totalLen / this.liveDocs || 1;
    const k1 = this.k1, b = this.b;
    for (const [tid, qtf] of qCounts) {
      const df = this.df[tid];
      const idf = Math.log(1 + (this.liveDocs - df + 0.5) / (df + 0.5)) * qtf;
      const { slots, tfs } = this.postings[tid];
      for (let i = 0; i < slots.length; i++) {
        const s = slots[i];
        if (this.slotTerms[s] === null) continue;
        const tf = tfs[i];
        const norm = tf + k1 * (1 - b + (b * this.slotLen[s]) / avgLen);
        if (acc[s] === 0) touched.push(s);
        acc[s] += (idf * tf * (k1 + 1)) / norm;
      }
    }
    // Best k by a bounded min-heap over slots: no object per touched document, no full sort.
    const heap = new TopK(k);
    for (const s of touched) {
      const id = this.slotIds[s];
      if (!accept || accept(id)) heap.offer(id, acc[s]);
      acc[s] = 0;
    }
    return heap.sorted();
  }

  /** Binary serialization: header, vocabulary, then each live document's (term, tf) list. */
  serialize(): Buffer {
    const vocabJson = Buffer.from(JSON.stringify(this.terms), 'utf8');
    let docBytes = 0;
    for (let s = 0; s < this.slotIds.length; s++) {
      const t = this.slotTerms[s];
      if (t) docBytes += 12 + t.length * 6;
    }
    const buf = Buffer.alloc(32 + vocabJson.length + docBytes);
    let o = 0;
    buf.writeUInt32LE(FORMAT_MAGIC, o); o += 4;
    buf.writeUInt32LE(BM25_FORMAT_VERSION, o); o += 4;
    buf.writeDoubleLE(this.k1, o); o += 8;
    buf.writeDoubleLE(this.b, o); o += 8;
    buf.writeUInt32LE(vocabJson.length, o); o += 4;
    buf.writeUInt32LE(this.liveDocs, o); o += 4;
    vocabJson.copy(buf, o); o += vocabJson.length;
    for (let s = 0; s < this.slotIds.length; s++) {
      const t = this.slotTerms[s];
      if (!t) continue;
      const tf = this.slotTfs[s]!;
      buf.writeInt32LE(this.slotIds[s], o); o += 4;
      buf.writeUInt32LE(this.slotLen[s], o); o += 4;
      buf.writeUInt32LE(t.length, o); o += 4;
      for (let i = 0; i < t.length; i++) { buf.writeUInt32LE(t[i], o); o += 4; }
      for (let i = 0; i < t.length; i++) { buf.writeUInt16LE(tf[i], o); o += 2; }
    }
    return buf;
  }

  /** Inverse of serialize(); throws a descriptive Error on a foreign, old or truncated buffer. */
  static deserialize(buf: Buffer): Bm25Index {
    const need = (n: number, o: number) => {
      if (o + n > buf.length) throw new Error(`lexical index truncated at byte ${o} of ${buf.length}`);
    };
    need(32, 0);
    if (buf.readUInt32LE(0) !== FORMAT_MAGIC) throw new Error('not a lexical index file (bad magic)');
    const version = buf.readUInt32LE(4);
    if (version !== BM25_FORMAT_VERSION) throw new Error(`lexical index format ${version}, expected ${BM25_FORMAT_VERSION}`);
    const idx = new Bm25Index({ k1: buf.readDoubleLE(8), b: buf.readDoubleLE(16) });
    const vocabLen = buf.readUInt32LE(24);
    const nDocs = buf.readUInt32LE(28);
    let o = 32;
    need(vocabLen, o);
    const terms = JSON.parse(buf.toString('utf8', o, o + vocabLen)) as string[];
    o += vocabLen;
    for (const t of terms) {
      idx.vocab.set(t, idx.terms.length);
      idx.terms.push(t);
      idx.postings.push({ slots: [], tfs: [] });
      idx.df.push(0);
    }
    for (let d = 0; d < nDocs; d++) {
      need(12, o);
      const id = buf.readInt32LE(o); o += 4;
      const len = buf.readUInt32LE(o); o += 4;
      const n = buf.readUInt32LE(o); o += 4;
      need(n * 6, o);
      const tids = new Uint32Array(n);
      const tfs = new Uint16Array(n);
      for (let i = 0; i < n; i++) {
        tids[i] = buf.readUInt32LE(o); o += 4;
        if (tids[i] >= terms.length) throw new Error(`lexical index corrupt: term id ${tids[i]} out of range`);
      }
      for (let i = 0; i < n; i++) { tfs[i] = buf.readUInt16LE(o); o += 2; }
      idx.insertSlot(id, len, tids, tfs);
    }
    if (o !== buf.length) throw new Error(`lexical index has ${buf.length - o} trailing bytes`);
    return idx;
  }
}
