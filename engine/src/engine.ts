// The engine: keeps a workspace's index on disk fresh and answers "what code does the next line
// need?". Plain TypeScript (no `vscode`), used by the CLI, the benchmark and the extension's worker.
import * as fs from 'fs';
import * as path from 'path';
import type { CompletionResult, EngineOptions, IndexProgress, IndexStats, RetrieveOptions } from './api';
import { Chunker } from './chunk';
import { OnnxEmbedder, type OnnxRuntimeLoader } from './embed';
import { enrichedText, resolveCallees, type DefinitionRef } from './enrich/callgraph';
import { lexicalTerms } from './lexical/tokenize';
import { DEFAULT_WEIGHTS, fieldsFor, HybridIndex, OPTIONAL_FIELDS, type DocInfo, type FusionWeights, type OptionalField } from './retrieve/hybrid';
import { buildQuery, pathPrefix, type QueryOptions } from './retrieve/query';
import { prepareHypothetical } from './retrieve/hyde';
import { classifyContent, countSkips, isSecretPath, scanWorkspace } from './scan';
import { IndexStore, sha1 } from './store/indexStore';
import { emptyTables, type IndexTables } from './store/tables';
import type { ChunkedFile, EditorState, RetrievedChunk, SkippedFile } from './types';
import { completeFromSources, type CompletionSource } from './complete/builtin';
import { boundNames, normalizedTerms } from './lexical/normalize';
import { excerpt, namesOnScreen, selectNovel } from './retrieve/excerpt';
import { splitLines } from './util/lines';
import { Breather } from './util/breathe';
import { acquireWriterLock, type HeldLock } from './store/lock';
import { SymbolLookup, type SymbolInfo } from './retrieve/symbols';
import { loadModel, type LoadedModel } from './modelPaths';
import { declarationsFor, declarationSourceOf } from './retrieve/declarations';

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
  /** Default for RetrieveOptions.freshNames. */
  freshNames?: boolean;
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

const EMBED_BATCH = 64;
/**
 * Single-file updates (an unsaved buffer 750 ms after typing stops, a save) embed this many chunks
 * per model run: the model serves one run at a time, and a keystroke's query vector waits for the
 * run in progress. A 64-chunk run of a 1,100-line test file took 150-250 ms of that wait.
 */
const UPDATE_EMBED_BATCH = 8;
/**
 * Vectors of recently embedded chunk texts (by content hash), reused by single-file updates: while
 * the user types in a file, each update re-embeds only the chunks that changed, and the save that
 * follows re-embeds nothing. ~1 KB per vector at 256 dimensions.
 */
const UPDATE_VECTOR_CACHE = 4096;
/**
 * Lines per retrieved chunk. Chosen by ablation (700 DEV tasks, one run): with the query-window
 * excerpt, 20 lines gave protocol C new-identifier recall 0.474, 40 gave 0.460, 80 gave 0.441.
 */
const DEFAULT_LINES_PER_HIT = 20;
/**
 * Lines per chunk when lines that add no new name are dropped (freshNames): the excerpt then has
 * room for more of the chunk. Protocol C new-identifier recall at 1,024 tokens, one run each
 * (210 DEV / 240 bench-langs tasks): 0.422 / 0.527 without, 0.407 / 0.572 with 20 lines, 0.452 / 0.562 with 30.
 */
const FRESH_LINES_PER_HIT = 30;
/**
 * Retrieved text drops blank and comment-only lines by default. Full DEV, one run: protocol C
 * new-identifier recall 0.472 vs 0.468 for the core signals, 0.480 vs 0.472 with `normalized` on.
 * The built-in completion asks for the lines as written, since it continues them.
 */
const DEFAULT_COMPACT = true;
/**
 * Above this many indexable files the index leaves out the size-limited optional fields. The
 * normalized field costs ~1.5 MB of memory per 1,000 files (150 MB at 100k files, 103 MB on disk)
 * for +0.008 protocol C recall on DEV-size repositories; at 100k files the engine otherwise holds
 * ~330 MB while querying. The decision is kept in the manifest: once left out, a field stays out
 * until the index is rebuilt, so a repository near the threshold never flip-flops into rebuilds.
 */
const LARGE_REPO_FILES = 25_000;
/**
 * Lexical work budget (EngineOptions.maxQueryPostings) above LARGE_REPO_FILES; smaller indexes
 * keep Bm25Index's 250,000, which no DEV-size query reaches. 100k generated files, fresh engine
 * process, three interleaved rounds of 500 queries: p95 37.1–38.8 ms at 250,000, 26.4–29.7 ms
 * at 150,000; top-10 agreement with an exhaustive search 0.391 vs 0.362 (300 queries; no
 * relevance labels exist at that scale). Typing latency at scale is worth that little drift.
 */
const LARGE_REPO_QUERY_POSTINGS = 150_000;
/** Built-in completion: non-blank lines before the cursor that find chunks, and chunks per search. */
const COMPLETION_QUERY_LINES = 3;
const COMPLETION_CHUNKS = 16;

const SIZE_LIMITED_FIELDS: readonly OptionalField[] = ['normalized'];
/** During a long indexAll, progress is saved this often. */
const CHECKPOINT_MS = 30_000;
/** Longest stretch of indexing work between two turns of the engine's event loop (util/breathe.ts). */
const BREATHE_EVERY_MS = 20;
/** Files whose lines are kept in memory for showing retrieved chunks. */
const LINE_CACHE_FILES = 256;
/** Quiet period after single-file updates before the index is written. */
const SAVE_DELAY_MS = 2000;
/**
 * A save rewrites the whole index (at 100k files ~200 MB and seconds of the worker's time, during
 * which queries wait), so large indexes wait longer: this many ms per 1,000 chunks, up to
 * MAX_SAVE_DELAY_MS. Nothing is lost by waiting: files changed on disk since the last save are
 * found again by the next scan (size/mtime, then content hash).
 */
const SAVE_DELAY_MS_PER_1K_CHUNKS = 100;
const MAX_SAVE_DELAY_MS = 120_000;

export class Engine {
  /** Files, chunks (shared with the index) and definitions as compact tables; see store/tables.ts. */
  private tables!: IndexTables;
  private index!: HybridIndex;
  /** Unsaved editor buffers, by relPath: they win over the disk copy. */
  private readonly overlays = new Map<string, string>();
  private readonly lineCache = new Map<string, string[]>();
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
  ) {}

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
    if (this.tuning.allFields || files <= (this.tuning.largeRepoFiles ?? LARGE_REPO_FILES)) return;
    for (const f of SIZE_LIMITED_FIELDS) {
      if (!this.index.fields.has(f)) continue;
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
    const large = files > (this.tuning.largeRepoFiles ?? LARGE_REPO_FILES);
    const budget = this.opts.maxQueryPostings ?? (large ? LARGE_REPO_QUERY_POSTINGS : undefined);
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
      if (old && old.size === f.size && old.mtimeMs === f.mtimeMs) continue;
      let bytes: Buffer;
      try {
        bytes = fs.readFileSync(f.absPath);
      } catch (e) {
        skipped.push({ relPath: f.relPath, reason: 'unreadable', detail: (e as Error).message });
        continue;
      }
      const reason = classifyContent(f.relPath, bytes);
      if (reason) {
        skipped.push({ relPath: f.relPath, reason });
        seen.delete(f.relPath);
        continue;
      }
      const content = bytes.toString('utf8');
      const hash = sha1(content);
      if (old && old.hash === hash) {
        this.tables.files.setMtime(f.relPath, f.mtimeMs);
        this.dirty = true;
        continue;
      }
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
    this.lineCache.delete(rel);
    this.dirty = true;
  }

  /** Chunks → enriched text → embeddings → indexes, in batches. */
  private async addPending(pending: Pending[], onProgress?: (p: IndexProgress) => void, signal?: AbortSignal, single = false): Promise<void> {
    let lastCheckpoint = performance.now();
    type Item = { chunk: DocInfo; text: string; code: string; docText: string };
    let items: Item[] = [];
    let embedded = 0;
    const total = pending.reduce((s, p) => s + p.chunked.chunks.length, 0);
    const breather = new Breather(BREATHE_EVERY_MS, signal);
    const batch = single ? UPDATE_EMBED_BATCH : EMBED_BATCH;
    const flush = async () => {
      if (!items.length) return;
      const vecs = !this.embedder ? undefined : single ? await this.embedReusing(items.map((i) => i.text)) : await this.embedder.embed(items.map((i) => i.text), signal);
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
      const added: DocInfo[] = [];
      const selfNames = new Set(p.chunked.definitions.map((d) => d.name));
      for (const raw of p.chunked.chunks) {
        const code = lines.slice(raw.startLine, raw.endLine + 1).join('\n');
        if (!code.trim()) continue;
        const id = this.tables.nextChunkId++;
        const defines = p.chunked.definitions
          .filter((d) => d.startLine >= raw.startLine && d.startLine <= raw.endLine)
          .map((d) => d.name);
        const chunk: DocInfo = { id, file: p.rel, startLine: raw.startLine, endLine: raw.endLine, kind: raw.kind, name: raw.name, defines };
        const callees = resolveCallees(p.rel, raw.calls, p.chunked.imports, this.tables.defs, selfNames);
        const doc = raw.doc && !code.includes(raw.doc) ? `\n${raw.doc}` : '';
        const docText = [raw.name, raw.signature, raw.doc].filter(Boolean).join('\n');
        items.push({ chunk, text: enrichedText(p.rel, code + doc, callees), code, docText });
        added.push(chunk);
        if (items.length >= batch) await flush();
      }
      const defs: DefinitionRef[] = p.chunked.definitions.map((d) => ({
        name: d.name, file: p.rel, signature: d.signature,
        chunkId: added.find((c) => d.startLine >= c.startLine && d.startLine <= c.endLine)?.id ?? -1,
      }));
      this.tables.files.set(p.rel, { hash: p.hash, size: p.size, mtimeMs: p.mtimeMs, language: p.chunked.language });
      this.tables.defs.setFile(p.rel, defs);
      this.cacheLines(p.rel, lines);
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

  private readonly vectorCache = new Map<string, Float32Array>();

  /** Embeds `texts` for a single-file update, reusing the vectors of texts embedded recently. */
  private async embedReusing(texts: string[]): Promise<Float32Array[]> {
    const keys = texts.map((t) => sha1(t));
    const out: Array<Float32Array | undefined> = keys.map((k) => this.vectorCache.get(k));
    const missing = out.flatMap((v, i) => (v ? [] : [i]));
    if (missing.length) {
      const fresh = await this.embedder!.embed(missing.map((i) => texts[i]));
      missing.forEach((i, j) => (out[i] = fresh[j]));
    }
    keys.forEach((k, i) => {
      this.vectorCache.delete(k);
      this.vectorCache.set(k, out[i]!);
    });
    while (this.vectorCache.size > UPDATE_VECTOR_CACHE) this.vectorCache.delete(this.vectorCache.keys().next().value!);
    return out as Float32Array[];
  }

  private saveTimer: NodeJS.Timeout | undefined;

  /** Single-file updates arrive per keystroke pause; writing the index once they settle is enough. */
  private scheduleSave(): void {
    if (this.saveTimer) return;
    const delay = Math.min(MAX_SAVE_DELAY_MS, Math.max(SAVE_DELAY_MS, (this.tables.chunks.size / 1000) * SAVE_DELAY_MS_PER_1K_CHUNKS));
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      if (this.dirty) this.save();
    }, delay);
    this.saveTimer.unref();
  }

  /** Writes pending changes now (tests, shutdown). */
  flush(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
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
    if (content !== undefined) this.overlays.set(relPath, content);
    else this.overlays.delete(relPath);
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
      this.overlays.delete(f);
      this.dropFile(f);
    }
    this.overlays.delete(relPath);
    if (doomed.length) this.scheduleSave();
  }

  /** Current text of an indexed chunk (for query expansion). */
  private readonly textOfDoc = (d: DocInfo): string => this.linesOf(d.file).slice(d.startLine, d.endLine + 1).join('\n');

  private linesOf(file: string): string[] {
    let lines = this.lineCache.get(file);
    if (!lines) {
      const overlay = this.overlays.get(file);
      try {
        lines = splitLines(overlay ?? fs.readFileSync(path.join(this.opts.root, file), 'utf8'));
      } catch {
        lines = [];
      }
      this.cacheLines(file, lines);
    }
    return lines;
  }

  /** Keeps the lines of the most recently used files (a cold index must not keep them all). */
  private cacheLines(file: string, lines: string[]): void {
    this.lineCache.delete(file);
    if (this.lineCache.size >= LINE_CACHE_FILES) this.lineCache.delete(this.lineCache.keys().next().value!);
    this.lineCache.set(file, lines);
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
    const out: RetrievedChunk[] = [];
    let budget = opts.budgetTokens !== undefined ? opts.budgetTokens * 4 : Infinity;
    const queryTerms = new Set(lexicalTerms(q.hypothetical ? `${q.trimmed}\n${q.hypothetical.text}` : q.trimmed));
    // Context for a completion (asked with a budget): lines adding no name beyond the last lines and earlier chunks are dropped (retrieve/excerpt.ts).
    const fresh = opts.freshNames ?? this.tuning.freshNames ?? opts.budgetTokens !== undefined;
    const packing = { maxLines: opts.maxLinesPerHit ?? this.tuning.maxLinesPerHit ?? (fresh ? FRESH_LINES_PER_HIT : DEFAULT_LINES_PER_HIT), compact: opts.compact ?? this.tuning.compact ?? DEFAULT_COMPACT, mode: opts.excerpt, seen: fresh ? namesOnScreen(state.prefix) : undefined };
    const perFile = new Map<string, number>();
    const maxPerFile = opts.maxPerFile ?? this.tuning.maxPerFile ?? Infinity;
    const novelty = opts.novelty ?? this.tuning.novelty ?? 0;
    // Novelty reorders a wider pool; without it only the first k are cut and shown.
    const pool = novelty > 0 ? k * 3 : k;
    const candidates: RetrievedChunk[] = [];
    for (const h of hits) {
      if (candidates.length >= pool) break;
      const n = perFile.get(h.file) ?? 0;
      if (n >= maxPerFile) continue;
      perFile.set(h.file, n + 1);
      const text = excerpt(this.linesOf(h.file).slice(h.startLine, h.endLine + 1), queryTerms, packing);
      candidates.push({ file: h.file, startLine: h.startLine, endLine: h.endLine, kind: h.kind, name: h.name, text, score: h.score, signals: h.signals });
    }
    for (const c of novelty > 0 ? selectNovel(candidates, q.window, novelty, k) : candidates) {
      if (budget <= 0) break;
      if (c.text.length > budget) c.text = c.text.slice(0, budget);
      budget -= c.text.length;
      out.push(c);
    }
    // Declarations of the names in play, before the analogous code (retrieve/declarations.ts).
    if (opts.declarationTokens) return [...declarationsFor(declarationSourceOf(this.tables), state, { budgetChars: opts.declarationTokens * 4 }), ...out];
    return out;
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
      textOf: (file) => this.overlays.get(file) ?? (this.tables.files.has(file) ? this.linesOf(file).join('\n') : undefined),
      definitionsOf: (name) => this.tables.defs.lookup(name),
      chunkRange: (id) => this.tables.chunks.get(id),
      chunksWithTerm: (term, k) => this.index.lexical.search([term], k).map((h) => h.id),
    });
    return this.symbolLookup.symbolAt(relPath, line, character, content ?? this.overlays.get(relPath) ?? (this.tables.files.has(relPath) ? undefined : readText(path.join(this.opts.root, relPath))));
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
