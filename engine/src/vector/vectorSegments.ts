// The segments of a vector index at one moment, as search and rebuild read them: IVF lists (the
// read-only base, once the index outgrew flatThreshold), the ids dead in them (tombstones), and a
// flat store of recently added vectors searched exactly (the mutable segment).
import { FlatStore, type ScoredId } from './flatStore';
import type { IvfLists } from './ivfLists';
import type { Int8Scorer } from './int8Kernel';
import { TopK } from '../util/topK';

export interface VectorSegments {
  /** Recently added vectors (all of them while flat), searched exactly. */
  readonly pending: FlatStore;
  /** Inverted lists, once the index outgrew flatThreshold. */
  readonly lists: IvfLists | undefined;
  /** Ids whose listed record is dead (removed, or replaced by a pending one). */
  readonly tombstones: ReadonlySet<number>;
}

/** A slice of live records (liveSlices): `n` records of `buf` at `offs`, listed in `lists` (-1: pending). */
export interface LiveSlice {
  buf: Buffer;
  n: number;
  offs: Int32Array;
  lists: Int32Array;
}

/** Live vectors. */
export const liveCount = (seg: VectorSegments): number => seg.pending.size + (seg.lists ? seg.lists.count - seg.tombstones.size : 0);

/** The `n` nearest to the query `scorer` holds, reading `nprobe` lists; best first. */
export function searchSegments(seg: VectorSegments, scorer: Int8Scorer, n: number, nprobe: number): ScoredId[] {
  const top = new TopK(n);
  if (seg.lists) {
    const tombstones = seg.tombstones;
    const probe = seg.lists.bestLists(scorer, nprobe);
    if (tombstones.size === 0) seg.lists.scan(scorer, probe, (id, s) => top.offer(id, s));
    else seg.lists.scan(scorer, probe, (id, s) => tombstones.has(id) || top.offer(id, s));
  }
  seg.pending.scan(scorer, (id, s) => top.offer(id, s));
  return top.sorted();
}

/**
 * Live records in slices of at most `slice` (a pause point between slices for a sliced rebuild):
 * listed records (with their list) first, then pending ones (list -1). One slice object is
 * reused: it and its buffer are valid until the next is taken (per-record arrays were tens of
 * MB of old-space garbage per rebuild at 100k files, promoted by the engine's small young generation).
 */
export function* liveSlices(seg: VectorSegments, stride: number, slice: number): Generator<LiveSlice> {
  const out: LiveSlice = { buf: seg.pending.records, n: 0, offs: new Int32Array(slice), lists: new Int32Array(slice) };
  const lists = seg.lists;
  if (lists) {
    const tombstones = seg.tombstones;
    const buf = (out.buf = Buffer.alloc(slice * stride));
    let list = 0;
    for (let at = 0; at < lists.count; at += slice) {
      const n = Math.min(slice, lists.count - at);
      lists.readInto(buf, at, n);
      out.n = 0;
      for (let i = 0; i < n; i++) {
        while (at + i >= lists.starts[list + 1]) list++;
        const off = i * stride;
        if (tombstones.size === 0 || !tombstones.has(buf.readUInt32LE(off))) {
          out.offs[out.n] = off;
          out.lists[out.n++] = list;
        }
      }
      yield out;
    }
  }
  out.buf = seg.pending.records;
  for (let i = 0; i < seg.pending.size;) {
    out.n = 0;
    for (; i < seg.pending.size && out.n < slice; i++) {
      out.offs[out.n] = i * stride;
      out.lists[out.n++] = -1;
    }
    yield out;
  }
}

/** Calls `visit(buf, off, list)` for every live record: listed ones (with their list), then pending ones (list -1). */
export function forEachLive(seg: VectorSegments, stride: number, visit: (buf: Buffer, off: number, list: number) => void): void {
  for (const s of liveSlices(seg, stride, 4096)) for (let i = 0; i < s.n; i++) visit(s.buf, s.offs[i], s.lists[i]);
}
