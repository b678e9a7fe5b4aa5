// Nearest-neighbour index over unit vectors, stored as int8: exact flat search while small, an
// IVF (inverted file) once large, persisted with checksums so a damaged or stale index is noticed
// at load time instead of returning wrong neighbours.
// Layout, and why IVF rather than HNSW (measured): docs/investigations/vector-index-design.md.
import * as fs from 'fs';
import * as path from 'path';
import { IvfLists } from './ivfLists';
import { recordBytes } from './int8Kernel';
import {
  FORMAT_VERSION,
  HEADER_FILE,
  LEGACY_FILES,
  LISTS_FILE,
  PENDING_FILE,
  type IndexHeader,
  type VectorCommit,
} from './persist';
import { sha256Buffer, sha256File, writeAllAtomic, writePartsAtomic, type AtomicWrite, type FileDigest } from '../store/atomic';
import { VectorIndexCore, type VectorIndexTuning } from './vectorCore';
import { ensurePrivateDir } from '../store/privateDir';
import { vectorRebuildDueAtSave } from '../store/mergePolicy';

export type { ScoredId } from './flatStore';
export type { VectorIndexOptions, VectorIndexTuning } from './vectorCore';

export class VectorIndex extends VectorIndexCore {
  /**
   * Whether save() folds pending vectors into the lists when the merge policy says so. The
   * engine turns it off and rebuilds in the background instead (rebuildDueAtSave, rebuildAsync).
   */
  rebuildOnSave = true;

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
