// A BM25 index's changes since its last commit, as a delta segment part (index/deltaFile.ts
// stores it): the ids removed, then the documents added, each with its distinct terms and their
// counts. Replaying the parts saved after a packed base, in order (removals first, then adds),
// rebuilds the index exactly: the same live documents, so the same statistics and scores, since
// BM25 statistics are summed over the base and the mutable segment alike (bm25Stats.ts).
import type { MutableSegment } from './mutableSegment';
import type { TermDictionary } from './termDictionary';

export interface LexicalDelta {
  /** Ids removed (from the base or from earlier deltas); replay ignores ids not present. */
  removed: Int32Array;
  /** Added documents: id, length in terms, and how many distinct terms (entries) each has. */
  ids: Int32Array;
  lens: Int32Array;
  counts: Int32Array;
  /** The entries of every added document in order: index into `terms`, and the count. */
  termOf: Int32Array;
  tfs: Int32Array;
  terms: string[];
}

/** What replaying a delta writes into: the index's own add and remove. */
export interface DeltaSink {
  intern(term: string): number;
  has(id: number): boolean;
  remove(id: number): void;
  /** Adds a document (its id absent) by its `n` distinct term ids, their counts and its length. */
  addCounted(id: number, tids: ArrayLike<number>, tfs: ArrayLike<number>, n: number, len: number): void;
}

/** The delta of `removed` ids and the live mutable documents from slot `from` on. */
export function encodeDelta(dict: TermDictionary, mut: MutableSegment, removed: Int32Array, from: number): LexicalDelta {
  // Sized first, then filled: columns of JS numbers cost ~8x these bytes, and after a long cold
  // build stretch (tens of thousands of documents) they were ~120 MB of garbage per save (PARAMS.md).
  let docs = 0, entries = 0;
  for (let m = from; m < mut.slots; m++) {
    if (mut.lens[m] < 0) continue;
    docs++;
    entries += mut.start[m + 1] - mut.start[m];
  }
  const ids = new Int32Array(docs), lens = new Int32Array(docs), counts = new Int32Array(docs);
  const termOf = new Int32Array(entries), tfs = new Int32Array(entries);
  const terms: string[] = [];
  const local = new Map<number, number>();
  let d = 0, at = 0;
  for (let m = from; m < mut.slots; m++) {
    if (mut.lens[m] < 0) continue;
    ids[d] = mut.ids[m];
    lens[d] = mut.lens[m];
    counts[d++] = mut.start[m + 1] - mut.start[m];
    for (let e = mut.start[m]; e < mut.start[m + 1]; e++) {
      const tid = mut.tidOf[mut.poolMt[e]];
      let j = local.get(tid);
      if (j === undefined) {
        j = terms.push(dict.term(tid)) - 1;
        local.set(tid, j);
      }
      termOf[at] = j;
      tfs[at++] = mut.poolTf[e];
    }
  }
  return { removed, ids, lens, counts, termOf, tfs, terms };
}

/** Replays a delta part saved by encodeDelta into `sink`; throws on a malformed one. */
export function replayDelta(d: LexicalDelta, sink: DeltaSink): void {
  const entries = d.counts.reduce((n, c) => n + c, 0);
  if (d.ids.length !== d.lens.length || d.ids.length !== d.counts.length || entries !== d.termOf.length || entries !== d.tfs.length) {
    throw new Error('lexical delta malformed: column lengths disagree');
  }
  for (const id of d.removed) sink.remove(id);
  const tids = d.terms.map((t) => sink.intern(t));
  let e = 0;
  const docTids = new Int32Array(256), docTfs = new Uint16Array(256);
  for (let i = 0; i < d.ids.length; i++) {
    const n = d.counts[i];
    const dt = n > docTids.length ? new Int32Array(n) : docTids, df = n > docTfs.length ? new Uint16Array(n) : docTfs;
    for (let j = 0; j < n; j++, e++) {
      const t = d.termOf[e], tf = d.tfs[e];
      if (!(t >= 0 && t < tids.length) || !(tf >= 1 && tf <= 65535)) throw new Error('lexical delta malformed: entry out of range');
      dt[j] = tids[t];
      df[j] = tf;
    }
    if (sink.has(d.ids[i])) sink.remove(d.ids[i]);
    if (!(d.lens[i] >= 0)) throw new Error(`lexical delta malformed: document length ${d.lens[i]}`);
    sink.addCounted(d.ids[i], dt, df, n, d.lens[i]);
  }
}
