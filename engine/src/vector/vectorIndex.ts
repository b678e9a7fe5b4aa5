// Nearest-neighbour index over unit vectors, stored as int8: exact flat search while small, an
// IVF (inverted file) once large, persisted with checksums so a damaged or stale index is noticed
// at load time instead of returning wrong neighbours.
//
// Layout (format 2). Every vector is one int8 record (u32 id, f32 scale, dim × i8: dim + 8 bytes;
// cosine within ~1e-3 of float). Small indexes (≤ flatThreshold) are a flat store scanned exactly.
// Larger ones are inverted lists: k-means centroids (~√N, in memory) and the records grouped by
// nearest centroid in vectors.ivf, read per query with fs.readSync into a fixed ~1 MB buffer (the
// OS page cache holds the file, not this process), scored by a wasm SIMD kernel. Vectors added
// since the lists were built sit in an exactly searched pending store, removed or replaced ones
// are tombstones; both are folded into the lists when they pass a share of them (on add, and at
// save at a lower share), retraining the centroids only when N has doubled or halved since.
//
// Why not HNSW (format 1: hnswlib graph + int8 copy) any more. test/bench/vectorScale.ts, one run,
// clustered synthetic unit vectors (2000 gaussian clusters), dim 256, 200 queries, busy 2-core
// machine (load ~10: wall-clock p95 is mostly preemption, so CPU time per query is given too):
//   N = 50k          build   disk     RSS*    p50/p95 ms   CPU p95   recall@10 vs float
//   HNSW M16 ef128   43 s    69 MB    65 MB   0.39/4.5     0.55 ms   0.991
//   IVF nprobe 24    4.8 s   12.6 MB  8 MB    0.46/0.57    0.56 ms   0.951 (int8 exact 0.991)
//   N = 470k
//   HNSW M16 ef128   530 s   644 MB   582 MB  0.45/5.0     0.73 ms   0.991
//   IVF nprobe 16    50 s    118.5 MB 11.5 MB 1.35/9.2     1.8 ms    0.955 (int8 exact 0.970)
//   IVF nprobe 24                            1.87/10.0    2.2 ms    0.958
//   (* RSS delta of a fresh process after loading the saved index and running the queries, gc'd;
//   heap + external is ~6.4 MB: 4-byte sorted ids, centroids, the read buffer. The 470k IVF rows
//   are a second run, after load stopped allocating a buffer per chunk (first run: 38 MB RSS,
//   59 s build, same recall and latency); the HNSW rows are from the first run.)
// So recall costs: int8 quantisation 0.01–0.03 (exact int8 scan vs float), the lists another
// 0.01–0.04 at nprobe 24. HNSW answers faster per query and recalls more, but its float graph is
// ~1.3 KB per vector on disk and in RSS (0.6 GB at 470k) and takes 9 minutes to build; rebuilding it
// from the int8 copy at load (to avoid the second copy on disk) would cost those minutes at every
// start. The IVF's disk is 1.002x the int8 payload. Mid-size indexes gain little from HNSW either:
// at 50k the IVF query costs the same CPU, so a threshold between the two was not kept.
// Real embeddings (shipped model, 46.9k chunks of a generated 10k-file repository, 170 lists;
// test/bench/vectorRealRecall.ts): recall@10 against an exact int8 scan 0.89 / 0.95 / 0.97 / 0.98
// at nprobe 8 / 16 / 24 / 32, for 0.8 / 0.9 / 1.1 / 1.3 ms CPU p95.
// Updates at 470k (same bench): remove 0.5% + add 2.5% 0.3 s, the save that folds them into the
// lists 1.7–2.6 s, a save with a few pending changes 0.02 s, load (sha256 of 118 MB) 0.3–0.4 s,
// a full retrain (only when N doubles or halves, or on request) 35 s.
import * as fs from 'fs';
import * as path from 'path';
import { FlatStore, type ScoredId } from './flatStore';
import { TopK } from '../util/topK';
import { Int8Scorer, readRecord, recordBytes } from './int8Kernel';
import { IvfLists, memorySource } from './ivfLists';
import { ListAssigner, toRecords, trainLists } from './kmeans';
import { mulberry32 } from '../util/prng';
import {
  FORMAT_VERSION,
  HEADER_FILE,
  LEGACY_FILES,
  LISTS_FILE,
  PENDING_FILE,
  type IndexHeader,
} from './persist';
import { sha256Buffer, sha256File, writeFileAtomic, writePartsAtomic, type FileDigest } from '../store/atomic';

import { l2Normalise } from '../embed/pooling';

export type { ScoredId } from './flatStore';

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
   * exactly-searched pending store before the lists are rebuilt. Default 4096: a flat scan of
   * 4096 × dim 256 costs ~0.4 ms with the SIMD kernel.
   */
  flatThreshold?: number;
  /** Number of inverted lists when (re)trained; default round(√N). */
  lists?: number;
  /**
   * Lists read per query (default 24): recall vs latency. With √N lists, at 470k × dim 256
   * recall@10 is 0.955 / 0.958 / 0.960 at 16 / 24 / 32 for 1.9 / 2.2 / 2.6 ms CPU per query
   * (test/bench/vectorScale.ts, header above).
   */
  nprobe?: number;
  /** Seed for k-means sampling, so rebuilds are reproducible (default 100). */
  seed?: number;
}

/** Search-time knobs that may differ from the ones the index was saved with. */
export type VectorIndexTuning = Pick<VectorIndexOptions, 'nprobe' | 'flatThreshold'>;

const MAX_ID = 0xffffffff;
/** Pending vectors trigger a rebuild beyond max(flatThreshold, this share of the listed ones)… */
const PENDING_SHARE = 0.05;
/** …but never beyond this many (an exact scan of 16k × dim 256 is ~1.5 ms). */
const MAX_PENDING = 16384;
/** Removed-but-listed vectors trigger a rebuild beyond this share of the lists. */
const TOMBSTONE_SHARE = 0.2;
/** At save, lists are rebuilt when pending + tombstones exceed this share of them. */
const SAVE_REBUILD_SHARE = 0.02;
/** k-means trains on this many sampled vectors per list (at most). */
const SAMPLE_PER_LIST = 32;

export class VectorIndex {
  readonly dim: number;
  readonly modelId: string;
  readonly space: 'cosine' | 'ip';
  readonly flatThreshold: number;
  nprobe: number;
  private readonly listsOption: number | undefined;
  private readonly seed: number;
  private readonly stride: number;

  /** Recently added vectors (all of them while flat), searched exactly. */
  private pending: FlatStore;
  /** Inverted lists, once the index outgrew flatThreshold. */
  private lists: IvfLists | undefined;
  /** Ids whose listed record is dead (removed, or replaced by a pending one). */
  private tombstones = new Set<number>();
  /** Whether `lists` differs from the lists file last saved or loaded. */
  private listsDirty = false;
  private listsDigest: FileDigest | undefined;
  private scorerCache: Int8Scorer | undefined;
  /** Bumped by add, remove and save: rebuildAsync discards work that one of them overtook. */
  private mutations = 0;
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
    // Back to flat at half the threshold, so add/remove around it does not flip-flop.
    if (this.tombstones.size > TOMBSTONE_SHARE * this.lists.count || this.size <= this.flatThreshold / 2) this.rebuild();
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

  /**
   * Writes the index to `dir` (created if needed): `vectors.ivf` (the lists, rewritten only when
   * they changed since the last save to this directory), `vectors.pending` (vectors added and
   * removed since the lists were built), then `vectors.json`, the header holding format, dim,
   * counts, modelId and the sha256 of each file. Every file is written to a temp file, fsynced
   * and renamed; the header goes last, so an interrupted save is detected by `load`. After a save
   * the lists are read from `dir` (not held in memory).
   */
  save(dir: string): void {
    this.mutations++;
    fs.mkdirSync(dir, { recursive: true });
    if (this.lists && this.pending.size + this.tombstones.size > SAVE_REBUILD_SHARE * this.lists.count) this.rebuild();
    const files: Record<string, FileDigest> = {};
    const listsPath = path.join(dir, LISTS_FILE);
    const lists = this.lists;
    if (lists) {
      const onDisk = lists.file;
      const unchanged =
        !this.listsDirty &&
        this.listsDigest &&
        onDisk &&
        path.resolve(onDisk.path) === path.resolve(listsPath) &&
        fs.existsSync(listsPath) &&
        fs.statSync(listsPath).ino === onDisk.ino;
      if (!unchanged) {
        this.listsDigest = writePartsAtomic(listsPath, lists.fileParts());
        lists.useFile(listsPath, fs.openSync(listsPath, 'r'));
        this.listsDirty = false;
      }
      files[LISTS_FILE] = this.listsDigest!;
    }
    const tombstoneBytes = Buffer.alloc(this.tombstones.size * 4);
    [...this.tombstones].forEach((id, i) => tombstoneBytes.writeUInt32LE(id, i * 4));
    const pendingBytes = Buffer.concat([this.pending.records.subarray(0, this.pending.size * this.stride), tombstoneBytes]);
    writeFileAtomic(path.join(dir, PENDING_FILE), pendingBytes);
    files[PENDING_FILE] = sha256Buffer(pendingBytes);
    const header: IndexHeader = {
      format: FORMAT_VERSION,
      kind: this.kind,
      dim: this.dim,
      count: this.size,
      modelId: this.modelId,
      space: this.space,
      pending: this.pending.size,
      tombstones: this.tombstones.size,
      trainedFor: lists?.trainedFor ?? 0,
      files,
    };
    writeFileAtomic(path.join(dir, HEADER_FILE), JSON.stringify(header, null, 1));
    if (!lists) fs.rmSync(listsPath, { force: true }); // stale lists from an earlier, larger index
    for (const name of LEGACY_FILES) fs.rmSync(path.join(dir, name), { force: true });
  }

  /**
   * Reads an index saved by `save`. Returns `{error}` with the reason when the index is missing,
   * damaged, from another format version, or built for another dim / model: the caller rebuilds.
   */
  static load(dir: string, expect: { dim: number; modelId: string }, tuning: VectorIndexTuning = {}): VectorIndex | { error: string } {
    const headerPath = path.join(dir, HEADER_FILE);
    if (!fs.existsSync(headerPath)) return { error: `no vector index in ${dir} (${HEADER_FILE} missing)` };
    let header: IndexHeader;
    try {
      header = JSON.parse(fs.readFileSync(headerPath, 'utf8')) as IndexHeader;
    } catch (err) {
      return { error: `vector index header ${headerPath} is corrupt: ${(err as Error).message}` };
    }
    if (header && typeof header === 'object' && header.format !== FORMAT_VERSION) {
      return { error: `vector index format ${header.format} is not the supported ${FORMAT_VERSION}` };
    }
    const shapeError = checkHeader(header);
    if (shapeError) return { error: `vector index header ${headerPath} is invalid: ${shapeError}` };
    if (header.dim !== expect.dim) return { error: `vector index has dim ${header.dim}, the model produces ${expect.dim}` };
    if (header.modelId !== expect.modelId) return { error: `vector index was built with model ${header.modelId}, current model is ${expect.modelId}` };

    const stride = recordBytes(header.dim);
    const pendingPath = path.join(dir, PENDING_FILE);
    const pendingError = verifyFile(pendingPath, header.files[PENDING_FILE]);
    if (pendingError) return { error: pendingError };
    const pendingBytes = fs.readFileSync(pendingPath);
    if (pendingBytes.length !== header.pending * stride + header.tombstones * 4) {
      return { error: `${pendingPath} holds ${pendingBytes.length} bytes, expected ${header.pending} vectors of dim ${header.dim} and ${header.tombstones} removals` };
    }

    const index = new VectorIndex({ dim: header.dim, modelId: header.modelId, space: header.space, ...definedOnly(tuning) });
    if (header.kind === 'ivf') {
      const listsPath = path.join(dir, LISTS_FILE);
      const digest = header.files[LISTS_FILE];
      if (!digest) return { error: `vector index header does not describe ${LISTS_FILE}` };
      if (!fs.existsSync(listsPath)) return { error: `${listsPath} is missing` };
      const lists = IvfLists.open(listsPath, header.dim, digest, header.trainedFor);
      if (typeof lists === 'string') return { error: lists };
      index.lists = lists;
      index.listsDigest = digest;
    }
    const problem = index.restorePending(pendingBytes, header.pending, header.tombstones);
    if (!problem && index.size !== header.count) return fail(`vector index holds ${index.size} vectors, its header says ${header.count}`);
    if (problem) return fail(`${pendingPath}: ${problem}`);
    return index;

    function fail(error: string): { error: string } {
      index.close();
      return { error };
    }
  }

  /** Releases the open lists file (also done automatically when the index is garbage collected). */
  close(): void {
    this.lists?.close();
  }

  private restorePending(bytes: Buffer, pending: number, tombstones: number): string | undefined {
    const tombOffset = pending * this.stride;
    for (let i = 0; i < tombstones; i++) {
      const id = bytes.readUInt32LE(tombOffset + i * 4);
      if (!this.lists?.has(id)) return `removal of id ${id}, which is not in the lists`;
      if (this.tombstones.has(id)) return `id ${id} removed twice`;
      this.tombstones.add(id);
    }
    for (let i = 0; i < pending; i++) {
      const id = bytes.readUInt32LE(i * this.stride);
      if (this.pending.has(id)) return `id ${id} added twice`;
      if (this.lists?.has(id) && !this.tombstones.has(id)) return `id ${id} both pending and listed`;
      this.pending.setRecord(bytes, i * this.stride);
    }
    return undefined;
  }

  private scorer(): Int8Scorer {
    return (this.scorerCache ??= new Int8Scorer(this.dim));
  }

  private pendingLimit(): number {
    if (!this.lists) return this.flatThreshold;
    return Math.max(this.flatThreshold, Math.min(MAX_PENDING, Math.ceil(PENDING_SHARE * this.lists.count)));
  }

  /**
   * Live records in slices of at most `slice` (a pause point between slices for rebuildAsync):
   * each slice is a list of [buf, off, list] triples, listed records (with their list) first, then
   * pending ones (list -1). A triple's buffer is valid until the next slice is taken.
   */
  private *liveSlices(slice: number): Generator<Array<[Buffer, number, number]>> {
    let out: Array<[Buffer, number, number]> = [];
    const lists = this.lists;
    if (lists) {
      const tombstones = this.tombstones;
      const buf = Buffer.alloc(slice * this.stride);
      let list = 0;
      for (let at = 0; at < lists.count; at += slice) {
        const n = Math.min(slice, lists.count - at);
        lists.readInto(buf, at, n);
        for (let i = 0; i < n; i++) {
          while (at + i >= lists.starts[list + 1]) list++;
          const off = i * this.stride;
          if (tombstones.size === 0 || !tombstones.has(buf.readUInt32LE(off))) out.push([buf, off, list]);
        }
        yield out;
        out = [];
      }
    }
    const records = this.pending.records;
    for (let i = 0; i < this.pending.size; i++) {
      out.push([records, i * this.stride, -1]);
      if (out.length === slice) { yield out; out = []; }
    }
    if (out.length) yield out;
  }

  /** Calls `visit(buf, off, list)` for every live record: listed ones (with their list), then pending ones (list -1). */
  private forEachLive(visit: (buf: Buffer, off: number, list: number) => void): void {
    for (const records of this.liveSlices(4096)) for (const [buf, off, list] of records) visit(buf, off, list);
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

  private rebuild(forceRetrain = false): void {
    const steps = this.rebuildSteps(forceRetrain, 4096);
    while (!steps.next().done);
  }

  /**
   * Folds pending vectors and tombstones into fresh lists (in memory until the next save),
   * yielding between slices of the assignment pass. Centroids are retrained on a sample when the
   * index has grown or shrunk 2x since they were trained; otherwise listed vectors keep their list
   * and only pending ones are assigned.
   */
  private *rebuildSteps(forceRetrain: boolean, slice: number): Generator<void> {
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
    for (const records of this.liveSlices(slice)) {
      for (const [buf, off, list] of records) {
        const to = retrain || list < 0 ? assigner.assign(buf, off, tmp) : list;
        assignment[n] = to;
        ids[n++] = buf.readUInt32LE(off);
        counts[to + 1]++;
      }
      yield;
    }
    const starts = new Uint32Array(listCount + 1);
    for (let l = 0; l < listCount; l++) starts[l + 1] = starts[l] + counts[l + 1];
    const cursor = starts.slice(0, listCount);
    const records = Buffer.alloc(live * stride);
    n = 0;
    this.forEachLive((buf, off) => {
      buf.copy(records, cursor[assignment[n++]]++ * stride, off, off + stride);
    });
    ids.sort();
    old?.close();
    this.lists = new IvfLists(dim, centroids, starts, memorySource(records), ids, retrain ? live : old!.trainedFor);
    this.pending = new FlatStore(dim);
    this.tombstones = new Set();
    this.listsDirty = true;
  }

  /** Up to `size` live vectors picked uniformly (reservoir sampling), as unit floats. */
  private sample(size: number): Float32Array[] {
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
  private prepare(vec: ArrayLike<number>): Float32Array {
    if (vec.length !== this.dim) throw new RangeError(`vector has dim ${vec.length}, index has dim ${this.dim}`);
    const v = Float32Array.from(vec);
    return this.space === 'cosine' ? l2Normalise(v) : v;
  }
}

function verifyFile(file: string, expected: FileDigest | undefined): string | undefined {
  if (!expected) return `vector index header does not describe ${path.basename(file)}`;
  if (!fs.existsSync(file)) return `${file} is missing`;
  const size = fs.statSync(file).size;
  if (size !== expected.bytes) return `${file} is ${size} bytes, expected ${expected.bytes} (truncated or overwritten)`;
  if (sha256File(file).sha256 !== expected.sha256) return `${file} fails its checksum (corrupted)`;
  return undefined;
}

function checkHeader(h: IndexHeader): string | undefined {
  if (!h || typeof h !== 'object') return 'not an object';
  const ints: Array<keyof IndexHeader> = ['format', 'dim', 'count', 'pending', 'tombstones', 'trainedFor'];
  for (const key of ints) if (!Number.isInteger(h[key]) || (h[key] as number) < 0) return `${key} is not a non-negative integer`;
  if (h.dim < 1) return 'dim is 0';
  if (h.kind !== 'flat' && h.kind !== 'ivf') return `kind ${String(h.kind)}`;
  if (h.space !== 'cosine' && h.space !== 'ip') return `space ${String(h.space)}`;
  if (typeof h.modelId !== 'string') return 'modelId is not a string';
  if (!h.files || typeof h.files !== 'object') return 'files missing';
  return undefined;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
