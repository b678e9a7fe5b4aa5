// Okapi BM25 over an incrementally updated set of documents, compact at 100k-file scale, composed
// as tantivy composes an index: a read-only base segment with its deletions (baseSegment.ts), a
// mutable segment for documents added since the last merge (mutableSegment.ts), live statistics
// (bm25Stats.ts), a search over read-only views of them (bm25Search.ts), merging (bm25Merge.ts),
// delta encoding (bm25Delta.ts) and the file format (bm25Format.ts) as functions. This class owns
// the state and decides when each runs; the merge policy itself is store/mergePolicy.ts.
//
// A base loaded from a file (deserialize with the open file) or saved to one (save) leaves its
// postings bytes there and reads each queried term's byte range with one positional read
// (postingBytes.ts): the OS page cache holds them, not this process (~46 MB at 100k files). The
// rest of the base stays in memory. A merge builds its new base in memory, until the next save;
// close() releases the file.
import { readBm25, saveBm25, writeBm25 } from './bm25Format';
import type { ScoredId } from '../util/topK';
import { BaseSegment } from './baseSegment';
import { MutableSegment } from './mutableSegment';
import { TermDictionary } from './termDictionary';
import { Bm25Searcher } from './bm25Search';
import { mergeSegments, mutableDocs, type MergedBase } from './bm25Merge';
import { encodeDelta, replayDelta, type LexicalDelta } from './bm25Delta';
import { BM25_B, BM25_K1, DEFAULT_MAX_QUERY_POSTINGS, LiveStats, bm25Idf, liveDf, type Bm25Options } from './bm25Stats';
import { grow } from '../store/columns';
import type { FileDigest } from '../store/atomic';
import { LEXICAL_MERGE_MIN_DOCS, lexicalMergeDue, lexicalMergeForced } from '../store/mergePolicy';

export type { Bm25Options, ScoredId };
export { BM25_FORMAT_VERSION } from './bm25Format';
export { MIN_QUERY_TERMS } from './bm25Query';

/** A merge writes its new base's postings to a scratch file beyond this many bytes (segmentWriter.ts). */
const MERGE_SPILL_BYTES = 4 << 20;

export class Bm25Index {
  readonly k1: number;
  readonly b: number;
  /** See Bm25Options.maxQueryPostings; may be changed between searches. */
  maxQueryPostings: number;
  /** Postings bytes a merge keeps in memory before it writes them to a scratch file (tests lower it). */
  mergeSpillBytes = MERGE_SPILL_BYTES;
  /** Merges the backstop ran inside add or remove (blocking), since this index was created. */
  syncMerges = 0;
  private readonly mergeMinDocs: number;
  private dict = new TermDictionary();
  private base = new BaseSegment();
  private mut = new MutableSegment();
  private readonly stats = new LiveStats();
  private readonly searcher = new Bm25Searcher();
  // What the last commit (index/indexStore.ts) holds, so a save writes only what changed since
  // (bm25Delta.ts): mutable slots below committedMut are in committed delta segments, ids removed
  // since are listed, and baseCommitted says whether the packed base is a committed file.
  private committedMut = 0;
  private removedSinceCommit: number[] = [];
  private baseCommitted = false;
  /** Set while a delta segment is replayed: no merge midway (the replay must end as it was saved). */
  private replaying = false;
  /** Set while a sliced merge runs; removals meanwhile are applied to its output. */
  private merging = false;
  private removedDuringMerge: number[] = [];
  /** Scratch for counting a document's terms. */
  private docTids = new Int32Array(256);
  private docTfs = new Uint16Array(256);

  constructor(opts: Bm25Options = {}) {
    this.k1 = opts.k1 ?? BM25_K1;
    this.b = opts.b ?? BM25_B;
    this.mergeMinDocs = opts.mergeMinDocs ?? LEXICAL_MERGE_MIN_DOCS;
    this.maxQueryPostings = opts.maxQueryPostings ?? DEFAULT_MAX_QUERY_POSTINGS;
  }

  get size(): number {
    return this.stats.docs;
  }

  has(id: number): boolean {
    return this.mut.slotOf(id) !== undefined || this.base.liveSlot(id) >= 0;
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

  remove(id: number): boolean {
    const inMut = this.mut.slotOf(id) !== undefined;
    const s = inMut ? -1 : this.base.liveSlot(id);
    if (!inMut && s < 0) return false;
    this.removedSinceCommit.push(id);
    if (this.merging) this.removedDuringMerge.push(id);
    if (inMut) {
      this.stats.removed(this.mut.remove(id));
    } else {
      this.base.kill(s);
      this.stats.removed(this.base.packed.lens[s]);
    }
    this.maybeMerge();
    return true;
  }

  idf(term: string): number {
    const tid = this.dict.get(term);
    return bm25Idf(this.stats.docs, tid < 0 ? 0 : liveDf(this.base, this.mut, tid));
  }

  /** Whether a live document holds `term`. */
  holds(term: string): boolean {
    const tid = this.dict.get(term);
    return tid >= 0 && liveDf(this.base, this.mut, tid) > 0;
  }

  /**
   * Scores every document against the query terms (repeats in the query weigh the term more,
   * as in Okapi BM25 over a token list) and returns the best `k`, optionally filtered; ties go
   * to the lower id.
   */
  search(queryTerms: Iterable<string>, k: number, accept?: (id: number) => boolean): ScoredId[] {
    const { k1, b, maxQueryPostings, dict, base, mut, stats } = this;
    return this.searcher.search({ k1, b, maxQueryPostings, dict, base, mut, stats }, queryTerms, k, accept);
  }

  /** Whether adding `more` documents would make `add` merge at once (the caller can merge in slices first). */
  wouldMergeOnAdd(more: number): boolean {
    return !this.replaying && !this.merging && this.mergeDueAt(more);
  }

  /** Whether a sliced merge (mergeSteps) is running. */
  get mergeRunning(): boolean {
    return this.merging;
  }

  /** Mutable documents and dead base slots: what a merge would fold into the base. */
  get pendingDocs(): number {
    return this.mut.slots + this.base.deadLog.length;
  }

  /**
   * Whether a background merge is due (indexer/workspaceIndex.ts): once the pending documents
   * exceed the merge minimum, so the mutable segment and the deltas stay small and a reopened
   * index searches mostly a packed base.
   */
  get saveMergeDue(): boolean {
    return lexicalMergeDue({ baseDocs: this.base.packed.nDocs, pendingDocs: this.pendingDocs, minDocs: this.mergeMinDocs });
  }

  /**
   * Merges the mutable documents into a new packed base without dead documents, dropping terms
   * no live document uses. Slots follow ascending id. At once; mergeSteps() for the sliced form.
   */
  compact(): void {
    for (const _ of this.mergeSteps(Infinity));
  }

  /**
   * The same merge, in slices: yields after every `sliceTerms` terms, and searches, adds and
   * removals may run between slices (queries see the index as it was). The merge reads a snapshot
   * taken at its start — the base, its dead marks, the mutable documents then live — and at its
   * end installs the new base, then applies what happened meanwhile: removals of snapshot
   * documents become dead marks of the new base, documents added since become its mutable segment.
   */
  * mergeSteps(sliceTerms = 512): Generator<void, void> {
    if (this.merging) throw new Error('lexical index: a merge is already running');
    if (this.pendingDocs === 0) return;
    this.merging = true;
    this.removedDuringMerge = [];
    try {
      const source = { base: this.base, mut: this.mut, nTerms: this.dict.size, liveDocs: this.stats.docs, spillBytes: this.mergeSpillBytes };
      this.install(yield* mergeSegments(source, sliceTerms));
    } finally {
      this.merging = false;
      this.removedDuringMerge = [];
    }
  }

  /** mergeSteps, pausing for `pause()` (a turn of the engine's event loop) between slices. */
  async compactAsync(pause: () => Promise<void>): Promise<void> {
    for (const _ of this.mergeSteps()) await pause();
  }

  /** Binary form (bm25Format.ts); merges first so the file holds one packed segment. */
  serialize(): Buffer {
    this.compact();
    return writeBm25(this.k1, this.b, this.dict, this.base.packed);
  }

  /**
   * Writes the binary form to `file` atomically (temp file, fsync, rename), streaming postings
   * that are read from a file rather than loading them; from then on the postings are read
   * from the new `file` (the previous one is closed). Returns the written file's digest.
   */
  save(file: string): FileDigest {
    this.compact();
    return saveBm25(file, this.k1, this.b, this.dict, this.base, true);
  }

  /** Whether the packed base is held by the last commit (false after a merge or for a new index). */
  get baseIsCommitted(): boolean {
    return this.baseCommitted;
  }

  /** Whether the packed base holds documents that no commit has written (held in memory until a save). */
  get baseUnwritten(): boolean {
    return !this.baseCommitted && this.base.packed.nDocs > 0;
  }

  /**
   * The changes a delta segment records: since the last commit, or (`sinceBase`) everything
   * beyond the packed base — its dead documents and every live mutable one — which replaces
   * all the earlier deltas when they are folded into one.
   */
  deltaPart(sinceBase: boolean): LexicalDelta {
    const { packed, deadLog } = this.base;
    const removed = sinceBase ? Int32Array.from(deadLog, (s) => packed.ids[s]) : Int32Array.from(this.removedSinceCommit);
    return encodeDelta(this.dict, this.mut, removed, sinceBase ? 0 : this.committedMut);
  }

  /** Replays a delta part saved by deltaPart; throws on a malformed one. */
  applyDelta(d: LexicalDelta): void {
    this.replaying = true;
    try {
      replayDelta(d, {
        intern: (term) => this.dict.intern(term),
        has: (id) => this.has(id),
        remove: (id) => this.remove(id),
        addCounted: (id, tids, tfs, n, len) => this.addCounted(id, tids, tfs, n, len),
      });
    } finally {
      this.replaying = false;
    }
  }

  /** After a commit that holds this index as it is now (its base file and the deltas saved). */
  markCommitted(): void {
    this.baseCommitted = true;
    this.committedMut = this.mut.slots;
    this.removedSinceCommit = [];
  }

  /**
   * Writes the packed base as it is to `file` (a new name: files a commit refers to are never
   * modified), reading postings from it from then on — except during a merge, which reads the
   * base it started from. The mutable documents and dead marks go in the commit's delta
   * (deltaPart(true)).
   */
  saveBase(file: string): FileDigest {
    return saveBm25(file, this.k1, this.b, this.dict, this.base, !this.merging);
  }

  /** Whether the packed postings are read from a file (rather than held in memory). */
  get onDisk(): boolean {
    return this.base.packed.onDisk;
  }

  /** Releases the index file (also done when the index is garbage collected); searches fail afterwards if it was disk-backed. */
  close(): void {
    this.base.packed.close();
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
    idx.base = new BaseSegment(segment);
    idx.dict = dict;
    idx.stats.docs = segment.nDocs;
    let total = 0;
    for (let s = 0; s < segment.nDocs; s++) total += segment.lens[s];
    idx.stats.totalLen = total;
    return idx;
  }

  /**
   * Adds a document (its id absent) by its `n` distinct term ids and their counts (1..65535),
   * `len` its length in terms: add()'s second half, and how a saved delta segment is replayed.
   */
  private addCounted(id: number, tids: ArrayLike<number>, tfs: ArrayLike<number>, n: number, len: number): void {
    this.mut.add(id, tids, tfs, n, len);
    this.stats.added(len);
    this.maybeMerge();
  }

  private maybeMerge(): void {
    if (this.replaying || this.merging) return;
    // The backstop (mergePolicy.ts lexicalMergeForced): queries wait for the whole merge (1-2 s at 100k files).
    if (this.mergeDueAt(0)) {
      this.syncMerges++;
      this.compact();
    }
  }

  private mergeDueAt(more: number): boolean {
    const pendingDocs = this.pendingDocs + more;
    return lexicalMergeForced({ baseDocs: this.base.packed.nDocs, pendingDocs, minDocs: this.mergeMinDocs });
  }

  /**
   * Installs a finished merge (synchronously): the new base and dictionary, an empty mutable
   * segment, then what happened meanwhile — removals as dead marks, documents added since re-added.
   */
  private install(merged: MergedBase): void {
    const later = mutableDocs(this.mut, this.dict, merged.mutMerged);
    const removed = this.removedDuringMerge;
    if (merged.nKeep !== merged.nTerms) this.dict = this.dict.subset(merged.keep, merged.nKeep);
    if (merged.packed.nTerms !== merged.nKeep) throw new Error('lexical index inconsistent after a merge');
    const old = this.base.packed;
    this.base = new BaseSegment(merged.packed);
    old.close(); // the merged base is in memory or a scratch file until the next save
    this.mut = new MutableSegment();
    this.searcher.shrinkTo(merged.packed.nDocs);
    this.stats.docs = merged.packed.nDocs;
    this.stats.totalLen = merged.totalLen;
    this.merging = false;
    this.replaying = true; // no merge while the changes made meanwhile are applied
    try {
      for (const id of removed) this.remove(id);
      for (const d of later) this.addCounted(d.id, d.terms.map((t) => this.dict.intern(t)), d.tfs, d.terms.length, d.len);
    } finally {
      this.replaying = false;
    }
    // Everything is in the new base and mutable segment, which no commit holds yet.
    this.baseCommitted = false;
    this.committedMut = 0;
    this.removedSinceCommit = [];
  }
}
