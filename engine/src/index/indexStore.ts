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
import type { VectorIndex } from '../vector';
import type { VectorCommit } from '../vector/persist';
import { readCommit, sha256, type LexicalFields, type LoadedStore } from './readCommit';
import { writePartsAtomic, type AtomicWrite } from '../store/atomic';
import { WriterThread } from '../store/writerThread';
import { LOCK_FILE_NAME } from '../store/lock';
import { ensurePrivateDir } from '../store/privateDir';
import { MAX_DELTAS, TABLES_REBASE_MIN_FILES, foldDeltas, tablesRebaseDue } from '../store/mergePolicy';
import { tablesParts, type IndexTables } from './tables';
import { encodeDelta, type DeltaSegment } from './deltaFile';
import { tablesDelta } from './tablesDelta';
import { DiskSize } from './diskSize';
import { moveToEnd } from '../store/orderedSet';
import {
  baseFileName, COMPONENTS, STORE_FORMAT_VERSION, deltaFileName, incompatibility, LEXICAL_FILES, listedFiles, MANIFEST_FILE, parseManifest, STORE_FILE_PATTERN,
  TEAM_SYNC_DIR, VECTORS_DIR, vectorFileNames, vectorFilePath,
  type BaseRef, type Component, type IndexExpectation, type LexicalField, type Manifest,
} from './manifest';

export { STORE_FORMAT_VERSION, LEXICAL_FILES } from './manifest';
export { committedFiles, readCommittedTables, type LexicalFields, type LoadedStore } from './readCommit';

/** What a save commits; `modelId` null and `dim` 0 without vectors; the manifest lists `fields` and `omittedForSize`. */
export interface IndexToSave {
  tables: IndexTables; lexical: LexicalFields; vectors: VectorIndex | undefined;
  modelId: string | null; dim: number; fields: string[]; omittedForSize?: string[];
}

/** A save being staged: what it writes now and through the writer thread, and what its manifest will list. */
interface SaveDraft {
  seq: number;
  prev: Manifest | undefined;
  /** Whether this save's delta replaces every earlier one. */
  fold: boolean;
  rewriteAll: boolean;
  /** Files for the writer thread, in order. */
  writes: AtomicWrite[];
  digests: Record<string, string>;
  bases: Record<Component, BaseRef>;
  delta: DeltaSegment;
}

export interface StorePolicy {
  maxDeltas?: number;
  tablesRebaseMinFiles?: number;
  /** Given to the lexical fields a load opens (Bm25Options.mergeMinDocs). */
  lexicalMergeMinDocs?: number;
}

export const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

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
  private readonly disk: DiskSize;
  /** Bytes of the manifest last loaded or written (a save replaces it in place). */
  private manifestBytes = 0;

  constructor(
    readonly dir: string,
    /** Tests lower the merge thresholds to cross them with a few files. */
    private readonly policy: StorePolicy = {},
  ) {
    this.maxDeltas = policy.maxDeltas ?? MAX_DELTAS;
    this.tablesRebaseMinFiles = policy.tablesRebaseMinFiles ?? TABLES_REBASE_MIN_FILES;
    this.disk = new DiskSize(dir);
  }

  /** Bytes on disk of everything in the index directory: walked once, then adjusted by each save and deletion. */
  diskBytes(): number {
    return this.disk.get();
  }

  /**
   * Loads the index, or says why it cannot be used (missing, old format, other model, corrupt,
   * truncated). The caller rebuilds on any `error`.
   */
  load(expect: IndexExpectation): LoadedStore | { error: string; missing?: boolean } {
    const manifestPath = path.join(this.dir, MANIFEST_FILE);
    if (!fs.existsSync(manifestPath)) return { error: 'no index yet', missing: true };
    const manifestText = fs.readFileSync(manifestPath, 'utf8');
    const manifest = parseManifest(manifestText);
    if (typeof manifest === 'string') return { error: manifest };
    // Another process may have written this commit: the folder's size is walked again when asked.
    this.disk.unknown();
    this.manifestBytes = Buffer.byteLength(manifestText);
    const unusable = incompatibility(manifest, expect);
    if (unusable) return { error: unusable };
    const loaded = readCommit(this.dir, manifest, expect, this.policy.lexicalMergeMinDocs);
    if ('error' in loaded) return loaded;
    for (const field of Object.keys(LEXICAL_FILES) as LexicalField[]) loaded.store[field].markCommitted();
    loaded.store.tables.files.changed.clear();
    this.committed = manifest;
    this.tablesSinceBase = loaded.sinceBase;
    return loaded.store;
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
    for (const w of staged.writes) this.disk.wrote(Buffer.byteLength(w.data), w.file.endsWith(MANIFEST_FILE) ? this.manifestBytes : 0);
    this.manifestBytes = Buffer.byteLength(staged.writes[staged.writes.length - 1].data);
    staged.after();
    return staged.names;
  }

  /**
   * A staged save failed to write: what it marked committed is not, so the next save writes
   * every component's base again (and the delta since it), whatever the previous commit holds.
   */
  private uncommitted(): void {
    this.rewriteAll = true;
    this.disk.unknown();
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
  private stage(index: IndexToSave): { writes: AtomicWrite[]; names: string[]; after: () => void } {
    ensurePrivateDir(this.dir);
    const prev = this.committed;
    const seq = (prev?.seq ?? 0) + 1;
    const draft: SaveDraft = {
      seq, prev, fold: foldDeltas(prev?.deltas.length ?? 0, this.maxDeltas), rewriteAll: this.rewriteAll,
      writes: [], digests: {}, bases: {} as Record<Component, BaseRef>, delta: { seq, lexical: {} },
    };
    // The vectors' lists (when rebuilt) are written now, their pending file by the thread; the manifest records both.
    const vectorSave = index.vectors?.stageCommit(path.join(this.dir, VECTORS_DIR), vectorFileNames(seq));
    if (vectorSave) {
      draft.writes.push(...vectorSave.writes);
      for (const name of vectorSave.written) {
        draft.digests[vectorFilePath(name)] = vectorSave.commit.files[name].sha256;
        if (!vectorSave.writes.some((w) => path.basename(w.file) === name)) this.disk.wrote(vectorSave.commit.files[name].bytes);
      }
    }
    const tables = this.stageTables(index.tables, draft);
    this.stageLexical(index.lexical, draft);
    const manifest = this.draftManifest(index, draft, vectorSave?.commit);
    draft.writes.push({ file: path.join(this.dir, MANIFEST_FILE), data: JSON.stringify(manifest, null, 1) });
    // Committed once the writes succeed: what the manifest holds is no longer pending.
    this.committed = manifest;
    this.tablesSinceBase = tables.rebased ? new Set() : tables.changedSinceBase;
    this.rebaseTables = false;
    this.rewriteAll = false;
    index.tables.files.changed.clear();
    for (const field of Object.keys(LEXICAL_FILES) as LexicalField[]) index.lexical[field].markCommitted();
    return { writes: draft.writes, names: Object.keys(draft.digests), after: () => this.collectGarbage() };
  }

  /** The tables' part of a save: a new base when due, else their changes in the delta. */
  private stageTables(tables: IndexTables, draft: SaveDraft): { rebased: boolean; changedSinceBase: Set<string> } {
    const { prev, seq, fold } = draft;
    const changedSinceBase = new Set(this.tablesSinceBase);
    for (const rel of tables.files.changed) moveToEnd(changedSinceBase, rel);
    const rebased = !prev || draft.rewriteAll || this.rebaseTables || tablesRebaseDue({ changedSinceBase: changedSinceBase.size, files: tables.files.count, minFiles: this.tablesRebaseMinFiles });
    if (rebased) {
      const name = baseFileName('tables', seq);
      // Streamed from the tables' columns now, as a lexical base is: handed to the writer thread it
      // had to be one buffer, a copy of the whole tables (docs/investigations/cold-build-memory.md).
      const digest = writePartsAtomic(path.join(this.dir, name), tablesParts(tables));
      this.disk.wrote(digest.bytes);
      draft.digests[name] = digest.sha256;
      draft.bases.tables = { file: name, from: seq };
    } else {
      // Nothing since the base (or all of it in this delta, folding): earlier deltas are not needed.
      draft.bases.tables = fold || changedSinceBase.size === 0 ? { file: prev.bases.tables.file, from: seq } : prev.bases.tables;
      const rels = fold ? changedSinceBase : tables.files.changed;
      if (rels.size) draft.delta.tables = tablesDelta(tables, rels);
    }
    return { rebased, changedSinceBase };
  }

  /** Each lexical field's part of a save: a base when new or merged, and its changes in the delta. */
  private stageLexical(lexical: LexicalFields, draft: SaveDraft): void {
    const { prev, seq, fold } = draft;
    for (const field of Object.keys(LEXICAL_FILES) as LexicalField[]) {
      const index = lexical[field];
      const rebase = !prev || draft.rewriteAll || !index.baseIsCommitted;
      if (rebase) {
        // A new or merged base: streams the file, then reads its postings from the new file. What
        // is not in it (documents added since the merge, dead marks) goes in this save's delta.
        const name = baseFileName(field, seq);
        const digest = index.saveBase(path.join(this.dir, name));
        this.disk.wrote(digest.bytes);
        draft.digests[name] = digest.sha256;
        draft.bases[field] = { file: name, from: seq };
      } else {
        draft.bases[field] = fold || index.pendingDocs === 0 ? { file: prev.bases[field].file, from: seq } : prev.bases[field];
      }
      const part = index.deltaPart(fold || rebase);
      // An empty part is left out, also when folding: the component's base then holds it all.
      if (part.removed.length || part.ids.length) draft.delta.lexical[field] = part;
    }
  }

  /** The manifest of a drafted save (its delta segment queued for writing when it holds anything). */
  private draftManifest({ tables, modelId, dim, fields, omittedForSize = [] }: IndexToSave, draft: SaveDraft, vectors: VectorCommit | undefined): Manifest {
    const { seq, prev, delta, bases, digests } = draft;
    const deltas = [...(prev?.deltas ?? [])];
    if (delta.tables || Object.keys(delta.lexical).length) {
      const name = deltaFileName(seq);
      const buf = encodeDelta(delta);
      draft.writes.push({ file: path.join(this.dir, name), data: buf, syncDir: false }); // the manifest's write syncs the directory
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
      ...(vectors ? { vectors } : {}),
    };
    // Kept lists are not rehashed: the vector index carries their digest from when it wrote or checked them.
    const vectorDigests = Object.fromEntries(Object.entries(vectors?.files ?? {}).map(([n, d]) => [vectorFilePath(n), d.sha256]));
    for (const name of listedFiles(manifest)) manifest.digests[name] = digests[name] ?? vectorDigests[name] ?? prev!.digests[name];
    return manifest;
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
      if (STORE_FILE_PATTERN.test(name) && !listed.has(name)) this.disk.remove(path.join(this.dir, name));
    }
    // The vectors folder holds only index files: anything unlisted there (an older commit's, a temp file) goes.
    const vectorsDir = path.join(this.dir, VECTORS_DIR);
    if (!fs.existsSync(vectorsDir)) return;
    for (const name of fs.readdirSync(vectorsDir)) {
      if (!listed.has(vectorFilePath(name))) this.disk.remove(path.join(vectorsDir, name));
    }
  }

  /** Removes every index file (before a rebuild), but not the writer lock nor the team index's downloads. */
  clear(): void {
    this.committed = undefined;
    this.tablesSinceBase = new Set();
    this.disk.unknown();
    this.manifestBytes = 0;
    if (!fs.existsSync(this.dir)) return;
    for (const name of fs.readdirSync(this.dir)) {
      // The lock stays held; the team index's downloads stay for the next sync to resume.
      if (name === LOCK_FILE_NAME || name === TEAM_SYNC_DIR) continue;
      fs.rmSync(path.join(this.dir, name), { recursive: true, force: true });
    }
  }
}
