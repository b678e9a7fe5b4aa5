// Merging a BM25 index's segments: the live documents of the base segment and of the mutable
// segment, in ascending id order, become one new packed base without dead documents, dropping
// terms no live document uses (as tantivy's IndexMerger writes one segment from several). A pure
// function of a snapshot: bm25.ts decides when, installs the result and replays what changed meanwhile.
import { SegmentWriter } from './segmentWriter';
import { BLOCK, type PackedSegment } from './packedPostings';
import type { BaseSegment } from './baseSegment';
import type { MutableSegment } from './mutableSegment';
import type { TermDictionary } from './termDictionary';

/** What a merge reads: the index as it is at the merge's start. */
export interface MergeSource {
  readonly base: BaseSegment;
  readonly mut: MutableSegment;
  /** Terms in the dictionary at the start; terms interned later are not merged. */
  readonly nTerms: number;
  readonly liveDocs: number;
  /** Postings bytes kept in memory before the writer spills them to a scratch file. */
  readonly spillBytes: number;
}

export interface MergedBase {
  packed: PackedSegment;
  /** Term ids kept (ascending, keep[0, nKeep)) of the `nTerms` merged: the new dictionary is their subset. */
  keep: Int32Array;
  nKeep: number;
  nTerms: number;
  /** Mutable slots merged, [0, mutMerged); later ones were added during the merge. */
  mutMerged: number;
  totalLen: number;
}

/** Where each live document of the source goes: slots follow ascending id. */
interface SlotMap {
  ids: Int32Array;
  lens: Uint32Array;
  /** New slot of base slot / mutable slot, or -1 (dead). */
  baseMap: Int32Array;
  mutMap: Int32Array;
}

/**
 * Merges `src` into a new packed base, yielding after every `sliceTerms` terms: searches, adds and
 * removals may run between slices, since the merge reads only the snapshot's base, dead marks and
 * mutable documents, and documents removed or added meanwhile are the caller's to apply.
 */
export function* mergeSegments(src: MergeSource, sliceTerms: number): Generator<void, MergedBase> {
  const map = mergedSlots(src);
  const writer = new SegmentWriter(map.lens, src.spillBytes);
  // Set while the writer may hold a scratch file that no segment owns yet (a merge given up midway).
  let abandon = true;
  try {
    const keep = new Int32Array(src.nTerms);
    let nKeep = 0;
    const postings = new TermPostings(src, map);
    for (let t = 0; t < src.nTerms; t++) {
      if (t > 0 && t % sliceTerms === 0) yield;
      if (postings.write(t, writer)) keep[nKeep++] = t;
    }
    abandon = false;
    const packed = writer.finish(map.ids);
    let totalLen = 0;
    for (const len of map.lens) totalLen += len;
    return { packed, keep, nKeep, nTerms: src.nTerms, mutMerged: map.mutMap.length, totalLen };
  } finally {
    if (abandon) writer.abandon();
  }
}

function mergedSlots({ base: { packed: base, dead }, mut, liveDocs }: MergeSource): SlotMap {
  const nBase = base.nDocs, mut0 = mut.slots;
  const liveMut: number[] = [];
  for (let m = 0; m < mut0; m++) if (mut.lens[m] >= 0) liveMut.push(m);
  liveMut.sort((x, y) => mut.ids[x] - mut.ids[y]);
  const ids = new Int32Array(liveDocs), lens = new Uint32Array(liveDocs);
  const baseMap = new Int32Array(nBase).fill(-1);
  const mutMap = new Int32Array(mut0).fill(-1);
  let s = 0, bi = 0, mi = 0;
  while (bi < nBase || mi < liveMut.length) {
    if (bi < nBase && dead[bi]) { bi++; continue; }
    if (mi >= liveMut.length || (bi < nBase && base.ids[bi] < mut.ids[liveMut[mi]])) {
      ids[s] = base.ids[bi]; lens[s] = base.lens[bi]; baseMap[bi] = s; bi++;
    } else {
      const m = liveMut[mi++];
      ids[s] = mut.ids[m]; lens[s] = mut.lens[m]; mutMap[m] = s;
    }
    s++;
  }
  if (s !== liveDocs) throw new Error(`lexical index inconsistent: ${s} live slots, expected ${liveDocs}`);
  return { ids, lens, baseMap, mutMap };
}

/** One term's merged postings at a time, in new-slot order, with scratch reused across terms. */
class TermPostings {
  private baseSlots = new Int32Array(1024);
  private baseTfs = new Uint16Array(1024);
  /** Mutable postings as new slot × 65536 + tf, sorted. */
  private mutKeys = new Float64Array(1024);
  // Own block scratch: searches between slices use theirs.
  private readonly slots = new Int32Array(BLOCK);
  private readonly tfs = new Uint16Array(BLOCK);
  private readonly src: MergeSource;
  private readonly map: SlotMap;

  constructor(src: MergeSource, map: SlotMap) {
    this.src = src;
    this.map = map;
  }

  /** Writes term `t`'s live postings; false when it has none (the term is dropped). */
  write(t: number, writer: SegmentWriter): boolean {
    const na = this.gatherBase(t), nm = this.gatherMutable(t);
    if (na + nm === 0) return false;
    const { baseSlots, baseTfs, mutKeys } = this;
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
    return true;
  }

  private gatherBase(t: number): number {
    const base = this.src.base.packed, baseMap = this.map.baseMap;
    if (t >= base.nTerms || base.df[t] <= 0) return 0;
    if (base.df[t] > this.baseSlots.length) {
      this.baseSlots = new Int32Array(base.df[t] * 2);
      this.baseTfs = new Uint16Array(base.df[t] * 2);
    }
    let na = 0;
    for (let blk = base.blockStart[t]; blk < base.blockStart[t + 1]; blk++) {
      const n = base.decodeBlock(t, blk, this.slots, this.tfs);
      for (let j = 0; j < n; j++) {
        const ns = baseMap[this.slots[j]];
        if (ns < 0) continue;
        this.baseSlots[na] = ns;
        this.baseTfs[na++] = this.tfs[j];
      }
    }
    return na;
  }

  private gatherMutable(t: number): number {
    const mut = this.src.mut, mutMap = this.map.mutMap, mut0 = mutMap.length;
    const mt = mut.termOf.get(t);
    if (mt === undefined) return 0;
    let nm = 0;
    for (let e = mut.head[mt]; e >= 0; e = mut.poolNext[e]) {
      const doc = mut.poolDoc[e];
      const ns = doc < mut0 ? mutMap[doc] : -1; // documents added since the start are not merged
      if (ns < 0) continue;
      if (nm === this.mutKeys.length) {
        const next = new Float64Array(nm * 2);
        next.set(this.mutKeys);
        this.mutKeys = next;
      }
      this.mutKeys[nm++] = ns * 65536 + mut.poolTf[e];
    }
    if (nm > 1) this.mutKeys.subarray(0, nm).sort();
    return nm;
  }
}

/** The live mutable documents from slot `from` on, by their terms (to re-add after a merge). */
export function mutableDocs(mut: MutableSegment, dict: TermDictionary, from: number): Array<{ id: number; len: number; terms: string[]; tfs: number[] }> {
  const docs: Array<{ id: number; len: number; terms: string[]; tfs: number[] }> = [];
  for (let m = from; m < mut.slots; m++) {
    if (mut.lens[m] < 0) continue;
    const terms: string[] = [], counts: number[] = [];
    for (let e = mut.start[m]; e < mut.start[m + 1]; e++) {
      terms.push(dict.term(mut.tidOf[mut.poolMt[e]]));
      counts.push(mut.poolTf[e]);
    }
    docs.push({ id: mut.ids[m], len: mut.lens[m], terms, tfs: counts });
  }
  return docs;
}
