// A BM25 index's changes since its last commit, as a delta segment part (index/deltaFile.ts
// stores it): the ids removed, then the documents added, each with its distinct terms and their
// counts. Replaying the parts saved after a packed base, in order (removals first, then adds),
// rebuilds the index exactly: the same live documents, so the same statistics and scores, since
// BM25 statistics are summed over the base and the mutable segment alike (bm25Segments.ts).
import { Bm25Merging } from './bm25Merge';
import type { FileDigest } from '../store/atomic';
import { lexicalMergeDue } from '../store/mergePolicy';

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

export abstract class Bm25Deltas extends Bm25Merging {
  /** Whether the packed base is held by the last commit (false after a merge or for a new index). */
  get baseIsCommitted(): boolean {
    return this.baseCommitted;
  }

  /** Whether the packed base holds documents that no commit has written (held in memory until a save). */
  get baseUnwritten(): boolean {
    return !this.baseCommitted && this.base.nDocs > 0;
  }

  /** Whether a sliced merge (mergeSteps) is running. */
  get mergeRunning(): boolean {
    return this.merging;
  }

  /** Mutable documents and dead base slots: what a merge would fold into the base. */
  get pendingDocs(): number {
    return this.mutIds.length + this.deadLog.length;
  }

  /**
   * Whether a background merge is due (indexer/workspaceIndex.ts): once the pending documents
   * exceed the merge minimum, so the mutable segment and the deltas stay small and a reopened
   * index searches mostly a packed base.
   */
  get saveMergeDue(): boolean {
    return lexicalMergeDue({ baseDocs: this.base.nDocs, pendingDocs: this.pendingDocs, minDocs: this.mergeMinDocs });
  }

  /**
   * The changes a delta segment records: since the last commit, or (`sinceBase`) everything
   * beyond the packed base — its dead documents and every live mutable one — which replaces
   * all the earlier deltas when they are folded into one.
   */
  deltaPart(sinceBase: boolean): LexicalDelta {
    const removed = sinceBase ? Int32Array.from(this.deadLog, (s) => this.base.ids[s]) : Int32Array.from(this.removedSinceCommit);
    const from = sinceBase ? 0 : this.committedMut;
    // Sized first, then filled: columns of JS numbers cost ~8x these bytes, and after a long cold
    // build stretch (tens of thousands of documents) they were ~120 MB of garbage per save (PARAMS.md).
    let docs = 0, entries = 0;
    for (let m = from; m < this.mutIds.length; m++) {
      if (this.mutLen[m] < 0) continue;
      docs++;
      entries += this.mutStart[m + 1] - this.mutStart[m];
    }
    const ids = new Int32Array(docs), lens = new Int32Array(docs), counts = new Int32Array(docs);
    const termOf = new Int32Array(entries), tfs = new Int32Array(entries);
    const terms: string[] = [];
    const local = new Map<number, number>();
    let d = 0, at = 0;
    for (let m = from; m < this.mutIds.length; m++) {
      if (this.mutLen[m] < 0) continue;
      ids[d] = this.mutIds[m];
      lens[d] = this.mutLen[m];
      counts[d++] = this.mutStart[m + 1] - this.mutStart[m];
      for (let e = this.mutStart[m]; e < this.mutStart[m + 1]; e++) {
        const tid = this.mtTid[this.poolMt[e]];
        let j = local.get(tid);
        if (j === undefined) {
          j = terms.push(this.dict.term(tid)) - 1;
          local.set(tid, j);
        }
        termOf[at] = j;
        tfs[at++] = this.poolTf[e];
      }
    }
    return { removed, ids, lens, counts, termOf, tfs, terms };
  }

  /** Replays a delta part saved by deltaPart; throws on a malformed one. */
  applyDelta(d: LexicalDelta): void {
    const entries = d.counts.reduce((n, c) => n + c, 0);
    if (d.ids.length !== d.lens.length || d.ids.length !== d.counts.length || entries !== d.termOf.length || entries !== d.tfs.length) {
      throw new Error('lexical delta malformed: column lengths disagree');
    }
    this.replaying = true;
    try {
      for (const id of d.removed) this.remove(id);
      const tids = d.terms.map((t) => this.dict.intern(t));
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
        if (this.has(d.ids[i])) this.remove(d.ids[i]);
        if (!(d.lens[i] >= 0)) throw new Error(`lexical delta malformed: document length ${d.lens[i]}`);
        this.addCounted(d.ids[i], dt, df, n, d.lens[i]);
      }
    } finally {
      this.replaying = false;
    }
  }

  /** After a commit that holds this index as it is now (its base file and the deltas saved). */
  markCommitted(): void {
    this.baseCommitted = true;
    this.committedMut = this.mutIds.length;
    this.removedSinceCommit = [];
  }

  /**
   * Writes the packed base as it is to `file` (a new name: files a commit refers to are never
   * modified), reading postings from it from then on — except during a merge, which reads the
   * base it started from. The mutable documents and dead marks go in the commit's delta
   * (deltaPart(true)).
   */
  saveBase(file: string): FileDigest {
    return this.writeBase(file, !this.merging);
  }
}
