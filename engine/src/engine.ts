// The engine: keeps a workspace's index on disk fresh and answers "what code does the next line
// need?". Plain TypeScript (no `vscode`), used by the CLI, the benchmark and the extension's worker.
import type { CompletionResult, EngineOptions, IndexProgress, IndexStats, RetrieveOptions, SymbolRelatedQuery } from './api';
import { Chunker } from './chunk';
import { OnnxEmbedder, type OnnxRuntimeLoader } from './embed';
import { lexicalTerms } from './lexical/tokenize';
import { HybridIndex } from './retrieve/hybrid';
import { DEFAULT_WEIGHTS, type FusionWeights } from './retrieve/weights';
import { buildQuery, pathPrefix, type QueryOptions } from './retrieve/query';
import { isProse, proseConcepts } from './retrieve/prose';
import { prepareHypothetical } from './retrieve/hyde';
import { warmSearchPaths } from './retrieve/warmSearch';
import { fileFilter } from './retrieve/fileFilter';
import { nextTurn } from './util/breathe';
import { normalizeLoneCR } from './util/lines';
import { countSkips } from './scan';
import { IndexStore } from './index/indexStore';
import type { IndexTables } from './index/tables';
import type { EditorState, LanguageId, RetrievedChunk, SkippedFile } from './types';
import { completeFromSources, type CompletionSource } from './complete/builtin';
import { makeVetter, moduleLevel, type Vetted } from './complete/vetter';
import { SyntaxTrees } from './chunk/syntaxTrees';
import { boundNames, normalizedTerms } from './lexical/normalize';
import { DEFAULT_COMPACT, DEFAULT_LINES_PER_HIT, FRESH_COMPACT, FRESH_CONTINUATIONS, FRESH_LINES_PER_HIT, packHits } from './context/pack';
import { namesOnScreen } from './context/excerpt';
import { continuationChunks, DEFAULT_CONTINUATION } from './context/continuation';
import { declarationsFor, declarationSourceOf } from './context/declarations';
import { DEFINITION_SHARE } from './context/definitionContext';
import { WorkspaceIndex, type IndexTuning } from './indexer/workspaceIndex';
import { PathQueue } from './indexer/pathQueue';
export type { IndexedChunk, IndexedSink } from './indexer/indexedSink';
import { openForWriting } from './store/writeAccess';
import { NameLookups } from './lookup/nameLookups';
import type { DefinitionAt, SymbolInfo } from './lookup/symbols';
import { loadModel, type LoadedModel } from './modelPaths';
import { SyncedIndex } from './team/syncedIndex';

/** Options beyond the public EngineOptions that the benchmark and tests tune. */
export interface EngineTuning extends IndexTuning {
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
  /** Default for RetrieveOptions.continuations. */
  continuations?: number;
  /**
   * Replaces the require of onnxruntime-node (default: embed/onnxRuntime.ts's requireOnnxRuntime).
   * Tests pass one that throws, to open the engine as on a platform without the native runtime.
   */
  loadOnnxRuntime?: OnnxRuntimeLoader;
}

/** Built-in completion: non-blank lines before the cursor that find chunks, and chunks per search. */
const COMPLETION_QUERY_LINES = 3;
const COMPLETION_CHUNKS = 16;
/** Candidates per signal under RetrieveOptions.files (default depth 100). */
const FILTERED_DEPTH = 2000;

export class Engine {
  /** The index, its tables and the text buffers: indexing, change detection, saving (indexer/). */
  private ws!: WorkspaceIndex;
  tuning: EngineTuning = {};

  /** The team index being synced into this index, when configured (team/syncedIndex.ts). */
  team: SyncedIndex | undefined;
  /** The embedding model in use (undefined: dense off). */
  private model: LoadedModel | undefined;
  /** Why the configured model is not the one in use, or why there is none (no ONNX runtime here). */
  private modelWarning: string | undefined;
  /** Updates and removals of one path, in the order they arrived (indexer/pathQueue.ts). */
  private readonly fileWork = new PathQueue();
  private readonly completionTrees = new SyntaxTrees(1);
  private nameLookups: NameLookups | undefined;

  private constructor(
    readonly opts: EngineOptions,
    private readonly chunker: Chunker,
    private readonly embedder: OnnxEmbedder | undefined,
  ) {}

  static async open(opts: EngineOptions, tuning: EngineTuning = {}): Promise<Engine> {
    const log = opts.log ?? (() => undefined);
    const chunker = await Chunker.create();
    const { model, warning } = opts.dense === false ? { model: undefined, warning: undefined } : await loadModel(opts, log, tuning.loadOnnxRuntime);
    const engine = new Engine(opts, chunker, model?.embedder);
    engine.model = model;
    engine.modelWarning = warning;
    engine.tuning = tuning;
    const access = openForWriting(opts.indexDir, opts.readOnly);
    if ('readOnly' in access && !opts.readOnly) log(`updates to the index at ${opts.indexDir} are paused: ${access.readOnly}; this engine reads its last commit and keeps its own changes in memory`);
    engine.ws = new WorkspaceIndex(opts, chunker, model?.embedder, new IndexStore(opts.indexDir, { lexicalMergeMinDocs: tuning.lexicalMergeMinDocs }), () => engine.tuning, 'lock' in access ? access.lock : undefined);
    if ('readOnly' in access) engine.ws.notWriting = access.readOnly;
    engine.ws.loadOrReset();
    // The process that writes the index starts its writer thread now, not beside a query at a save (store/writerThread.ts).
    if (engine.ws.writable) engine.ws.store.prepareWriter();
    // Only the engine that writes the index syncs it (another window's engine reads what that one installs).
    if (opts.team && engine.ws.writable) {
      const expect = { modelId: model?.embedder.modelId ?? null, dim: model?.embedder.dim ?? 0, fields: [...engine.ws.wantedFields] };
      engine.team = new SyncedIndex({ team: opts.team, root: opts.root, indexDir: opts.indexDir, expect, onState: opts.onTeamState, log }, engine.ws);
    }
    return engine;
  }

  private get log(): (line: string) => void {
    return this.opts.log ?? (() => undefined);
  }

  stats(): IndexStats {
    return {
      files: this.tables.files.count,
      chunks: this.tables.chunks.size,
      skipped: countSkips(this.ws.lastSkipped),
      changedFiles: this.ws.lastChanged,
      indexBytes: this.ws.store.diskBytes(),
      seconds: this.ws.lastSeconds,
      modelDir: this.model?.dir ?? null,
      ...(this.modelWarning ? { modelWarning: this.modelWarning } : {}),
      ...(this.ws.updatesPaused ? { updatesPaused: this.ws.updatesPaused } : {}),
      ...(this.ws.lastScanWarnings.length ? { scanWarnings: this.ws.lastScanWarnings } : {}),
      ...(this.team ? { team: this.team.state } : {}),
    };
  }

  /** Every indexed file's content hash and language (tests compare indexes by them). */
  fileHashes(): Map<string, { hash: string; language: string }> {
    const files = this.tables.files;
    return new Map(files.relPaths().map((rel) => { const f = files.get(rel)!; return [rel, { hash: f.hash, language: f.language ?? '' }]; }));
  }

  /** Files the last scan passed over, with reasons. */
  skippedFiles(): readonly SkippedFile[] {
    return this.ws.lastSkipped;
  }

  /** Brings the index up to date with the workspace: only new or changed files are parsed and embedded. */
  async indexAll(onProgress?: (p: IndexProgress) => void, signal?: AbortSignal): Promise<IndexStats> {
    // A synced team index is installed first; the scan then catches up with the workspace.
    for (const [rel, text] of (await this.team?.install(onProgress, signal)) ?? []) await this.updateFile(rel, text);
    await this.ws.indexAll(onProgress, signal);
    return this.stats();
  }

  /** Writes pending changes now (tests, shutdown); resolves when they are on disk. */
  async flush(): Promise<void> {
    await this.ws.flush();
  }

  /** Whether this engine writes the index (false when another window or process holds the lock). */
  get writable(): boolean {
    return this.ws.writable;
  }

  /**
   * Re-indexes one file: from `content` (an unsaved editor buffer) when given, else from disk.
   * A file that is now ignored, secret or unreadable leaves the index.
   */
  async updateFile(relPath: string, content?: string): Promise<void> {
    const text = content === undefined ? undefined : normalizeLoneCR(content);
    await this.fileWork.run(relPath, () => this.ws.updateFile(relPath, text));
  }

  /** Drops a file, or every file under a directory (a deleted folder arrives as one event). */
  async removeFile(relPath: string): Promise<void> {
    await this.fileWork.run(relPath, () => this.ws.removeFile(relPath), true);
  }

  private get tables(): IndexTables {
    return this.ws.tables;
  }

  private get index(): HybridIndex {
    return this.ws.index;
  }

  private linesOf(file: string): string[] {
    return this.ws.linesOf(file);
  }

  /** What the user is writing, by the model's query side; `asDocument` for code that stands in for a chunk (HyDE). */
  private async embedQuery(text: string, signal?: AbortSignal, asDocument = false): Promise<Float32Array | undefined> {
    if (!this.embedder) return undefined;
    return (await (asDocument ? this.embedder.embed([text], signal) : this.embedder.embedQueries([text], signal)))[0];
  }

  /** Ranked chunks for an editor state (or a free-text query), each with its per-signal ranks. */
  async retrieve(query: EditorState | string, opts: RetrieveOptions = {}, tunedWeights: Partial<FusionWeights> | undefined = this.tuning.weights): Promise<RetrievedChunk[]> {
    const k = opts.k ?? 10;
    const weights = opts.lexicalOnly ? { ...tunedWeights, dense: 0, hyde: 0 } : tunedWeights;
    const state: EditorState = typeof query === 'string' ? { file: '', prefix: normalizeLoneCR(query) + '\n', line: -1 } : withEditorLines(query);
    const q = buildQuery(state.file, state.prefix, this.tuning.query, state.language);
    // Free text: all of it is the query; a question in words (asked so) by its concepts (retrieve/prose.ts).
    if (typeof query === 'string') Object.assign(q, { trimmed: q.window, prose: opts.prose && !this.team && isProse(query) ? proseConcepts(query, (t) => this.index.lexical.holds(t)) : undefined });
    const windowStart = state.line - (this.tuning.query?.windowLines ?? 60);
    // Chunks of the current file around the cursor hold what the user is typing or already sees.
    const currentFile = this.tables.paths.find(state.file);
    const inFiles = opts.files ? fileFilter(opts.files) : undefined;
    const accept = inFiles
      ? (id: number) => this.tables.chunks.existsOutside(id, currentFile, windowStart, state.line) && inFiles(this.tables.chunks.fileOf(id) ?? '')
      : (id: number) => this.tables.chunks.existsOutside(id, currentFile, windowStart, state.line);
    const vec = weights?.dense === 0 ? undefined : await this.embedQuery(`${pathPrefix(state.file)}\n${q.trimmed}`, opts.signal);
    const hydeWeight = opts.lexicalOnly ? 0 : opts.hypothetical?.weight ?? weights?.hyde ?? DEFAULT_WEIGHTS.hyde;
    q.hypothetical = await prepareHypothetical(opts.hypothetical?.text, hydeWeight, q, (t) => weights?.dense === 0 ? Promise.resolve(undefined) : this.embedQuery(t, opts.signal, true));
    opts.signal?.throwIfAborted();
    // A file filter refuses most candidates: the signals look deeper (the dense signal filters its candidates afterwards).
    const hits = this.index.search(q, vec, { k: Math.max(k, 10) * 3, accept, weights: { ...weights, hyde: hydeWeight }, recentFiles: state.recentFiles, depth: inFiles ? FILTERED_DEPTH : undefined });
    const queryTerms = new Set(lexicalTerms(q.hypothetical ? `${q.trimmed}\n${q.hypothetical.text}` : q.trimmed));
    // Context for a completion (asked with a budget): lines adding no name beyond the last lines and earlier chunks dropped (context/excerpt.ts).
    const fresh = opts.freshNames ?? this.tuning.freshNames ?? opts.budgetTokens !== undefined;
    const seen = fresh ? namesOnScreen(state.prefix) : undefined;
    // The definitions of the names in play come first, out of their share of the budget (context/definitionContext.ts).
    const definitionTokens = opts.definitionTokens ?? (opts.budgetTokens === undefined ? 0 : Math.round(DEFINITION_SHARE * opts.budgetTokens));
    const defined = definitionTokens > 0 && typeof query !== 'string' ? await this.names.definitionsInPlay(state, definitionTokens * 4, windowStart, seen ?? namesOnScreen(state.prefix), opts.signal) : [];
    // The lines after where the best hits resemble the cursor's last line, before the hits themselves (context/continuation.ts).
    const continuations = opts.continuations ?? this.tuning.continuations ?? (fresh ? FRESH_CONTINUATIONS : 0);
    const continued = continuations > 0 && typeof query !== 'string'
      ? continuationChunks(hits, continuations, (file) => this.linesOf(file), { file: state.file, prefix: state.prefix, windowStart }, DEFAULT_CONTINUATION, seen)
      : [];
    const packed = packHits(hits, (file) => this.linesOf(file), {
      k,
      // The continuations come out of the same budget (4 characters a token).
      budgetTokens: opts.budgetTokens === undefined ? undefined : Math.max(0, opts.budgetTokens - Math.ceil([...defined, ...continued].reduce((n, c) => n + c.text.length, 0) / 4)),
      packing: {
        maxLines: opts.maxLinesPerHit ?? this.tuning.maxLinesPerHit ?? (fresh ? FRESH_LINES_PER_HIT : DEFAULT_LINES_PER_HIT),
        compact: opts.compact ?? this.tuning.compact ?? (fresh ? FRESH_COMPACT : DEFAULT_COMPACT),
        mode: opts.excerpt,
        seen,
      },
      maxPerFile: opts.maxPerFile ?? this.tuning.maxPerFile ?? Infinity,
      novelty: opts.novelty ?? this.tuning.novelty ?? 0,
      queryTerms,
      window: q.window,
    });
    // Declarations of the names in play, before the analogous code (context/declarations.ts).
    const out = [...defined, ...continued, ...packed];
    if (opts.declarationTokens) return [...declarationsFor(declarationSourceOf(this.tables), state, { budgetChars: opts.declarationTokens * 4 }), ...out];
    return out;
  }

  /**
   * Loads the grammars of the languages the index holds, runs the model's document pass once and
   * searches a throwaway index that holds unmerged and deleted documents (retrieve/warmSearch.ts),
   * so the first edit of a language after opening does not compile its grammar (its query: tens of
   * ms) or start that pass, and the first query after an edit runs optimised code, while a
   * keystroke's query waits (PARAMS.md, Engine process). Indexes nothing.
   */
  async warmUpdatePath(): Promise<string[]> {
    const warmed: string[] = [];
    for (const language of this.tables.files.languages) {
      if (await this.chunker.ensureLanguage(language as LanguageId)) warmed.push(language);
      await nextTurn(); // requests arriving meanwhile go first
    }
    await this.embedder?.embed(['warm up']);
    await warmSearchPaths(this.index, (prefix) => buildQuery('warm-up.ts', prefix, this.tuning.query), nextTurn);
    return warmed;
  }

  /**
   * The built-in, model-free completion (complete/builtin.ts): whole chunks found by the last lines
   * before the cursor (lexically and, where the index has it, by normalised structure), plus the
   * current file's earlier lines, continue the code at the cursor. No embedding: it runs per keystroke.
   */
  async complete(asked: EditorState, opts: { signal?: AbortSignal; minEvidence?: number; /** false: suggestions unchecked (the benchmark's baseline) */ vet?: boolean } = {}): Promise<CompletionResult | null> {
    opts.signal?.throwIfAborted();
    const state = withEditorLines(asked);
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
    const vet = opts.vet === false ? undefined : await this.vetter(state);
    return completeFromSources(state, sources, { idf, minEvidence: opts.minEvidence, ...(vet ? { vet } : {}) });
  }

  /**
   * A suggestion for the cursor of `asked` cut by complete/scopeCheck.ts (complete/vetter.ts): the
   * built-in source's and a model's suggestions alike.
   */
  async vet(asked: EditorState, text: string): Promise<Vetted> {
    return (await this.vetter(withEditorLines(asked)))(text);
  }

  private vetter(state: EditorState): Promise<(text: string) => Vetted> {
    return makeVetter(state, { chunker: this.chunker, trees: this.completionTrees, defined: (n) => moduleLevel(this.tables.defs.lookup(n)) });
  }

  /** The name at a position and what the index knows of it (lookup/symbols.ts), or null: not a name, or unknown to the index. */
  symbolAt(relPath: string, line: number, character: number, content?: string): Promise<SymbolInfo | null> {
    return this.names.symbolAt(relPath, line, character, content);
  }

  /** symbolAt, then for a known name what retrieve finds for it (the name, then `query.context`): one request for hover and Find Related Code. */
  symbolRelated(relPath: string, line: number, character: number, query: SymbolRelatedQuery, content?: string, signal?: AbortSignal): Promise<{ symbol: SymbolInfo; chunks: RetrievedChunk[] } | null> {
    return this.names.symbolRelated(relPath, line, character, query, content, signal);
  }

  /** What is at a definition's location another source named (the language server), with up to `siblings` of its siblings (lookup/siblings.ts). */
  definitionAt(relPath: string, line: number, character: number, siblings = 0): Promise<DefinitionAt & { siblings?: RetrievedChunk[] }> {
    return this.names.definitionAt(relPath, line, character, siblings);
  }

  private get names(): NameLookups {
    return (this.nameLookups ??= new NameLookups({
      chunker: this.chunker, tables: () => this.tables, index: () => this.index, buffers: () => this.ws.buffers,
      linesOf: (f) => this.linesOf(f), root: this.opts.root, retrieve: (q, o) => this.retrieve(q, o),
    }));
  }

  /** Whether a file is in the index (the agent tools answer only for indexed files: never ignored or deny-listed ones). */
  hasIndexedFile(relPath: string): boolean {
    return this.tables.files.has(relPath);
  }

  /** An indexed file's lines as the index reads them (an unsaved buffer's when one is open). */
  indexedLines(relPath: string): string[] {
    return this.linesOf(relPath);
  }

  /** The chunks that define `name` (the definition table), at most `max`, in table order. */
  definitionChunks(name: string, max: number): Array<{ file: string; startLine: number; endLine: number; kind: string; name?: string }> {
    const out = [];
    for (const d of this.tables.defs.lookup(name)) {
      const c = this.tables.chunks.get(d.chunkId);
      if (c) out.push({ file: c.file, startLine: c.startLine, endLine: c.endLine, kind: c.kind, ...(c.name ? { name: c.name } : {}) });
      if (out.length >= max) break;
    }
    return out;
  }

  /** Terms a text contributes to the lexical index (exposed for "why was this retrieved"). */
  static terms(text: string): string[] {
    return lexicalTerms(text);
  }

  async close(): Promise<void> {
    await this.team?.close();
    this.nameLookups?.dispose();
    this.completionTrees.dispose();
    await this.ws.close();
    await this.embedder?.dispose();
    await this.chunker.dispose();
  }
}

/** The state with lone CRs as LF (same length), so its lines are counted as the editor counts them, as in the index. */
function withEditorLines(state: EditorState): EditorState {
  if (!state.prefix.includes('\r') && !state.suffix?.includes('\r')) return state;
  return { ...state, prefix: normalizeLoneCR(state.prefix), ...(state.suffix === undefined ? {} : { suffix: normalizeLoneCR(state.suffix) }) };
}
