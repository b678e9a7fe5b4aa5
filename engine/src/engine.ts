// The engine: keeps a workspace's index on disk fresh and answers "what code does the next line
// need?". Plain TypeScript (no `vscode`), used by the CLI, the benchmark and the extension's worker.
import * as fs from 'fs';
import * as path from 'path';
import type { CompletionResult, EngineOptions, IndexProgress, IndexStats, RetrieveOptions } from './api';
import { Chunker } from './chunk';
import { OnnxEmbedder, type OnnxRuntimeLoader } from './embed';
import { lexicalTerms } from './lexical/tokenize';
import { HybridIndex } from './retrieve/hybrid';
import { DEFAULT_WEIGHTS, fieldsFor, type FusionWeights } from './retrieve/weights';
import { OPTIONAL_FIELDS, type OptionalField } from './retrieve/signal';
import type { DocInfo } from './store/chunkTable';
import { buildQuery, pathPrefix, type QueryOptions } from './retrieve/query';
import { prepareHypothetical } from './retrieve/hyde';
import { classifyContent, countSkips, isSecretPath, scanWorkspace } from './scan';
import { IndexStore, sha1 } from './index/indexStore';
import { emptyTables, type IndexTables } from './index/tables';
import type { ChunkedFile, EditorState, RetrievedChunk, SkippedFile } from './types';
import { completeFromSources, type CompletionSource } from './complete/builtin';
import { boundNames, normalizedTerms } from './lexical/normalize';
import { DEFAULT_COMPACT, DEFAULT_LINES_PER_HIT, packHits } from './retrieve/pack';
import { fieldsToLeaveOut, queryBudget } from './indexer/sizePolicy';
import { SaveSchedule } from './indexer/saveSchedule';
import { contentChange, statUnchanged } from './indexer/changes';
import { buildDocuments, type DocumentItem } from './indexer/documents';
import { VectorReuse } from './indexer/vectorReuse';
import { Buffers } from './indexer/buffers';
import { splitLines } from './util/lines';
import { Breather } from './util/breathe';
import { acquireWriterLock, type HeldLock } from './store/lock';
import { SymbolLookup, type SymbolInfo } from './retrieve/symbols';
import { loadModel, type LoadedModel } from './modelPaths';

/** Options beyond the public EngineOptions that the benchmark and tests tune. */
export interface EngineTuning {
  weights?: Partial<FusionWeights>;
  query?: QueryOptions;
  /** Default for RetrieveOptions.maxLinesPerHit. */
  maxLinesPerHit?: number;
  /** Default for RetrieveOptions.compact. */
  compact?: boolean;
  /** Default for RetrieveOptions.maxPerFile. */
  maxPerFile?: number;
  /** Default for RetrieveOptions.novelty. */
  novelty?: number;
  /** Build every optional lexical field, whatever the weights (ablations switch stages per query). */
  allFields?: boolean;
  /** Overrides LARGE_REPO_FILES (tests use a small fixture). */
  largeRepoFiles?: number;
  /** How often a long indexAll saves its progress (ms). Default 30 s. */
  checkpointMs?: number;
  /**
   * Replaces the require of onnxruntime-node (default: embed/onnxRuntime.ts's requireOnnxRuntime).
   * Tests pass one that throws, to open the engine as on a platform without the native runtime.
   */
  loadOnnxRuntime?: OnnxRuntimeLoader;
}

interface Pending {
  rel: string;
  /** The text, for an unsaved buffer; files on disk are read again when they are added, so a
   *  cold index of a large workspace does not hold every file's text between parsing and embedding. */
  content?: string;
  hash: string;
  size: number;
  mtimeMs: number;
  chunked: ChunkedFile;
}

/** Chunks embedded per model run during a full index. */
const EMBED_BATCH = 64;
/**
 * Single-file updates (an unsaved buffer 750 ms after typing stops, a save) embed this many chunks
 * per model run: the model serves one run at a time, and a keystroke's query vector waits for the
 * run in progress. A 64-chunk run of a 1,100-line test file took 150-250 ms of that wait.
 */
const UPDATE_EMBED_BATCH = 8;
/** Built-in completion: non-blank lines before the cursor that find chunks, and chunks per search. */
const COMPLETION_QUERY_LINES = 3;
const COMPLETION_CHUNKS = 16;
/** During a long indexAll, progress is saved this often. */
const CHECKPOINT_MS = 30_000;
/** Longest stretch of indexing work between two turns of the engine's event loop (util/breathe.ts). */
const BREATHE_EVERY_MS = 20;

export class Engine {
  /** Files, chunks (shared with the index) and definitions as compact tables; see index/tables.ts. */
  private tables!: IndexTables;
  private index!: HybridIndex;
  /** Unsaved editor buffers and recently used files' lines. */
  private readonly buffers: Buffers;
  private lastSkipped: SkippedFile[] = [];
  private lastChanged = 0;
  private lastSeconds = 0;
  private dirty = false;
  /** Held while this engine may write the index; absent when another process writes it. */
  private lock: HeldLock | undefined;
  tuning: EngineTuning = {};

  private constructor(
    readonly opts: EngineOptions,
    private readonly chunker: Chunker,
    private readonly embedder: OnnxEmbedder | undefined,
    private readonly store: IndexStore,
  ) {
    this.buffers = new Buffers((rel) => fs.readFileSync(path.join(opts.root, rel), 'utf8'), splitLines);
  }

  static async open(opts: EngineOptions, tuning: EngineTuning = {}): Promise<Engine> {
    const log = opts.log ?? (() => undefined);
    const chunker = await Chunker.create();
    const { model, warning } = opts.dense === false ? { model: undefined, warning: undefined } : await loadModel(opts, log, tuning.loadOnnxRuntime);
    const engine = new Engine(opts, chunker, model?.embedder, new IndexStore(opts.indexDir));
    engine.model = model;
    engine.modelWarning = warning;
    engine.tuning = tuning;
    fs.mkdirSync(opts.indexDir, { recursive: true });
    const lock = acquireWriterLock(opts.indexDir);
    if ('heldBy' in lock) {
      log(`the index at ${opts.indexDir} is written by process ${lock.heldBy.pid} on ${lock.heldBy.hostname}; this engine reads it and keeps its own changes in memory`);
    } else {
      engine.lock = lock;
    }
    engine.loadOrReset();
    return engine;
  }

  /** The embedding model in use (undefined: dense off). */
  private model: LoadedModel | undefined;
  /** Why the configured model is not the one in use, or why there is none (no ONNX runtime here). */
  private modelWarning: string | undefined;

  private get log(): (line: string) => void {
    return this.opts.log ?? (() => undefined);
  }

  /** Optional fields this index left out because the repository is large (kept in the manifest). */
  private omittedForSize = new Set<OptionalField>();

  /** The optional lexical fields the current tuning reads. */
  private get wantedFields(): Set<OptionalField> {
    return this.tuning.allFields ? new Set(OPTIONAL_FIELDS) : fieldsFor(this.tuning.weights ?? {});
  }

  /** The optional fields this index fills: the wanted ones less those left out for size. */
  private get fields(): Set<OptionalField> {
    return new Set([...this.wantedFields].filter((f) => !this.omittedForSize.has(f)));
  }

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

  private loadOrReset(): void {
    this.index?.close();
    const expect = { modelId: this.embedder?.modelId ?? null, dim: this.embedder?.dim ?? 0, fields: [...this.wantedFields] };
    const loaded = this.store.load(expect);
    if ('error' in loaded) {
      if (!loaded.missing) this.log(`index at ${this.store.dir} cannot be used (${loaded.error}); rebuilding it${this.lock ? '' : ' in memory (another process writes it)'}`);
      if (this.lock) this.store.clear();
      this.omittedForSize = new Set();
      this.index = new HybridIndex(this.embedder ? { dim: this.embedder.dim, modelId: this.embedder.modelId } : undefined, undefined, this.textOfDoc, this.fields);
      this.tables = emptyTables(this.index.docs);
      this.applyQueryBudget();
      return;
    }
    this.tables = loaded.tables;
    this.omittedForSize = new Set(OPTIONAL_FIELDS.filter((f) => loaded.omittedForSize.includes(f)));
    this.index = new HybridIndex(undefined, { ...loaded, docs: this.tables.chunks }, this.textOfDoc, this.fields);
    this.log(`index loaded: ${this.tables.files.count} files, ${this.tables.chunks.size} chunks`);
    this.applyQueryBudget();
  }

  /** The lexical work budget for a workspace of `files` files (the option wins). */
  private applyQueryBudget(files = this.tables.files.count): void {
    const budget = queryBudget(files, this.opts.maxQueryPostings, this.tuning.largeRepoFiles);
    if (budget !== undefined) this.index.lexical.maxQueryPostings = budget;
  }

  stats(): IndexStats {
    return {
      files: this.tables.files.count,
      chunks: this.tables.chunks.size,
      skipped: countSkips(this.lastSkipped),
      changedFiles: this.lastChanged,
      indexBytes: this.store.diskBytes(),
      seconds: this.lastSeconds,
      modelDir: this.model?.dir ?? null,
      ...(this.modelWarning ? { modelWarning: this.modelWarning } : {}),
    };
  }

  /** Files the last scan passed over, with reasons. */
  skippedFiles(): readonly SkippedFile[] {
    return this.lastSkipped;
  }

  /** Brings the index up to date with the workspace: only new or changed files are parsed and embedded. */
  async indexAll(onProgress?: (p: IndexProgress) => void, signal?: AbortSignal): Promise<IndexStats> {
    const t0 = performance.now();
    onProgress?.({ phase: 'scan', done: 0, total: 0 });
    const scan = await scanWorkspace(this.opts.root, {
      maxFileBytes: this.opts.maxFileBytes,
      excludePatterns: this.opts.excludePatterns,
      secretPatterns: this.opts.secretPatterns,
      extensions: this.opts.extensions,
      contentCheck: 'none',
      signal,
    });
    this.limitFieldsForSize(scan.files.length);
    this.applyQueryBudget(scan.files.length);
    const skipped = [...scan.skipped];
    const seen = new Set<string>();
    const pending: Pending[] = [];
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
      pending.push({ rel: f.relPath, hash, size: f.size, mtimeMs: f.mtimeMs, chunked });
      this.setDefinitions(f.relPath, chunked);
      onProgress?.({ phase: 'parse', done: ++done, total: scan.files.length, file: f.relPath });
    }
    for (const rel of this.tables.files.relPaths()) if (!seen.has(rel)) this.dropFile(rel);
    await this.addPending(pending, onProgress, signal);
    this.lastSkipped = skipped;
    this.lastChanged = pending.length;
    if (this.dirty) this.save();
    this.lastSeconds = (performance.now() - t0) / 1000;
    return this.stats();
  }

  private setDefinitions(rel: string, chunked: ChunkedFile): void {
    this.tables.defs.setFile(rel, chunked.definitions.map((d) => ({ name: d.name, file: rel, signature: d.signature, chunkId: -1 })));
  }

  private dropFile(rel: string): void {
    if (!this.tables.files.has(rel)) return;
    for (const id of this.tables.chunks.idsOfFile(rel)) this.index.remove(id);
    this.tables.files.delete(rel);
    this.tables.defs.removeFile(rel);
    this.buffers.forgetLines(rel);
    this.dirty = true;
  }

  /** Chunks → enriched text → embeddings → indexes, in batches. */
  private async addPending(pending: Pending[], onProgress?: (p: IndexProgress) => void, signal?: AbortSignal, single = false): Promise<void> {
    let lastCheckpoint = performance.now();
    let items: DocumentItem[] = [];
    let embedded = 0;
    const total = pending.reduce((s, p) => s + p.chunked.chunks.length, 0);
    const breather = new Breather(BREATHE_EVERY_MS, signal);
    const batch = single ? UPDATE_EMBED_BATCH : EMBED_BATCH;
    const flush = async () => {
      if (!items.length) return;
      const vecs = !this.embedder ? undefined : single ? await this.vectorReuse.embed(items.map((i) => i.text), (t) => this.embedder!.embed(t)) : await this.embedder.embed(items.map((i) => i.text), signal);
      // Folding pending vectors into the lists takes seconds at scale; done here, it pauses for
      // the event loop instead of blocking inside add.
      const vectors = this.index.vectors;
      if (vecs && vectors?.wouldRebuildOnAdd(items.length)) await vectors.rebuildAsync(() => breather.breathe());
      items.forEach((it, i) => this.index.add({ ...it.chunk, indexText: it.text, code: it.code, docText: it.docText, vector: vecs?.[i] }));
      embedded += items.length;
      onProgress?.({ phase: 'embed', done: embedded, total });
      items = [];
    };
    for (const p of pending) {
      await breather.breathe();
      signal?.throwIfAborted();
      this.dropFile(p.rel);
      let content = p.content;
      if (content === undefined) {
        try {
          content = fs.readFileSync(path.join(this.opts.root, p.rel), 'utf8');
        } catch {
          continue; // gone since it was parsed: the next scan drops it
        }
        const hash = sha1(content);
        if (hash !== p.hash) {
          // Changed since it was parsed: parse the new text (its definitions too).
          p.hash = hash;
          p.chunked = await this.chunker.chunk(p.rel, content);
          this.setDefinitions(p.rel, p.chunked);
        }
      }
      const lines = splitLines(content);
      const built = buildDocuments(p.rel, lines, p.chunked, this.tables.defs, () => this.tables.nextChunkId++);
      for (const item of built.items) {
        items.push(item);
        if (items.length >= batch) await flush();
      }
      this.tables.files.set(p.rel, { hash: p.hash, size: p.size, mtimeMs: p.mtimeMs, language: p.chunked.language });
      this.tables.defs.setFile(p.rel, built.definitions);
      this.buffers.cacheLines(p.rel, lines);
      this.dirty = true;
      // A long first index saves its progress now and then, so a crash or a closed window resumes
      // from there: files already saved are skipped by their content hash next time.
      if (performance.now() - lastCheckpoint > (this.tuning.checkpointMs ?? CHECKPOINT_MS)) {
        await flush();
        this.save();
        lastCheckpoint = performance.now();
      }
    }
    await flush();
  }

  private readonly vectorReuse = new VectorReuse();
  private readonly saves = new SaveSchedule(() => {
    if (this.dirty) this.save();
  });

  /** Single-file updates arrive per keystroke pause; writing the index once they settle is enough. */
  private scheduleSave(): void {
    this.saves.schedule(this.tables.chunks.size);
  }

  /** Writes pending changes now (tests, shutdown). */
  flush(): void {
    this.saves.cancel();
    if (this.dirty) this.save();
  }

  /** Whether this engine writes the index (false when another window or process holds the lock). */
  get writable(): boolean {
    return this.lock !== undefined;
  }

  private save(): void {
    if (!this.lock) return;
    this.store.save(this.tables, this.index, this.index.vectors, this.embedder?.modelId ?? null, this.embedder?.dim ?? 0, [...this.index.fields], [...this.omittedForSize]);
    this.dirty = false;
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
      const abs = path.join(this.opts.root, relPath);
      try {
        const st = fs.statSync(abs);
        const tooLarge = st.size > (this.opts.maxFileBytes ?? 1 << 20);
        const bytes = tooLarge ? undefined : fs.readFileSync(abs);
        if (!bytes || classifyContent(relPath, bytes)) {
          this.dropFile(relPath);
          this.scheduleSave();
          return;
        }
        text = bytes.toString('utf8');
        size = st.size;
        mtimeMs = st.mtimeMs;
      } catch {
        await this.removeFile(relPath);
        return;
      }
    }
    const hash = sha1(text);
    if (this.tables.files.get(relPath)?.hash === hash) return;
    const chunked = await this.chunker.chunk(relPath, text);
    this.setDefinitions(relPath, chunked);
    await this.addPending([{ rel: relPath, content: text, hash, size, mtimeMs, chunked }], undefined, undefined, true);
    // An unsaved buffer is not persisted on its own: the file on disk did not change (its row
    // carries mtime 0, so the next scan re-reads the file). Typing therefore never triggers a save.
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
    if (doomed.length) this.scheduleSave();
  }

  /** Current text of an indexed chunk (for query expansion). */
  private readonly textOfDoc = (d: DocInfo): string => this.linesOf(d.file).slice(d.startLine, d.endLine + 1).join('\n');

  private linesOf(file: string): string[] {
    return this.buffers.linesOf(file);
  }

  /** What the user is writing, by the model's query side; `asDocument` for code that stands in for a chunk (HyDE). */
  private async embedQuery(text: string, signal?: AbortSignal, asDocument = false): Promise<Float32Array | undefined> {
    if (!this.embedder) return undefined;
    return (await (asDocument ? this.embedder.embed([text], signal) : this.embedder.embedQueries([text], signal)))[0];
  }

  /** Ranked chunks for an editor state (or a free-text query), each with its per-signal ranks. */
  async retrieve(query: EditorState | string, opts: RetrieveOptions = {}, weights: Partial<FusionWeights> | undefined = this.tuning.weights): Promise<RetrievedChunk[]> {
    const k = opts.k ?? 10;
    const state: EditorState = typeof query === 'string' ? { file: '', prefix: query + '\n', line: -1 } : query;
    const q = buildQuery(state.file, state.prefix, this.tuning.query, state.language);
    if (typeof query === 'string') q.trimmed = q.window;
    const windowStart = state.line - (this.tuning.query?.windowLines ?? 60);
    // Chunks of the current file around the cursor hold what the user is typing or already sees.
    const currentFile = this.tables.paths.find(state.file);
    const accept = (id: number) => this.tables.chunks.existsOutside(id, currentFile, windowStart, state.line);
    const vec = weights?.dense === 0 ? undefined : await this.embedQuery(`${pathPrefix(state.file)}\n${q.trimmed}`, opts.signal);
    const hydeWeight = opts.hypothetical?.weight ?? weights?.hyde ?? DEFAULT_WEIGHTS.hyde;
    q.hypothetical = await prepareHypothetical(opts.hypothetical?.text, hydeWeight, q, (t) => weights?.dense === 0 ? Promise.resolve(undefined) : this.embedQuery(t, opts.signal, true));
    opts.signal?.throwIfAborted();
    const hits = this.index.search(q, vec, { k: Math.max(k, 10) * 3, accept, weights: { ...weights, hyde: hydeWeight }, recentFiles: state.recentFiles });
    const queryTerms = new Set(lexicalTerms(q.hypothetical ? `${q.trimmed}\n${q.hypothetical.text}` : q.trimmed));
    return packHits(hits, (file) => this.linesOf(file), {
      k,
      budgetTokens: opts.budgetTokens,
      packing: { maxLines: opts.maxLinesPerHit ?? this.tuning.maxLinesPerHit ?? DEFAULT_LINES_PER_HIT, compact: opts.compact ?? this.tuning.compact ?? DEFAULT_COMPACT, mode: opts.excerpt },
      maxPerFile: opts.maxPerFile ?? this.tuning.maxPerFile ?? Infinity,
      novelty: opts.novelty ?? this.tuning.novelty ?? 0,
      queryTerms,
      window: q.window,
    });
  }

  /**
   * The built-in, model-free completion (complete/builtin.ts): whole chunks found by the last lines
   * before the cursor (lexically and, where the index has it, by normalised structure), plus the
   * current file's earlier lines, continue the code at the cursor. No embedding: it runs per keystroke.
   */
  async complete(state: EditorState, opts: { signal?: AbortSignal; minEvidence?: number } = {}): Promise<CompletionResult | null> {
    opts.signal?.throwIfAborted();
    const prefixLines = state.prefix.split('\n');
    const typed = prefixLines.pop() ?? '';
    const recent: string[] = [];
    for (let i = prefixLines.length - 1; i >= 0 && recent.length < COMPLETION_QUERY_LINES; i--) if (prefixLines[i].trim()) recent.unshift(prefixLines[i]);
    if (!recent.length) return null;
    const text = [...recent, typed].join('\n');
    // As in retrieve: the current file's chunks around the cursor hold what the user is typing
    // (the editor's own lines are read from `state.prefix` instead).
    const currentFile = this.tables.paths.find(state.file);
    const windowStart = state.line - (this.tuning.query?.windowLines ?? 60);
    const accept = (id: number) => this.tables.chunks.existsOutside(id, currentFile, windowStart, state.line);
    const ids = new Set<number>();
    for (const h of this.index.lexical.search(lexicalTerms(text), COMPLETION_CHUNKS, accept)) ids.add(h.id);
    if (this.index.fields.has('normalized')) {
      const bound = boundNames(prefixLines.slice(-80).join('\n'));
      for (const h of this.index.normalized.search(normalizedTerms(text, bound), COMPLETION_CHUNKS, accept)) ids.add(h.id);
    }
    const sources: CompletionSource[] = [];
    for (const id of ids) {
      const d = this.index.get(id);
      if (!d) continue;
      const lines = this.linesOf(d.file);
      sources.push({ file: d.file, lines, from: d.startLine, to: Math.min(d.endLine + 1, lines.length) });
    }
    opts.signal?.throwIfAborted();
    const idfCache = new Map<string, number>();
    const idf = (token: string): number => {
      let v = idfCache.get(token);
      if (v === undefined) {
        const terms = lexicalTerms(token);
        // A name split into several sub-tokens is also indexed whole (the most specific term).
        v = terms.length === 0 ? 0 : this.index.lexical.idf(terms[terms.length - 1]);
        idfCache.set(token, v);
      }
      return v;
    };
    return completeFromSources(state, sources, { idf, minEvidence: opts.minEvidence });
  }

  /** The name at a position and what the index knows of it (retrieve/symbols.ts), or null: not a name, or unknown to the index. */
  symbolAt(relPath: string, line: number, character: number, content?: string): Promise<SymbolInfo | null> {
    this.symbolLookup ??= new SymbolLookup({
      chunker: this.chunker,
      textOf: (file) => this.buffers.overlay(file) ?? (this.tables.files.has(file) ? this.linesOf(file).join('\n') : undefined),
      definitionsOf: (name) => this.tables.defs.lookup(name),
      chunkRange: (id) => this.tables.chunks.get(id),
      chunksWithTerm: (term, k) => this.index.lexical.search([term], k).map((h) => h.id),
    });
    return this.symbolLookup.symbolAt(relPath, line, character, content ?? this.buffers.overlay(relPath) ?? (this.tables.files.has(relPath) ? undefined : readText(path.join(this.opts.root, relPath))));
  }

  private symbolLookup: SymbolLookup | undefined;

  /** Terms a text contributes to the lexical index (exposed for "why was this retrieved"). */
  static terms(text: string): string[] {
    return lexicalTerms(text);
  }

  async close(): Promise<void> {
    this.flush();
    this.symbolLookup?.dispose();
    this.index.close();
    this.lock?.release();
    this.lock = undefined;
    await this.embedder?.dispose();
    await this.chunker.dispose();
  }
}

function readText(abs: string): string | undefined {
  try {
    return fs.readFileSync(abs, 'utf8');
  } catch {
    return undefined;
  }
}
