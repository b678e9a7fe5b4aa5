// Nearest-neighbour index over unit vectors, stored as int8: exact flat search while small, an
// IVF (inverted file) once large, persisted with checksums so a damaged or stale index is noticed
// at load time instead of returning wrong neighbours. Composed of its segments (vectorSegments.ts:
// IVF lists, tombstones, a flat pending store), a search over them, and a rebuild that folds them
// (vectorRebuild.ts); this class owns them, asks the merge policy (store/mergePolicy.ts) when to
// rebuild, and saves and loads them. Layout, and why IVF rather than HNSW (measured):
// docs/investigations/vector-index-design.md.
import * as fs from 'fs';
import * as path from 'path';
import { FlatStore, type ScoredId } from './flatStore';
import { IvfLists } from './ivfLists';
import { Int8Scorer, recordBytes } from './int8Kernel';
import { FORMAT_VERSION, HEADER_FILE, LEGACY_FILES, LISTS_FILE, PENDING_FILE, checkHeader, definedOnly, verifyFile, type IndexHeader, type VectorCommit } from './persist';
import { liveCount, searchSegments, type VectorSegments } from './vectorSegments';
import { rebuildSegments, type Rebuilt } from './vectorRebuild';
import { sha256Buffer, writeAllAtomic, writePartsAtomic, type AtomicWrite, type FileDigest } from '../store/atomic';
import { ensurePrivateDir } from '../store/privateDir';
import { vectorPendingLimit, vectorRebuildDueAtSave, vectorRebuildOnRemove, type VectorStats } from '../store/mergePolicy';
import { l2Normalise } from '../embed/pooling';

export type { ScoredId };

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
/** Rebuilt lists of at least this many vectors (~17 MB at dim 256) go to a scratch file, not the heap (PARAMS.md). */
const LIST_SPILL_MIN = 65_536;

export class VectorIndex {
  readonly dim: number;
  readonly modelId: string;
  readonly space: 'cosine' | 'ip';
  readonly flatThreshold: number;
  nprobe: number;
  /**
   * Whether save() folds pending vectors into the lists when the merge policy says so. The
   * engine turns it off and rebuilds in the background instead (rebuildDueAtSave, rebuildAsync).
   */
  rebuildOnSave = true;
  /** Rebuilt lists of at least this many vectors are written to a scratch file (tests lower it). */
  listSpillMin = LIST_SPILL_MIN;
  /** Kept for API compatibility: set by `load` when it repaired something (never, in format 2). */
  loadNote: string | undefined;
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
    return liveCount(this.segments);
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
    return searchSegments(this.segments, scorer, n, this.nprobe);
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

  private get segments(): VectorSegments {
    return { pending: this.pending, lists: this.lists, tombstones: this.tombstones };
  }

  private scorer(): Int8Scorer {
    return (this.scorerCache ??= new Int8Scorer(this.dim));
  }

  private pendingLimit(): number {
    return vectorPendingLimit(this.policyStats());
  }

  /** What the merge policy (store/mergePolicy.ts) decides on. */
  private policyStats(): VectorStats {
    return { listed: this.lists?.count, pending: this.pending.size, tombstones: this.tombstones.size, flatThreshold: this.flatThreshold };
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
    let r = steps.next();
    for (; !r.done; r = steps.next()) {
      await pause();
      if (this.mutations !== before) {
        this.rebuild();
        return;
      }
    }
    this.install(r.value);
  }

  /** Whether any vector is pending or any listed one removed since the lists were built. */
  get listsOutOfDate(): boolean {
    return !!this.lists && this.pending.size + this.tombstones.size > 0;
  }

  /** Whether pending vectors and tombstones exceed the share a save folds into the lists. */
  get rebuildDueAtSave(): boolean {
    return vectorRebuildDueAtSave(this.policyStats());
  }

  /**
   * Writes the index to `dir` (created if needed) on its own: `vectors.ivf` (the lists, rewritten
   * only when they changed since the last save to this directory), `vectors.pending` (vectors
   * added and removed since the lists were built), then `vectors.json`, the header holding format,
   * dim, counts, modelId and the sha256 of each file. Every file is written to a temp file,
   * fsynced and renamed; the header goes last, so an interrupted save is detected by `load`. After
   * a save the lists are read from `dir` (not held in memory). The engine's index does not use
   * it: its manifest holds the commit (stageCommit).
   */
  save(dir: string): void {
    const staged = this.stageCommit(dir, { lists: LISTS_FILE, pending: PENDING_FILE });
    const header: IndexHeader = { format: FORMAT_VERSION, dim: this.dim, modelId: this.modelId, ...staged.commit };
    writeAllAtomic([...staged.writes, { file: path.join(dir, HEADER_FILE), data: JSON.stringify(header, null, 1) }]);
    if (!this.lists) fs.rmSync(path.join(dir, LISTS_FILE), { force: true }); // stale lists from an earlier, larger index
    for (const name of LEGACY_FILES) fs.rmSync(path.join(dir, name), { force: true });
  }

  /**
   * A save up to its commit: rebuilds the lists when due (rebuildOnSave) and writes them under
   * `names.lists` unless the file they are read from is already in `dir` and unchanged (then its
   * name is kept: files are never rewritten in place); returns the pending file, to be written
   * under `names.pending`, the commit that describes both (the caller records it, last), and
   * nothing else to do. Only the files this save writes are hashed; the lists' digest is kept from their write.
   */
  stageCommit(dir: string, names: { lists: string; pending: string }): { commit: VectorCommit; writes: AtomicWrite[]; written: string[] } {
    this.mutations++;
    ensurePrivateDir(dir);
    if (this.rebuildOnSave && this.rebuildDueAtSave) this.rebuild();
    const files: Record<string, FileDigest> = {};
    const lists = this.lists;
    const written = [names.pending];
    let listsName: string | undefined;
    if (lists) {
      const onDisk = lists.file;
      const unchanged = !this.listsDirty && this.listsDigest && onDisk && path.resolve(path.dirname(onDisk.path)) === path.resolve(dir)
        && fs.statSync(onDisk.path, { throwIfNoEntry: false })?.ino === onDisk.ino;
      listsName = unchanged ? path.basename(onDisk.path) : names.lists;
      if (!unchanged) {
        const listsPath = path.join(dir, listsName);
        this.listsDigest = writePartsAtomic(listsPath, lists.fileParts());
        lists.useFile(listsPath, fs.openSync(listsPath, 'r'));
        this.listsDirty = false;
        written.push(listsName);
      }
      files[listsName] = this.listsDigest!;
    }
    const tombstoneBytes = Buffer.alloc(this.tombstones.size * 4);
    [...this.tombstones].forEach((id, i) => tombstoneBytes.writeUInt32LE(id, i * 4));
    const pendingBytes = Buffer.concat([this.pending.records.subarray(0, this.pending.size * this.stride), tombstoneBytes]);
    files[names.pending] = sha256Buffer(pendingBytes);
    const commit: VectorCommit = {
      kind: this.kind,
      count: this.size,
      space: this.space,
      pending: this.pending.size,
      tombstones: this.tombstones.size,
      trainedFor: lists?.trainedFor ?? 0,
      ...(listsName ? { lists: listsName } : {}),
      pendingFile: names.pending,
      files,
    };
    return { commit, writes: [{ file: path.join(dir, names.pending), data: pendingBytes }], written };
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
    // Headers written before the names were recorded used the fixed ones.
    const commit: VectorCommit = { ...header, pendingFile: header.pendingFile ?? PENDING_FILE, ...(header.kind === 'ivf' ? { lists: header.lists ?? LISTS_FILE } : {}) };
    return VectorIndex.open(dir, commit, { dim: header.dim, modelId: header.modelId }, tuning);
  }

  /** Opens the index `commit` describes in `dir`, checking every file against its digest; or says why it cannot. */
  static open(dir: string, commit: VectorCommit, opts: { dim: number; modelId: string }, tuning: VectorIndexTuning = {}): VectorIndex | { error: string } {
    const stride = recordBytes(opts.dim);
    const pendingPath = path.join(dir, commit.pendingFile);
    const pendingError = verifyFile(pendingPath, commit.files[commit.pendingFile]);
    if (pendingError) return { error: pendingError };
    const pendingBytes = fs.readFileSync(pendingPath);
    if (pendingBytes.length !== commit.pending * stride + commit.tombstones * 4) {
      return { error: `${pendingPath} holds ${pendingBytes.length} bytes, expected ${commit.pending} vectors of dim ${opts.dim} and ${commit.tombstones} removals` };
    }

    const index = new VectorIndex({ dim: opts.dim, modelId: opts.modelId, space: commit.space, ...definedOnly(tuning) });
    if (commit.kind === 'ivf') {
      const digest = commit.lists ? commit.files[commit.lists] : undefined;
      if (!commit.lists || !digest) return { error: 'the vector index commit does not describe its lists file' };
      const listsPath = path.join(dir, commit.lists);
      if (!fs.existsSync(listsPath)) return { error: `${listsPath} is missing` };
      const lists = IvfLists.open(listsPath, opts.dim, digest, commit.trainedFor);
      if (typeof lists === 'string') return { error: lists };
      index.lists = lists;
      index.listsDigest = digest;
    }
    const problem = index.restorePending(pendingBytes, commit.pending, commit.tombstones);
    if (!problem && index.size !== commit.count) return fail(`vector index holds ${index.size} vectors, its commit says ${commit.count}`);
    if (problem) return fail(`${pendingPath}: ${problem}`);
    return index;

    function fail(error: string): { error: string } {
      index.close();
      return { error };
    }
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

  private rebuild(forceRetrain = false): void {
    const steps = this.rebuildSteps(forceRetrain, 4096);
    let r = steps.next();
    while (!r.done) r = steps.next();
    this.install(r.value);
  }

  private rebuildSteps(forceRetrain: boolean, slice: number): Generator<void, Rebuilt> {
    const { dim, stride, flatThreshold, seed, listSpillMin } = this;
    return rebuildSegments(this.segments, { dim, stride, flatThreshold, lists: this.listsOption, seed, listSpillMin, scorer: this.scorer() }, forceRetrain, slice);
  }

  /** Puts rebuilt segments in place (in memory until the next save). */
  private install(rebuilt: Rebuilt): void {
    this.lists?.close();
    this.lists = rebuilt.lists;
    this.pending = rebuilt.pending;
    this.tombstones = new Set();
    this.listsDirty = true;
    this.mutations++; // another rebuildAsync in flight read the old state: it starts over
  }

  /** Checks the width and, for 'cosine', returns a unit-length copy. */
  private prepare(vec: ArrayLike<number>): Float32Array {
    if (vec.length !== this.dim) throw new RangeError(`vector has dim ${vec.length}, index has dim ${this.dim}`);
    const v = Float32Array.from(vec);
    return this.space === 'cosine' ? l2Normalise(v) : v;
  }
}
