// Rebuilding a vector index's segments: pending vectors and tombstones folded into fresh IVF lists
// (or back into one flat store when the index shrank), a function of a snapshot (as tantivy's
// merges are): vectorIndex.ts decides when, and installs the result; the shape is store/mergePolicy.ts's.
import { FlatStore } from './flatStore';
import { readRecord, type Int8Scorer } from './int8Kernel';
import { IvfLists, memorySource, scratchSource } from './ivfLists';
import { ListSpill } from './listSpill';
import { ListAssigner, toRecords, trainLists } from './kmeans';
import { forEachLive, liveCount, liveSlices, type VectorSegments } from './vectorSegments';
import { mulberry32 } from '../util/prng';
import { l2Normalise } from '../embed/pooling';
import { vectorRebuildFlat, vectorRetrainDue } from '../store/mergePolicy';

/** k-means trains on this many sampled vectors per list (at most). */
const SAMPLE_PER_LIST = 32;

export interface RebuildParams {
  dim: number;
  stride: number;
  flatThreshold: number;
  /** Lists when retrained; default round(√N). */
  lists: number | undefined;
  seed: number;
  /** Rebuilt lists of at least this many vectors go to a scratch file. */
  listSpillMin: number;
  scorer: Int8Scorer;
}

/** The rebuilt segments: no tombstones; `lists` undefined when the index went back to flat. */
export interface Rebuilt {
  pending: FlatStore;
  lists: IvfLists | undefined;
}

/**
 * Folds pending vectors and tombstones into fresh lists (in memory until the next save),
 * yielding between slices of the assignment pass. Centroids are retrained on a sample when the
 * index has grown or shrunk 2x since they were trained; otherwise listed vectors keep their list
 * and only pending ones are assigned. Leaves `seg` as it was (the caller closes its old lists).
 */
export function* rebuildSegments(seg: VectorSegments, p: RebuildParams, forceRetrain: boolean, slice: number): Generator<void, Rebuilt> {
  const live = liveCount(seg);
  const { dim, stride, scorer } = p;
  if (vectorRebuildFlat({ live, listed: seg.lists?.count, flatThreshold: p.flatThreshold })) {
    const flat = new FlatStore(dim, live);
    forEachLive(seg, stride, (buf, off) => flat.setRecord(buf, off));
    return { pending: flat, lists: undefined };
  }
  const old = seg.lists;
  const retrain = forceRetrain || !old || vectorRetrainDue({ live, trainedFor: old.trainedFor });
  let centroids: Buffer;
  let listCount: number;
  if (retrain) {
    const wanted = Math.max(1, Math.min(p.lists ?? Math.round(Math.sqrt(live)), live));
    const leaves = trainLists(sample(seg, p, Math.min(live, SAMPLE_PER_LIST * wanted)), wanted, dim, scorer, p.seed);
    centroids = toRecords(leaves, dim);
    listCount = leaves.length;
  } else {
    centroids = old.centroids;
    listCount = old.lists;
  }
  const assigner = new ListAssigner(centroids, listCount, dim, scorer);
  const tmp = new Float32Array(dim);
  const assignment = new Uint32Array(live);
  const ids = new Uint32Array(live);
  const counts = new Uint32Array(listCount + 1);
  let n = 0;
  for (const s of liveSlices(seg, stride, slice)) {
    const buf = s.buf;
    for (let i = 0; i < s.n; i++) {
      const off = s.offs[i], list = s.lists[i];
      const to = retrain || list < 0 ? assigner.assign(buf, off, tmp) : list;
      assignment[n] = to;
      ids[n++] = buf.readUInt32LE(off);
      counts[to + 1]++;
    }
    yield;
  }
  const starts = new Uint32Array(listCount + 1);
  for (let l = 0; l < listCount; l++) starts[l + 1] = starts[l] + counts[l + 1];
  const source = writeLists(seg, p, live, starts, assignment);
  ids.sort();
  return { pending: new FlatStore(dim), lists: new IvfLists(dim, centroids, starts, source, ids, retrain ? live : old!.trainedFor) };
}

/** The live records grouped by their assigned list: in memory, or in a scratch file when large. */
function writeLists(seg: VectorSegments, p: RebuildParams, live: number, starts: Uint32Array, assignment: Uint32Array): ReturnType<typeof memorySource> {
  const stride = p.stride;
  let n = 0;
  if (live >= p.listSpillMin) {
    const spill = new ListSpill(stride, starts);
    try {
      forEachLive(seg, stride, (buf, off) => spill.put(assignment[n++], buf, off));
    } catch (err) {
      spill.abandon();
      throw err;
    }
    return scratchSource(spill.finish());
  }
  const cursor = starts.slice(0, starts.length - 1);
  const records = Buffer.alloc(live * stride);
  forEachLive(seg, stride, (buf, off) => {
    buf.copy(records, cursor[assignment[n++]]++ * stride, off, off + stride);
  });
  return memorySource(records);
}

/** Up to `size` live vectors picked uniformly (reservoir sampling), as unit floats. */
function sample(seg: VectorSegments, p: RebuildParams, size: number): Float32Array[] {
  const { stride, dim } = p;
  const rand = mulberry32(p.seed);
  const picked = Buffer.alloc(size * stride);
  let seen = 0;
  forEachLive(seg, stride, (buf, off) => {
    const slot = seen < size ? seen : Math.floor(rand() * (seen + 1));
    if (slot < size) buf.copy(picked, slot * stride, off, off + stride);
    seen++;
  });
  return Array.from({ length: Math.min(size, seen) }, (_, i) => l2Normalise(readRecord(picked, i * stride, dim, new Float32Array(dim))));
}
