// A workspace's index kept fresh: loading it (or starting over), scanning for changed files,
// parsing and embedding them into documents, and writing the index when changes settle. The
// Engine (engine.ts) owns one and answers queries from its tables and index.
import * as fs from 'fs';
import * as path from 'path';
import type { EngineOptions, IndexProgress } from '../api';
import type { Chunker } from '../chunk';
import type { OnnxEmbedder } from '../embed';
import { HybridIndex } from '../retrieve/hybrid';
import { fieldsFor } from '../retrieve/weights';
import { OPTIONAL_FIELDS, type OptionalField } from '../retrieve/signal';
import type { DocInfo } from '../store/chunkTable';
import { isSecretPath, readSourceText } from '../scan';
import { WorkspaceScan } from './workspaceScan';
import { sha1, type IndexStore } from '../index/indexStore';
import { emptyTables, type IndexTables } from '../index/tables';
import type { ChunkedFile, SkippedFile } from '../types';
import type { HeldLock } from '../store/lock';
import { unwritableReason } from '../store/writeAccess';
import { splitLines } from '../util/lines';
import { Breather, nextTurn } from '../util/breathe';
import { fieldsToLeaveOut, queryBudget } from './sizePolicy';
import { SaveQueue, SaveSchedule } from './saveSchedule';
import { contentChange, statUnchanged } from './changes';
import { definitionRefs, documentItems, redactedText, type DocumentItem } from './documents';
import { VectorReuse } from './vectorReuse';
import { DocumentSink, type DocumentSinkOptions } from './documentSink';
import { SegmentMerges } from './segmentMerges';
import { mergeAllAfterIndexing } from '../store/mergePolicy';
import { Buffers } from './buffers';
import { CalleeChanges, readForUpdate } from './calleeChanges';
import { ParsedSpill, currentText, type Pending } from './parsedSpill';
import { BREATHE_EVERY_MS, CHECKPOINT_MS, EMBED_BATCH, UPDATE_BREATHE_EVERY_MS, UPDATE_EMBED_BATCH, type IndexTuning } from './indexTuning';
export type { IndexTuning } from './indexTuning';

export class WorkspaceIndex {
  /** Files, chunks (shared with the index) and definitions as compact tables; see index/tables.ts. */
  tables!: IndexTables;
  index!: HybridIndex;
  /** Unsaved editor buffers and recently used files' lines. */
  readonly buffers: Buffers;
  lastSkipped: SkippedFile[] = [];
  /** Ignore rules the last scan did not apply (beyond the matching budget), each naming its file. */
  lastScanWarnings: string[] = [];
  private readonly workspaceScan: WorkspaceScan;
  lastChanged = 0;
  lastSeconds = 0;
  private dirty = false;
  /** Held while this engine may write the index; absent when another process writes it. */
  private lock: HeldLock | undefined;

  /** Optional fields this index left out because the repository is large (kept in the manifest). */
  private omittedForSize = new Set<OptionalField>();
  private readonly calleeChanges = new CalleeChanges({
    root: () => this.opts.root, lexical: () => this.index.lexical, fileOf: (id) => this.tables.chunks.fileOf(id), overlay: (rel) => this.buffers.overlay(rel), drop: (rel) => this.dropFile(rel, true),
    parse: async (rel, text) => { const chunked = await this.chunker.chunk(rel, text); this.setDefinitions(rel, chunked); return chunked; },
  });
  private readonly merges = new SegmentMerges(BREATHE_EVERY_MS, (line) => this.log(line));
  private readonly vectorReuse = new VectorReuse();
  readonly saves = new SaveSchedule(() => {
    this.save().catch((e) => this.log(`index save failed (retried with the next change): ${(e as Error).message}`));
  });
  /** Why this process does not write the index (store/writeAccess.ts), and why its last save failed. */
  notWriting: string | undefined;
  private saveError: string | undefined;
  readonly saveQueue = new SaveQueue(); // saves one after another; a synced team index is installed in it (team/syncedIndex.ts)

  constructor(
    readonly opts: EngineOptions,
    private readonly chunker: Chunker,
    private readonly embedder: OnnxEmbedder | undefined,
    readonly store: IndexStore,
    /** The engine's current tuning (the benchmark changes it between runs). */
    private readonly tuningOf: () => IndexTuning,
    lock: HeldLock | undefined,
  ) {
    this.buffers = new Buffers((rel) => readSourceText(path.join(opts.root, rel)), splitLines);
    this.lock = lock;
    this.workspaceScan = new WorkspaceScan(store.dir, (s) => this.log(s), () => !!this.lock);
  }

  private get tuning(): IndexTuning { return this.tuningOf(); }
  private get log(): (line: string) => void { return this.opts.log ?? (() => undefined); }

  /** The optional lexical fields the current tuning reads. */
  get wantedFields(): Set<OptionalField> { return this.tuning.allFields ? new Set(OPTIONAL_FIELDS) : fieldsFor(this.tuning.weights ?? {}); }

  /** The optional fields this index fills: the wanted ones less those left out for size. */
  private get fields(): Set<OptionalField> { return new Set([...this.wantedFields].filter((f) => !this.omittedForSize.has(f))); }

  /** Leaves out the size-limited fields once the workspace has more than LARGE_REPO_FILES files. */
  private limitFieldsForSize(files: number): void {
    if (this.tuning.allFields) return;
    for (const f of fieldsToLeaveOut(files, this.index.fields, this.tuning.largeRepoFiles)) {
      this.omittedForSize.add(f);
      this.index.emptyField(f);
      this.dirty = true;
      this.log(`${files} files: the ${f} field is left out of this index to bound its memory (kept so until the index is rebuilt)`);
    }
  }

  loadOrReset(): void {
    this.dirty = false;
    this.index?.close();
    const expect = { modelId: this.embedder?.modelId ?? null, dim: this.embedder?.dim ?? 0, fields: [...this.wantedFields] };
    const loaded = this.store.load(expect);
    if ('error' in loaded) {
      if (!loaded.missing) this.log(`index at ${this.store.dir} cannot be used (${loaded.error}); rebuilding it${this.lock ? '' : ` in memory (${this.notWriting ?? 'not writing it'})`}`);
      if (this.lock) this.store.clear();
      this.omittedForSize = new Set();
      this.index = new HybridIndex(this.embedder ? { dim: this.embedder.dim, modelId: this.embedder.modelId } : undefined, undefined, this.textOfDoc, this.fields, { mergeMinDocs: this.tuning.lexicalMergeMinDocs });
      if (this.index.vectors) this.index.vectors.rebuildOnSave = false; // SegmentMerges does it, in slices
      this.tables = emptyTables(this.index.docs);
      this.applyQueryBudget();
      return;
    }
    this.tables = loaded.tables;
    // Files of saves that never committed (a crash mid-save) or that a merge replaced.
    if (this.lock) this.store.collectGarbage();
    this.omittedForSize = new Set(OPTIONAL_FIELDS.filter((f) => loaded.omittedForSize.includes(f)));
    this.index = new HybridIndex(undefined, { ...loaded, docs: this.tables.chunks }, this.textOfDoc, this.fields);
    if (this.index.vectors) this.index.vectors.rebuildOnSave = false;
    this.log(`index loaded: ${this.tables.files.count} files, ${this.tables.chunks.size} chunks`);
    this.applyQueryBudget();
  }

  /** The lexical work budget for a workspace of `files` files (the option wins). */
  private applyQueryBudget(files = this.tables.files.count): void {
    const budget = queryBudget(files, this.opts.maxQueryPostings, this.tuning.largeRepoFiles);
    if (budget !== undefined) this.index.lexical.maxQueryPostings = budget;
  }

  /** Brings the index up to date with the workspace: only new or changed files are parsed and embedded. */
  async indexAll(onProgress?: (p: IndexProgress) => void, signal?: AbortSignal): Promise<void> {
    const t0 = performance.now();
    onProgress?.({ phase: 'scan', done: 0, total: 0 });
    const scan = await this.workspaceScan.scan(this.opts, signal);
    this.lastScanWarnings = scan.warnings;
    this.limitFieldsForSize(scan.files.length);
    this.applyQueryBudget(scan.files.length);
    const skipped = [...scan.skipped];
    const seen = new Set<string>();
    const pending: Pending[] = [];
    const spill = new ParsedSpill();
    try {
      let done = 0;
      const breather = new Breather(BREATHE_EVERY_MS, signal);
      for (const f of scan.files) {
        await breather.breathe();
        signal?.throwIfAborted();
        seen.add(f.relPath);
        const old = this.tables.files.get(f.relPath);
        if (statUnchanged(old, f)) continue;
        let bytes: Buffer;
        try {
          bytes = fs.readFileSync(f.absPath);
        } catch (e) {
          skipped.push({ relPath: f.relPath, reason: 'unreadable', detail: (e as Error).message });
          continue;
        }
        const change = contentChange(f.relPath, bytes, old);
        if (change.kind === 'skip') {
          skipped.push({ relPath: f.relPath, reason: change.reason });
          seen.delete(f.relPath);
          continue;
        }
        if (change.kind === 'touched') {
          this.tables.files.setMtime(f.relPath, f.mtimeMs);
          this.dirty = true;
          continue;
        }
        const { content, hash } = change;
        const chunked = await this.chunker.chunk(f.relPath, content);
        pending.push({ rel: f.relPath, hash, size: f.size, mtimeMs: f.mtimeMs, chunked: spill.put(chunked), chunks: chunked.chunks.length });
        this.setDefinitions(f.relPath, chunked);
        onProgress?.({ phase: 'parse', done: ++done, total: scan.files.length, file: f.relPath });
      }
      for (const rel of this.tables.files.relPaths()) if (!seen.has(rel)) this.dropFile(rel);
      await this.calleeChanges.dependents(new Set(pending.map((p) => p.rel)), (dep) => pending.push({ ...dep, chunked: spill.put(dep.chunked), content: undefined }));
      await this.coldBuild(pending, spill, onProgress, signal);
      await this.reindexDependents(new Set()); // files parsed anew in coldBuild (changed meanwhile) may have moved definitions
    } finally {
      spill.close();
    }
    this.lastSkipped = skipped;
    this.lastChanged = pending.length;
    // A cold build (or many changes) ends merged, in bases only: nothing to replay or fold (PARAMS.md).
    if (mergeAllAfterIndexing({ changedFiles: pending.length, files: this.tables.files.count })) {
      await this.merges.run(this.index, 'all', signal);
      this.store.rebaseTablesAtNextSave();
      this.dirty = true;
    }
    await this.save();
    this.lastSeconds = (performance.now() - t0) / 1000;
  }

  private setDefinitions(rel: string, chunked: ChunkedFile): void {
    const defs = chunked.definitions.map((d) => ({ name: d.name, file: rel, signature: redactedText(d.signature, rel), chunkId: -1 }));
    this.calleeChanges.note(this.tables.defs.ofFile(rel), defs);
    this.tables.defs.setFile(rel, defs);
  }

  /** Indexes `first`, then, with `followCallers` (never per keystroke), the callers of names whose definitions changed. */
  async reindexDependents(except: ReadonlySet<string>, first: Pending[] = [], followCallers = true): Promise<void> {
    const pending = [...first];
    if (followCallers) await this.calleeChanges.dependents(except, (dep) => pending.push(dep));
    if (pending.length) await this.liveUpdate(pending);
  }

  /** `keepDefinitions`: a file indexed again at once, whose definitions others resolve against meanwhile. */
  private dropFile(rel: string, keepDefinitions = false): void {
    if (!this.tables.files.has(rel)) return;
    for (const id of this.tables.chunks.idsOfFile(rel)) this.index.remove(id);
    this.tables.files.delete(rel);
    if (!keepDefinitions) {
      this.calleeChanges.note(this.tables.defs.ofFile(rel), []);
      this.tables.defs.removeFile(rel);
    }
    this.buffers.forgetLines(rel);
    this.dirty = true;
  }

  /** The cold build's pipeline (indexAll): documents in large batches, due merges in slices before a batch would merge inside add. */
  private async coldBuild(pending: Pending[], spill: ParsedSpill, onProgress?: (p: IndexProgress) => void, signal?: AbortSignal): Promise<void> {
    const breather = new Breather(BREATHE_EVERY_MS, signal), merge = () => this.merges.run(this.index, 'due', signal);
    const sink = this.documentSink(pending, {
      breather, batch: EMBED_BATCH, embed: (texts) => this.embedder!.embed(texts, signal), onProgress,
      beforeAdd: async (count) => { if (SegmentMerges.wouldMergeOnAdd(this.index, count)) await merge(); },
    });
    let lastCheckpoint = performance.now();
    for (const p of pending) {
      await this.indexFile(p, sink, breather, spill, signal);
      // A long first index saves its progress now and then (a crash or a closed window resumes
      // there: saved files are skipped by hash), and after each merge, so no base waits in memory.
      if (performance.now() - lastCheckpoint > (this.tuning.checkpointMs ?? CHECKPOINT_MS) || (this.lock && SegmentMerges.baseUnwritten(this.index))) {
        await sink.flush();
        // Merged first: the save writes the new base, not a delta of every document since the last merge (PARAMS.md).
        if (this.lock) await merge();
        await this.save();
        lastCheckpoint = performance.now();
      }
    }
    await sink.flush();
  }

  /** The live-update pipeline (a file saved or typed in, its dependents): small batches, vectors reused, pausing for queries. */
  private async liveUpdate(pending: Pending[]): Promise<void> {
    const breather = new Breather(UPDATE_BREATHE_EVERY_MS, undefined, this.tuning.foreground);
    const sink = this.documentSink(pending, { breather, batch: UPDATE_EMBED_BATCH, embed: (texts) => this.vectorReuse.embed(texts, (t) => this.embedder!.embed(t)) });
    let lastCheckpoint = performance.now();
    for (const p of pending) {
      await this.indexFile(p, sink, breather, undefined, undefined, () => breather.breathe());
      if (performance.now() - lastCheckpoint > (this.tuning.checkpointMs ?? CHECKPOINT_MS)) {
        await sink.flush();
        await this.save();
        lastCheckpoint = performance.now();
      }
    }
    await sink.flush();
  }

  /** A sink for `pending`'s documents; `embed` is used only with a model. */
  private documentSink(pending: Pending[], o: Pick<DocumentSinkOptions, 'breather' | 'batch' | 'onProgress' | 'beforeAdd'> & { embed: NonNullable<DocumentSinkOptions['embed']> }): DocumentSink {
    const { embedder } = this, model = embedder && { modelId: embedder.modelId, dim: embedder.dim }, total = pending.reduce((s, p) => s + p.chunks, 0);
    return new DocumentSink({ ...o, index: () => this.index, embed: embedder && o.embed, model, total, onIndexed: this.tuning.onIndexed });
  }

  /** One file of a pipeline: its current text (parsed anew if it changed since), its documents into `sink`, its definitions and row. */
  private async indexFile(p: Pending, sink: DocumentSink, breather: Breather, spill: ParsedSpill | undefined, signal: AbortSignal | undefined, perChunk?: () => Promise<void>): Promise<void> {
    await breather.breathe();
    signal?.throwIfAborted();
    this.dropFile(p.rel, true);
    const current = await currentText(p, spill, this.opts.root, this.chunker);
    if (current === 'gone') {
      // Gone since it was parsed: the next scan drops it; its callers are enriched without it.
      this.calleeChanges.note(this.tables.defs.ofFile(p.rel), []);
      this.tables.defs.removeFile(p.rel);
      return;
    }
    const { content, chunked } = current;
    if (current.reparsed) this.setDefinitions(p.rel, chunked);
    const lines = splitLines(content);
    const fileItems: DocumentItem[] = [];
    for (const item of documentItems(p.rel, lines, chunked, this.tables.defs, () => this.tables.nextChunkId++)) {
      fileItems.push(item);
      await sink.push(item, p.hash);
      await perChunk?.();
    }
    const row = { hash: p.hash, size: p.size, mtimeMs: p.mtimeMs, language: chunked.language };
    sink.afterChunks(() => this.tables.files.set(p.rel, row));
    const defs = definitionRefs(p.rel, chunked, fileItems);
    this.tables.defs.setFile(p.rel, defs);
    this.tuning.onIndexed?.file(p.rel, p.hash, chunked.language, defs);
    this.buffers.cacheLines(p.rel, lines);
    this.dirty = true;
  }

  /** Single-file updates arrive per keystroke pause; writing the index once they settle is enough. */
  private scheduleSave(): void {
    this.saves.schedule(this.tables.chunks.size);
  }

  /** Writes pending changes now (tests, shutdown); resolves when they are on disk. */
  async flush(): Promise<void> {
    this.saves.cancel();
    await this.save();
  }

  /** Whether this process writes the index (false when another window or process holds the lock). */
  get writable(): boolean { return this.lock !== undefined; }
  get updatesPaused(): string | undefined { return this.notWriting ?? (this.saveError && `the last save failed: ${this.saveError}`); }

  /**
   * Commits the changes not yet saved, after any save still being written. Bases due are written
   * at once; the small files (a delta, the manifest) by a thread, so queries run while they reach
   * the disk (store/writerThread.ts). Resolves once this save is on disk.
   */
  save(): Promise<void> {
    return this.saveQueue.run(async () => {
      if (!this.dirty || !this.lock) return;
      const t0 = performance.now();
      // Changes made while the files are written set it again: they go in the next save.
      this.dirty = false;
      let written: string[];
      try {
        written = await this.store.saveAsync({ tables: this.tables, lexical: this.index, vectors: this.index.vectors, modelId: this.embedder?.modelId ?? null, dim: this.embedder?.dim ?? 0, fields: [...this.index.fields], omittedForSize: [...this.omittedForSize] });
      } catch (err) {
        this.dirty = true;
        this.saveError = unwritableReason(err) ?? (err as Error).message;
        throw err;
      }
      this.saveError = undefined;
      this.log(`index saved in ${(performance.now() - t0).toFixed(0)} ms: ${written.join(', ')}`);
      // Merges what is due in the background; the save after it commits the new bases.
      const index = this.index;
      this.merges.background(index, () => this.index === index && ((this.dirty = true), this.scheduleSave()));
    });
  }

  /**
   * Re-indexes one file: from `content` (an unsaved editor buffer) when given, else from disk.
   * A file that is now ignored, secret or unreadable leaves the index.
   */
  async updateFile(relPath: string, content?: string): Promise<void> {
    if (isSecretPath(relPath, this.opts.secretPatterns)) return;
    this.buffers.setOverlay(relPath, content);
    let text = content;
    let size = content !== undefined ? Buffer.byteLength(content) : 0;
    let mtimeMs = 0;
    if (text === undefined) {
      const read = readForUpdate(this.opts.root, relPath, this.opts.maxFileBytes ?? 1 << 20);
      if (!read) return this.removeFile(relPath);
      if (read === 'drop') {
        this.dropFile(relPath);
        await this.reindexDependents(new Set([relPath]));
        return this.scheduleSave();
      }
      ({ content: text, size, mtimeMs } = read);
    }
    const hash = sha1(text);
    // Callers of names an unsaved buffer redefined are followed at the file's next update from disk (a save).
    const followCallers = content === undefined;
    if (this.tables.files.get(relPath)?.hash === hash) return followCallers ? this.reindexDependents(new Set([relPath])) : undefined;
    // A buffer being typed in is re-parsed from its previous tree; then queries waiting meanwhile go first.
    const chunked = await this.chunker.chunk(relPath, text, { incremental: content !== undefined });
    await nextTurn();
    this.setDefinitions(relPath, chunked);
    await this.reindexDependents(new Set([relPath]), [{ rel: relPath, content: text, hash, size, mtimeMs, chunked, chunks: chunked.chunks.length }], followCallers);
    // Typing never saves: the file on disk did not change (its row's mtime 0 makes the next scan re-read it).
    if (content === undefined) this.scheduleSave();
  }

  /** Drops a file, or every file under a directory (a deleted folder arrives as one event). */
  async removeFile(relPath: string): Promise<void> {
    const dirPrefix = relPath.replace(/\/+$/, '') + '/';
    const doomed = this.tables.files.relPaths().filter((f) => f === relPath || f.startsWith(dirPrefix));
    for (const f of doomed) {
      this.buffers.setOverlay(f, undefined);
      this.dropFile(f);
    }
    this.buffers.setOverlay(relPath, undefined);
    await this.reindexDependents(new Set(doomed));
    if (doomed.length) this.scheduleSave();
  }

  /** Current text of an indexed chunk (for query expansion). */
  readonly textOfDoc = (d: DocInfo): string => this.linesOf(d.file).slice(d.startLine, d.endLine + 1).join('\n');

  linesOf(file: string): string[] { return this.buffers.linesOf(file); }

  /** Writes pending changes, releases the index files and the writer lock. */
  async close(): Promise<void> {
    this.merges.close();
    await this.flush().catch((e) => this.log(`the last save before closing failed (the index keeps its last commit): ${(e as Error).message}`));
    await this.store.closeWriter();
    this.index.close();
    this.lock?.release();
    this.lock = undefined;
  }
}
