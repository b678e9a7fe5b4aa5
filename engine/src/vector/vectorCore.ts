// The vector index in memory: a flat store of recent int8 vectors and, past flatThreshold, IVF
// lists (built and rebuilt here, in slices when asked); search and updates. Saving and loading:
// vectorIndex.ts; the design and its measurements: docs/investigations/vector-index-design.md.
import { FlatStore, type ScoredId } from './flatStore';
import { TopK } from '../util/topK';
import { Int8Scorer, readRecord, recordBytes } from './int8Kernel';
import { IvfLists, memorySource, scratchSource } from './ivfLists';
import { ListSpill } from './listSpill';
import { ListAssigner, toRecords, trainLists } from './kmeans';
import { mulberry32 } from '../util/prng';
import type { FileDigest } from '../store/atomic';
import { l2Normalise } from '../embed/pooling';
import { vectorPendingLimit, vectorRebuildOnRemove, type VectorStats } from '../store/mergePolicy';

export interface VectorIndexOptions {
  /** Vector width; every added and queried vector must have it. */
  dim: number;
  /** Id of the model that produced the vectors (OnnxEmbedder.modelId); checked on load. */
  modelId: string;
  /**
   * 'cosine' (default): vectors are normalised on the way in, scores are cosine similarity.
   * 'ip': vectors are stored as given and scores are raw inner products (for pre-normalised input
   * this is the same thing, minus one normalisation pass).
   */
  space?: 'cosine' | 'ip';
  /**
   * Up to this many vectors the index stays flat (exact int8 scan, no training); beyond it,
   * inverted lists are built. It is also the least number of recently added vectors kept in the
   * exactly-searched pending store before the lists are rebuilt. Default 4096 (PARAMS.md#vector-index).
   */
  flatThreshold?: number;
  /** Number of inverted lists when (re)trained; default round(√N). */
  lists?: number;
  /** Lists read per query (default 24): recall vs latency (PARAMS.md#vector-index, nprobe). */
  nprobe?: number;
  /** Seed for k-means sampling, so rebuilds are reproducible (default 100). */
  seed?: number;
}

/** Search-time knobs that may differ from the ones the index was saved with. */
export type VectorIndexTuning = Pick<VectorIndexOptions, 'nprobe' | 'flatThreshold'>;

const MAX_ID = 0xffffffff;
/** k-means trains on this many sampled vectors per list (at most). */
const SAMPLE_PER_LIST = 32;
/** Rebuilt lists of at least this many vectors (~17 MB at dim 256) go to a scratch file, not the heap (PARAMS.md). */
const LIST_SPILL_MIN = 65_536;

/** A slice of live records (liveSlices): `n` records of `buf` at `offs`, listed in `lists` (-1: pending). */
interface LiveSlice {
  buf: Buffer;
  n: number;
  offs: Int32Array;
  lists: Int32Array;
}

export class VectorIndexCore {
  readonly dim: number;
  readonly modelId: string;
  readonly space: 'cosine' | 'ip';
  readonly flatThreshold: number;
  nprobe: number;
  protected readonly listsOption: number | undefined;
  protected readonly seed: number;
  protected readonly stride: number;

  /** Recently added vectors (all of them while flat), searched exactly. */
  protected pending: FlatStore;
  /** Inverted lists, once the index outgrew flatThreshold. */
  protected lists: IvfLists | undefined;
  /** Ids whose listed record is dead (removed, or replaced by a pending one). */
  protected tombstones = new Set<number>();
  /** Whether `lists` differs from the lists file last saved or loaded. */
  protected listsDirty = false;
  protected listsDigest: FileDigest | undefined;
  protected scorerCache: Int8Scorer | undefined;
  /** Bumped by add, remove and save: rebuildAsync discards work that one of them overtook. */
  protected mutations = 0;
  /** Rebuilt lists of at least this many vectors are written to a scratch file (tests lower it). */
  listSpillMin = LIST_SPILL_MIN;
  /** Kept for API compatibility: set by `load` when it repaired something (never, in format 2). */
  loadNote: string | undefined;

  constructor(opts: VectorIndexOptions) {
    if (!Number.isInteger(opts.dim) || opts.dim < 1) throw new RangeError(`VectorIndex dim must be a positive integer, got ${opts.dim}`);
    this.dim = opts.dim;
    this.modelId = opts.modelId;
    this.space = opts.space ?? 'cosine';
    this.flatThreshold = opts.flatThreshold ?? 4096;
    this.nprobe = opts.nprobe ?? 24;
    this.listsOption = opts.lists;
    this.seed = opts.seed ?? 100;
    this.stride = recordBytes(this.dim);
    this.pending = new FlatStore(this.dim);
  }

  /** Live vectors. */
  get size(): number {
    return this.pending.size + (this.lists ? this.lists.count - this.tombstones.size : 0);
  }

  /** Which search structure is in use right now. */
  get kind(): 'flat' | 'ivf' {
    return this.lists ? 'ivf' : 'flat';
  }

  /** Inverted lists in use (0 while flat). */
  get listCount(): number {
    return this.lists?.lists ?? 0;
  }

  has(id: number): boolean {
    return this.pending.has(id) || (!!this.lists && this.lists.has(id) && !this.tombstones.has(id));
  }

  /** Adds the vector for `id` (a uint32, e.g. a chunk id), replacing any previous one. */
  add(id: number, vec: ArrayLike<number>): void {
    if (!Number.isInteger(id) || id < 0 || id > MAX_ID) throw new RangeError(`VectorIndex id must be a uint32, got ${id}`);
    const v = this.prepare(vec);
    this.mutations++;
    if (this.lists?.has(id)) this.tombstones.add(id);
    this.pending.set(id, v);
    if (this.pending.size > this.pendingLimit()) this.rebuild();
  }

  /** Removes `id`; returns whether it was present. */
  remove(id: number): boolean {
    this.mutations++;
    const wasPending = this.pending.delete(id);
    if (wasPending) return true; // a listed copy, if any, is already a tombstone
    if (!this.lists || !this.lists.has(id) || this.tombstones.has(id)) return false;
    this.tombstones.add(id);
    if (vectorRebuildOnRemove({ ...this.policyStats(), size: this.size })) this.rebuild();
    return true;
  }

  /** The k nearest vectors to `vec`, best first; score is cosine similarity (inner product for 'ip'). */
  search(vec: ArrayLike<number>, k: number): ScoredId[] {
    const q = this.prepare(vec);
    const n = Math.min(Math.floor(k), this.size);
    if (n <= 0) return [];
    const scorer = this.scorer();
    scorer.setQuery(q);
    const top = new TopK(n);
    if (this.lists) {
      const tombstones = this.tombstones;
      const probe = this.lists.bestLists(scorer, this.nprobe);
      if (tombstones.size === 0) this.lists.scan(scorer, probe, (id, s) => top.offer(id, s));
      else this.lists.scan(scorer, probe, (id, s) => tombstones.has(id) || top.offer(id, s));
    }
    this.pending.scan(scorer, (id, s) => top.offer(id, s));
    return top.sorted();
  }

  /** Exact search over the same int8 vectors (every list): the reference for the IVF's recall. */
  searchExact(vec: ArrayLike<number>, k: number): ScoredId[] {
    const saved = this.nprobe;
    this.nprobe = Number.MAX_SAFE_INTEGER;
    try {
      return this.search(vec, k);
    } finally {
      this.nprobe = saved;
    }
  }

  /** Releases the open lists file (also done automatically when the index is garbage collected). */
  close(): void {
    this.lists?.close();
  }

  protected scorer(): Int8Scorer {
    return (this.scorerCache ??= new Int8Scorer(this.dim));
  }

  protected pendingLimit(): number {
    return vectorPendingLimit(this.policyStats());
  }

  /** What the merge policy (store/mergePolicy.ts) decides on. */
  protected policyStats(): VectorStats {
    return { listed: this.lists?.count, pending: this.pending.size, tombstones: this.tombstones.size, flatThreshold: this.flatThreshold };
  }

  /**
   * Live records in slices of at most `slice` (a pause point between slices for rebuildAsync):
   * listed records (with their list) first, then pending ones (list -1). One slice object is
   * reused: it and its buffer are valid until the next is taken (per-record arrays were tens of
   * MB of old-space garbage per rebuild at 100k files, promoted by the engine's small young generation).
   */
  protected* liveSlices(slice: number): Generator<LiveSlice> {
    const out: LiveSlice = { buf: this.pending.records, n: 0, offs: new Int32Array(slice), lists: new Int32Array(slice) };
    const lists = this.lists;
    if (lists) {
      const tombstones = this.tombstones;
      const buf = (out.buf = Buffer.alloc(slice * this.stride));
      let list = 0;
      for (let at = 0; at < lists.count; at += slice) {
        const n = Math.min(slice, lists.count - at);
        lists.readInto(buf, at, n);
        out.n = 0;
        for (let i = 0; i < n; i++) {
          while (at + i >= lists.starts[list + 1]) list++;
          const off = i * this.stride;
          if (tombstones.size === 0 || !tombstones.has(buf.readUInt32LE(off))) {
            out.offs[out.n] = off;
            out.lists[out.n++] = list;
          }
        }
        yield out;
      }
    }
    out.buf = this.pending.records;
    for (let i = 0; i < this.pending.size;) {
      out.n = 0;
      for (; i < this.pending.size && out.n < slice; i++) {
        out.offs[out.n] = i * this.stride;
        out.lists[out.n++] = -1;
      }
      yield out;
    }
  }

  /** Calls `visit(buf, off, list)` for every live record: listed ones (with their list), then pending ones (list -1). */
  protected forEachLive(visit: (buf: Buffer, off: number, list: number) => void): void {
    for (const s of this.liveSlices(4096)) for (let i = 0; i < s.n; i++) visit(s.buf, s.offs[i], s.lists[i]);
  }

  /**
   * Folds pending vectors and tombstones into the lists now (normally done on add, remove and
   * save when they pass a share of the lists); `retrain` also re-runs k-means on a fresh sample.
   * At 470k × dim 256 a fold takes 1.7–2.6 s, a retrain 35 s (every vector is compared with
   * every centroid; vectorScale.ts).
   */
  rebuildLists(retrain = false): void {
    this.rebuild(retrain);
  }

  /**
   * Whether adding `more` vectors would make `add` fold the pending ones into the lists, which
   * blocks for seconds at scale (a retrain at 262k vectors: ~9 s). A caller that can wait calls
   * rebuildAsync first.
   */
  wouldRebuildOnAdd(more: number): boolean {
    return this.pending.size + more > this.pendingLimit();
  }

  /**
   * The rebuild `add` would do, pausing for `pause()` (a turn of the caller's event loop) between
   * slices of the assignment pass, the long part (every live vector against every centroid).
   * Searches may run during the pauses and see the index as it was. If a vector was added or
   * removed meanwhile, the result is discarded and the rebuild redone at once.
   */
  async rebuildAsync(pause: () => Promise<void>, slice = 2048): Promise<void> {
    const before = this.mutations;
    const steps = this.rebuildSteps(false, slice);
    for (let r = steps.next(); !r.done; r = steps.next()) {
      await pause();
      if (this.mutations !== before) {
        this.rebuild();
        return;
      }
    }
  }

  protected rebuild(forceRetrain = false): void {
    const steps = this.rebuildSteps(forceRetrain, 4096);
    while (!steps.next().done);
  }

  /**
   * Folds pending vectors and tombstones into fresh lists (in memory until the next save),
   * yielding between slices of the assignment pass. Centroids are retrained on a sample when the
   * index has grown or shrunk 2x since they were trained; otherwise listed vectors keep their list
   * and only pending ones are assigned.
   */
  protected* rebuildSteps(forceRetrain: boolean, slice: number): Generator<void> {
    const live = this.size;
    const { dim, stride } = this;
    const scorer = this.scorer();
    if (live <= this.flatThreshold / 2 || (!this.lists && live <= this.flatThreshold)) {
      const flat = new FlatStore(dim, live);
      this.forEachLive((buf, off) => flat.setRecord(buf, off));
      this.lists?.close();
      this.lists = undefined;
      this.pending = flat;
      this.tombstones = new Set();
      this.listsDirty = true;
      this.mutations++; // another rebuildAsync in flight read the old state: it starts over
      return;
    }
    const old = this.lists;
    const retrain = forceRetrain || !old || live > 2 * old.trainedFor || live < old.trainedFor / 2;
    const tmp = new Float32Array(dim);
    let centroids: Buffer;
    let listCount: number;
    if (retrain) {
      const wanted = Math.max(1, Math.min(this.listsOption ?? Math.round(Math.sqrt(live)), live));
      const sample = this.sample(Math.min(live, SAMPLE_PER_LIST * wanted));
      const leaves = trainLists(sample, wanted, dim, scorer, this.seed);
      centroids = toRecords(leaves, dim);
      listCount = leaves.length;
    } else {
      centroids = old.centroids;
      listCount = old.lists;
    }
    const assigner = new ListAssigner(centroids, listCount, dim, scorer);
    const assignment = new Uint32Array(live);
    const ids = new Uint32Array(live);
    const counts = new Uint32Array(listCount + 1);
    let n = 0;
    for (const s of this.liveSlices(slice)) {
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
    n = 0;
    let source: ReturnType<typeof memorySource>;
    if (live >= this.listSpillMin) {
      const spill = new ListSpill(stride, starts);
      try {
        this.forEachLive((buf, off) => spill.put(assignment[n++], buf, off));
      } catch (err) {
        spill.abandon();
        throw err;
      }
      source = scratchSource(spill.finish());
    } else {
      const cursor = starts.slice(0, listCount);
      const records = Buffer.alloc(live * stride);
      this.forEachLive((buf, off) => {
        buf.copy(records, cursor[assignment[n++]]++ * stride, off, off + stride);
      });
      source = memorySource(records);
    }
    ids.sort();
    old?.close();
    this.lists = new IvfLists(dim, centroids, starts, source, ids, retrain ? live : old!.trainedFor);
    this.pending = new FlatStore(dim);
    this.tombstones = new Set();
    this.listsDirty = true;
    this.mutations++; // another rebuildAsync in flight read the old state: it starts over
  }

  /** Up to `size` live vectors picked uniformly (reservoir sampling), as unit floats. */
  protected sample(size: number): Float32Array[] {
    const rand = mulberry32(this.seed);
    const picked = Buffer.alloc(size * this.stride);
    let seen = 0;
    this.forEachLive((buf, off) => {
      const slot = seen < size ? seen : Math.floor(rand() * (seen + 1));
      if (slot < size) buf.copy(picked, slot * this.stride, off, off + this.stride);
      seen++;
    });
    return Array.from({ length: Math.min(size, seen) }, (_, i) => l2Normalise(readRecord(picked, i * this.stride, this.dim, new Float32Array(this.dim))));
  }

  /** Checks the width and, for 'cosine', returns a unit-length copy. */
  protected prepare(vec: ArrayLike<number>): Float32Array {
    if (vec.length !== this.dim) throw new RangeError(`vector has dim ${vec.length}, index has dim ${this.dim}`);
    const v = Float32Array.from(vec);
    return this.space === 'cosine' ? l2Normalise(v) : v;
  }
}
