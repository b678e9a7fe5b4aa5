// One index directory per workspace, as immutable segments under one commit point: manifest.json
// (manifest.ts; written last: base file and delta range per component, the delta segments, the
// sha256 of every listed file); tables-<seq>.bin (tables.ts: string pools, files, chunk rows,
// definitions); lexical-<seq>.bin, lexical-doc-<seq>.bin, lexical-norm-<seq>.bin (a packed BM25 base
// per field, bm25Format.ts; kept open, postings read per query); delta-<seq>.bin (deltaFile.ts: one
// save's changes, files re-set or gone and per lexical field the ids removed and documents added);
// vectors/lists-<seq>.ivf and pending-<seq>.bin (engine/src/vector: lists when rebuilt, each save's
// pending vectors and removals).
// A save writes only new files (a delta, plus a base for a component that was merged) and then the
// manifest; a crash before the manifest's rename leaves the previous commit whole. Files the new
// manifest no longer lists are deleted after it. A directory whose files do not match the
// manifest's digests is reported and rebuilt, never trusted.
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { Bm25Index } from '../lexical/bm25';
import { VectorIndex } from '../vector';
import { writePartsAtomic, type AtomicWrite } from '../store/atomic';
import { WriterThread } from '../store/writerThread';
import { LOCK_FILE_NAME } from '../store/lock';
import { readAt } from '../store/readAt';
import { ensurePrivateDir } from '../store/privateDir';
import { MAX_DELTAS, TABLES_REBASE_MIN_FILES, foldDeltas, tablesRebaseDue } from '../store/mergePolicy';
import { decodeTables, tablesParts, type IndexTables } from './tables';
import { decodeDelta, encodeDelta, type DeltaSegment } from './deltaFile';
import { applyTablesDelta, tablesDelta } from './tablesDelta';
import {
  baseFileName, COMPONENTS, STORE_FORMAT_VERSION, deltaFileName, incompatibility, LEXICAL_FILES, listedFiles, MANIFEST_FILE, parseManifest, STORE_FILE_PATTERN,
  TEAM_SYNC_DIR, VECTORS_DIR, vectorFileNames, vectorFilePath,
  type BaseRef, type Component, type IndexExpectation, type LexicalField, type Manifest,
} from './manifest';

export { STORE_FORMAT_VERSION, LEXICAL_FILES } from './manifest';
export type LexicalFields = Record<LexicalField, Bm25Index>;

/** What a save commits; `modelId` null and `dim` 0 without vectors; the manifest lists `fields` and `omittedForSize`. */
export interface IndexToSave {
  tables: IndexTables; lexical: LexicalFields; vectors: VectorIndex | undefined;
  modelId: string | null; dim: number; fields: string[]; omittedForSize?: string[];
}

/** Moves `key` to the end of `set` (a set of changed files keeps the order of the latest changes). */
const toEnd = (set: Set<string>, key: string): void => {
  set.delete(key);
  set.add(key);
};

export interface StorePolicy {
  maxDeltas?: number;
  tablesRebaseMinFiles?: number;
  /** Given to the lexical fields a load opens (Bm25Options.mergeMinDocs). */
  lexicalMergeMinDocs?: number;
}

export interface LoadedStore extends LexicalFields {
  tables: IndexTables;
  vectors?: VectorIndex;
  /** Fields the first build left out for size (see Manifest.omittedForSize). */
  omittedForSize: string[];
}

const sha256 = (buf: Buffer | string) => createHash('sha256').update(buf).digest('hex');
export const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

/** Reads a whole open file into `into` (its size as stat'ed before); a reason if it changed size since. */
function readInto(fd: number, into: Buffer): Buffer | string {
  const got = readAt(fd, into, 0);
  if (got !== into.length || fs.fstatSync(fd).size !== into.length) return 'changed size while being read';
  return into;
}

/** The current file of each component and the delta segments, from a directory's manifest (tests, benches). */
export function committedFiles(dir: string): { bases: Record<Component, string>; deltas: string[] } {
  const m = parseManifest(fs.readFileSync(path.join(dir, MANIFEST_FILE), 'utf8'));
  if (typeof m === 'string') throw new Error(m);
  const bases = Object.fromEntries(COMPONENTS.map((c) => [c, m.bases[c].file])) as Record<Component, string>;
  return { bases, deltas: m.deltas.map((d) => d.file) };
}

export class IndexStore {
  /** The manifest this process last loaded or wrote: what a save builds on. */
  private committed: Manifest | undefined;
  /** Files changed since the tables base, most recent last (a folded delta records them all). */
  private tablesSinceBase = new Set<string>();
  private rebaseTables = false;

  private readonly maxDeltas: number;
  private readonly tablesRebaseMinFiles: number;

  /** Set by a failed save: the next writes full bases. */
  private rewriteAll = false;
  /** Writes saveAsync's small files off the event loop. */
  private readonly writer = new WriterThread();

  constructor(
    readonly dir: string,
    /** Tests lower the merge thresholds to cross them with a few files. */
    private readonly policy: StorePolicy = {},
  ) {
    this.maxDeltas = policy.maxDeltas ?? MAX_DELTAS;
    this.tablesRebaseMinFiles = policy.tablesRebaseMinFiles ?? TABLES_REBASE_MIN_FILES;
  }

  /** Bytes on disk of everything in the index directory. */
  diskBytes(): number {
    let total = 0;
    const walk = (d: string) => {
      if (!fs.existsSync(d)) return;
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else total += fs.statSync(p, { throwIfNoEntry: false })?.size ?? 0; // a temp file may be renamed meanwhile
      }
    };
    walk(this.dir);
    return total;
  }

  /**
   * Loads the index, or says why it cannot be used (missing, old format, other model, corrupt,
   * truncated). The caller rebuilds on any `error`.
   */
  load(expect: IndexExpectation): LoadedStore | { error: string; missing?: boolean } {
    const manifestPath = path.join(this.dir, MANIFEST_FILE);
    if (!fs.existsSync(manifestPath)) return { error: 'no index yet', missing: true };
    const manifest = parseManifest(fs.readFileSync(manifestPath, 'utf8'));
    if (typeof manifest === 'string') return { error: manifest };
    const omittedForSize = manifest.omittedForSize ?? [];
    const unusable = incompatibility(manifest, expect);
    if (unusable) return { error: unusable };
    // Every base is read into one scratch buffer, sized for the largest: the decoders copy what
    // they keep, so the buffer is reused instead of each file's read (27 + 59 MB at 100k files)
    // piling up until the next GC.
    const names = COMPONENTS.map((c) => manifest.bases[c].file);
    const sizes = new Map(names.map((name) => [name, fs.statSync(path.join(this.dir, name), { throwIfNoEntry: false })?.size ?? -1]));
    const scratch = Buffer.allocUnsafeSlow(Math.max(0, ...sizes.values()));
    /** Reads and checks a file; `use` gets its bytes and the open file, which it may keep (returning true). */
    const read = (name: string, use: (buf: Buffer, fd: number, file: string) => boolean, into?: Buffer): string | undefined => {
      const p = path.join(this.dir, name);
      const size = into ? sizes.get(name)! : fs.statSync(p, { throwIfNoEntry: false })?.size ?? -1;
      if (size < 0) return `${name} is missing`;
      let fd: number | undefined = fs.openSync(p, 'r');
      try {
        const buf = readInto(fd, into ? into.subarray(0, size) : Buffer.allocUnsafe(size));
        if (typeof buf === 'string') return `${name} ${buf}`;
        if (sha256(buf) !== manifest.digests[name]) return `${name} does not match its checksum (corrupt or truncated)`;
        if (use(buf, fd, p)) fd = undefined;
        return undefined;
      } finally {
        if (fd !== undefined) fs.closeSync(fd);
      }
    };
    let tables: IndexTables | undefined;
    const fields: Partial<LexicalFields> = {};
    let vectors: VectorIndex | undefined;
    const fail = (error: string) => {
      for (const f of Object.values(fields)) f.close();
      vectors?.close();
      return { error };
    };
    const sinceBase = new Set<string>();
    try {
      const tablesError = read(manifest.bases.tables.file, (buf) => ((tables = decodeTables(buf)), false), scratch);
      if (tablesError) return { error: tablesError };
      for (const field of Object.keys(LEXICAL_FILES) as LexicalField[]) {
        // The index keeps the file open and reads its postings from it; the scratch is reused.
        const name = manifest.bases[field].file;
        const problem = read(name, (buf, fd, file) => ((fields[field] = Bm25Index.deserialize(buf, { fd, path: file }, { mergeMinDocs: this.policy.lexicalMergeMinDocs })), true), scratch);
        if (problem) return fail(problem);
      }
      for (const d of manifest.deltas) {
        let delta: DeltaSegment | undefined;
        const problem = read(d.file, (buf) => {
          delta = decodeDelta(buf, d.file);
          return false;
        });
        if (problem) return fail(problem);
        if (delta!.seq !== d.seq) return fail(`${d.file} holds save ${delta!.seq}, the manifest lists ${d.seq}`);
        if (delta!.tables && d.seq >= manifest.bases.tables.from) {
          applyTablesDelta(tables!, delta!.tables);
          for (const f of delta!.tables.files) toEnd(sinceBase, f.rel);
        }
        for (const field of Object.keys(LEXICAL_FILES) as LexicalField[]) {
          const part = delta!.lexical[field];
          if (part && d.seq >= manifest.bases[field].from) fields[field]!.applyDelta(part);
        }
      }
      const chunkCount = tables!.chunks.size;
      for (const field of Object.keys(LEXICAL_FILES) as LexicalField[]) {
        // Optional fields the index does not fill hold no documents.
        const filled = field === 'lexical' || (manifest.fields ?? []).includes(field);
        if (filled && fields[field]!.size !== chunkCount) return fail(`the ${field} field holds ${fields[field]!.size} documents for ${chunkCount} chunks`);
      }
    } catch (e) {
      return fail(`index files are inconsistent (${(e as Error).message})`);
    }
    if (expect.modelId) {
      // The vectors of this commit, named by it: a vectors folder from another commit fails here.
      if (!manifest.vectors) return fail('the index holds no vectors, the model is on');
      const v = VectorIndex.open(path.join(this.dir, VECTORS_DIR), manifest.vectors, { dim: expect.dim, modelId: expect.modelId });
      if ('error' in v) return fail(`vector index: ${v.error}`);
      vectors = v;
      if (vectors.size !== tables!.chunks.size) return fail(`vector index holds ${vectors.size} vectors for ${tables!.chunks.size} chunks`);
    }
    for (const f of Object.values(fields)) f.markCommitted();
    tables!.files.changed.clear();
    this.committed = manifest;
    this.tablesSinceBase = sinceBase;
    return { tables: tables!, ...(fields as LexicalFields), vectors, omittedForSize };
  }

  /**
   * Commits the index as it is now (returns the index files it wrote): new files for what changed since the last commit (a delta
   * segment; a base for a component that is new or due a merge), then the manifest, then the
   * files no longer listed are deleted. The small files (delta, vectors' pending file, manifest) are written by a thread (store/writerThread.ts).
   */
  async saveAsync(index: IndexToSave): Promise<string[]> {
    const staged = this.stage(index);
    try {
      await this.writer.write(staged.writes);
    } catch (err) {
      this.uncommitted();
      throw err;
    }
    staged.after();
    return staged.names;
  }

  /**
   * A staged save failed to write: what it marked committed is not, so the next save writes
   * every component's base again (and the delta since it), whatever the previous commit holds.
   */
  private uncommitted(): void {
    this.rewriteAll = true;
  }

  /** Starts the writer thread now (the process that holds the index, at open): see store/writerThread.ts. */
  prepareWriter(): void {
    this.writer.prepare();
  }

  /** Whether the writer thread runs (tests). */
  get writerStarted(): boolean {
    return this.writer.started;
  }

  /** Ends the writer thread (after its writes). */
  async closeWriter(): Promise<void> {
    await this.writer.close();
  }

  /**
   * The save as of now: writes the bases due (large, rare: after a merge) and returns the small
   * files to write in order, the manifest last, and what to do once they are written. The
   * bookkeeping (what is committed) is done here, so changes made while the files are written
   * go in the next save; a failed write sets `rewriteAll` instead.
   */
  private stage(
    { tables, lexical, vectors, modelId, dim, fields, omittedForSize = [] }: IndexToSave,
  ): { writes: AtomicWrite[]; names: string[]; after: () => void } {
    ensurePrivateDir(this.dir);
    const writes: AtomicWrite[] = [];
    const prev = this.committed;
    const seq = (prev?.seq ?? 0) + 1;
    const fold = foldDeltas(prev?.deltas.length ?? 0, this.maxDeltas);
    const digests: Record<string, string> = {};
    const bases = {} as Record<Component, BaseRef>;
    const delta: DeltaSegment = { seq, lexical: {} };
    // The vectors' lists (when rebuilt) are written now, their pending file by the thread; the manifest records both.
    const vectorSave = vectors?.stageCommit(path.join(this.dir, VECTORS_DIR), vectorFileNames(seq));
    if (vectorSave) {
      writes.push(...vectorSave.writes);
      for (const name of vectorSave.written) digests[vectorFilePath(name)] = vectorSave.commit.files[name].sha256;
    }
    const rewriteAll = this.rewriteAll;

    const changedSinceBase = new Set(this.tablesSinceBase);
    for (const rel of tables.files.changed) toEnd(changedSinceBase, rel);
    const rebaseTables = !prev || rewriteAll || this.rebaseTables || tablesRebaseDue({ changedSinceBase: changedSinceBase.size, files: tables.files.count, minFiles: this.tablesRebaseMinFiles });
    if (rebaseTables) {
      const name = baseFileName('tables', seq);
      // Streamed from the tables' columns now, as a lexical base is: handed to the writer thread it
      // had to be one buffer, a copy of the whole tables (docs/investigations/cold-build-memory.md).
      digests[name] = writePartsAtomic(path.join(this.dir, name), tablesParts(tables)).sha256;
      bases.tables = { file: name, from: seq };
    } else {
      // Nothing since the base (or all of it in this delta, folding): earlier deltas are not needed.
      bases.tables = fold || changedSinceBase.size === 0 ? { file: prev.bases.tables.file, from: seq } : prev.bases.tables;
      const rels = fold ? changedSinceBase : tables.files.changed;
      if (rels.size) delta.tables = tablesDelta(tables, rels);
    }
    for (const field of Object.keys(LEXICAL_FILES) as LexicalField[]) {
      const index = lexical[field];
      const rebase = !prev || rewriteAll || !index.baseIsCommitted;
      if (rebase) {
        // A new or merged base: streams the file, then reads its postings from the new file. What
        // is not in it (documents added since the merge, dead marks) goes in this save's delta.
        const name = baseFileName(field, seq);
        digests[name] = index.saveBase(path.join(this.dir, name)).sha256;
        bases[field] = { file: name, from: seq };
      } else {
        bases[field] = fold || index.pendingDocs === 0 ? { file: prev.bases[field].file, from: seq } : prev.bases[field];
      }
      const part = index.deltaPart(fold || rebase);
      // An empty part is left out, also when folding: the component's base then holds it all.
      if (part.removed.length || part.ids.length) delta.lexical[field] = part;
    }
    const deltas = [...(prev?.deltas ?? [])];
    if (delta.tables || Object.keys(delta.lexical).length) {
      const name = deltaFileName(seq);
      const buf = encodeDelta(delta);
      writes.push({ file: path.join(this.dir, name), data: buf, syncDir: false }); // the manifest's write syncs the directory
      digests[name] = sha256(buf);
      deltas.push({ seq, file: name });
    }
    const from = Math.min(...COMPONENTS.map((c) => bases[c].from));
    const manifest: Manifest = {
      format: STORE_FORMAT_VERSION,
      modelId,
      dim,
      files: tables.files.count,
      chunks: tables.chunks.size,
      savedAt: new Date().toISOString(),
      seq,
      bases,
      deltas: deltas.filter((d) => d.seq >= from),
      digests: {},
      fields,
      ...(omittedForSize.length ? { omittedForSize } : {}),
      ...(vectorSave ? { vectors: vectorSave.commit } : {}),
    };
    // Kept lists are not rehashed: the vector index carries their digest from when it wrote or checked them.
    const vectorDigests = Object.fromEntries(Object.entries(vectorSave?.commit.files ?? {}).map(([n, d]) => [vectorFilePath(n), d.sha256]));
    for (const name of listedFiles(manifest)) manifest.digests[name] = digests[name] ?? vectorDigests[name] ?? prev!.digests[name];
    writes.push({ file: path.join(this.dir, MANIFEST_FILE), data: JSON.stringify(manifest, null, 1) });
    // Committed once the writes succeed: what the manifest holds is no longer pending.
    this.committed = manifest;
    this.tablesSinceBase = rebaseTables ? new Set() : changedSinceBase;
    this.rebaseTables = false;
    this.rewriteAll = false;
    tables.files.changed.clear();
    for (const field of Object.keys(LEXICAL_FILES) as LexicalField[]) lexical[field].markCommitted();
    return {
      writes,
      names: Object.keys(digests),
      after: () => this.collectGarbage(),
    };
  }

  /**
   * The next save writes a tables base whatever changed since the last (after a cold build, whose
   * last files would otherwise ride along in every folded delta: 3.4 MB at 100k files).
   */
  rebaseTablesAtNextSave(): void {
    this.rebaseTables = true;
  }

  /**
   * Deletes the index files the committed manifest does not list (replaced bases, folded deltas,
   * temp files of an interrupted save). Only the writer calls it; a reader that opened a deleted
   * file keeps reading it through its descriptor.
   */
  collectGarbage(): void {
    if (!this.committed || !fs.existsSync(this.dir)) return;
    const listed = new Set(listedFiles(this.committed));
    for (const name of fs.readdirSync(this.dir)) {
      if (STORE_FILE_PATTERN.test(name) && !listed.has(name)) fs.rmSync(path.join(this.dir, name), { force: true });
    }
    // The vectors folder holds only index files: anything unlisted there (an older commit's, a temp file) goes.
    const vectorsDir = path.join(this.dir, VECTORS_DIR);
    if (!fs.existsSync(vectorsDir)) return;
    for (const name of fs.readdirSync(vectorsDir)) {
      if (!listed.has(vectorFilePath(name))) fs.rmSync(path.join(vectorsDir, name), { recursive: true, force: true });
    }
  }

  /** Removes every index file (before a rebuild), but not the writer lock nor the team index's downloads. */
  clear(): void {
    this.committed = undefined;
    this.tablesSinceBase = new Set();
    if (!fs.existsSync(this.dir)) return;
    for (const name of fs.readdirSync(this.dir)) {
      // The lock stays held; the team index's downloads stay for the next sync to resume.
      if (name === LOCK_FILE_NAME || name === TEAM_SYNC_DIR) continue;
      fs.rmSync(path.join(this.dir, name), { recursive: true, force: true });
    }
  }
}

/** The tables a directory's commit holds (its base and deltas; digests unchecked): tests and benches inspect them. */
export function readCommittedTables(dir: string): IndexTables {
  const m = parseManifest(fs.readFileSync(path.join(dir, MANIFEST_FILE), 'utf8'));
  if (typeof m === 'string') throw new Error(m);
  const tables = decodeTables(fs.readFileSync(path.join(dir, m.bases.tables.file)));
  for (const d of m.deltas) {
    const delta = decodeDelta(fs.readFileSync(path.join(dir, d.file)), d.file);
    if (delta.tables && d.seq >= m.bases.tables.from) applyTablesDelta(tables, delta.tables);
  }
  return tables;
}
