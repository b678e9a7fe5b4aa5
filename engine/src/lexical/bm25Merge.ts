// Merging a BM25 index's mutable segment and deletions into a new packed base, and persisting
// the packed base (bm25Format.ts) atomically.
import * as fs from 'fs';
import { SegmentWriter } from './segmentWriter';
import { bm25File, writeBm25 } from './bm25Format';
import { writePartsAtomic, type FileDigest } from '../store/atomic';
import { FileBytes } from './postingBytes';
import { Bm25Segments } from './bm25Segments';

export abstract class Bm25Merging extends Bm25Segments {
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
    if (this.mutIds.length === 0 && this.deadLog.length === 0) return;
    this.merging = true;
    this.removedDuringMerge = [];
    // Set while the writer may hold a scratch file that no segment owns yet (a merge given up midway).
    let abandon: (() => void) | undefined;
    try {
      const base = this.base, nBase = base.nDocs;
      const mut0 = this.mutIds.length, nTerms = this.dict.size;
      const liveMut: number[] = [];
      for (let m = 0; m < mut0; m++) if (this.mutLen[m] >= 0) liveMut.push(m);
      liveMut.sort((x, y) => this.mutIds[x] - this.mutIds[y]);
      const nLive = this.liveDocs;
      const ids = new Int32Array(nLive), lens = new Uint32Array(nLive);
      const baseMap = new Int32Array(nBase).fill(-1);
      const mutMap = new Int32Array(mut0).fill(-1);
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

      const writer = new SegmentWriter(lens, this.mergeSpillBytes);
      abandon = () => writer.abandon();
      const keep = new Int32Array(nTerms);
      let nKeep = 0;
      let baseSlots = new Int32Array(1024), baseTfs = new Uint16Array(1024);
      let mutKeys = new Float64Array(1024);
      // Own scratch: searches between slices use blockSlots/blockTfs.
      const slots = new Int32Array(this.blockSlots.length), tfs = new Uint16Array(this.blockTfs.length);
      for (let t = 0; t < nTerms; t++) {
        if (t > 0 && t % sliceTerms === 0) yield;
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
            const doc = this.poolDoc[e];
            const ns = doc < mut0 ? mutMap[doc] : -1; // documents added since the start are not merged
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
      // Install (synchronous from here on). Documents added during the merge, still live, by their terms.
      const later: Array<{ id: number; len: number; terms: string[]; tfs: number[] }> = [];
      for (let m = mut0; m < this.mutIds.length; m++) {
        if (this.mutLen[m] < 0) continue;
        const terms: string[] = [], counts: number[] = [];
        for (let e = this.mutStart[m]; e < this.mutStart[m + 1]; e++) {
          terms.push(this.dict.term(this.mtTid[this.poolMt[e]]));
          counts.push(this.poolTf[e]);
        }
        later.push({ id: this.mutIds[m], len: this.mutLen[m], terms, tfs: counts });
      }
      const removed = this.removedDuringMerge;
      if (nKeep !== nTerms) this.dict = this.dict.subset(keep, nKeep);
      abandon = undefined;
      this.base = writer.finish(ids);
      if (this.base.nTerms !== nKeep) throw new Error('lexical index inconsistent after a merge');
      base.close(); // the merged base is in memory or a scratch file until the next save
      this.resetMutable();
      this.liveDocs = nLive;
      let total = 0;
      for (let i = 0; i < nLive; i++) total += lens[i];
      this.totalLen = total;
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
    } finally {
      abandon?.();
      this.merging = false;
      this.removedDuringMerge = [];
    }
  }

  /** mergeSteps, pausing for `pause()` (a turn of the engine's event loop) between slices. */
  async compactAsync(pause: () => Promise<void>): Promise<void> {
    for (const _ of this.mergeSteps()) await pause();
  }

  /** After a merge or load: empty mutable part, no dead slots, vocabulary = base terms. */
  protected resetMutable(): void {
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
    this.mtTid = new Int32Array(256);
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
    return this.writeBase(file, true);
  }

  /** Writes the packed base (and the dictionary's terms it uses) to `file`; `reopen`: read postings from it from now on. */
  protected writeBase(file: string, reopen: boolean): FileDigest {
    const out = bm25File(this.k1, this.b, this.dict, this.base);
    const digest = writePartsAtomic(file, out.parts());
    if (!reopen) return digest;
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
}
