// The engine: keeps a workspace's index on disk fresh and answers "what code does the next line
// need?". Plain TypeScript (no `vscode`), used by the CLI, the benchmark and the extension's worker.
import type { CompletionResult, EngineOptions, IndexProgress, IndexStats, RetrieveOptions, SymbolRelatedQuery, SymbolStages } from './api';
import { Chunker } from './chunk';
import { OnnxEmbedder, type OnnxRuntimeLoader } from './embed';
import { lexicalTerms } from './lexical/tokenize';
import type { HybridIndex } from './retrieve/hybrid';
import type { FusionWeights } from './retrieve/weights';
import { buildQuery, type QueryOptions } from './retrieve/query';
import { rankHits, type RankedHits, type SearchSources } from './retrieve/rankHits';
import { warmSearchPaths } from './retrieve/warmSearch';
import { nextTurn } from './util/breathe';
import { Foreground } from './util/foreground';
import { normalizeLoneCR, withEditorLines } from './util/lines';
import { countSkips } from './scan';
import { IndexStore } from './index/indexStore';
import type { IndexTables } from './index/tables';
import type { EditorState, LanguageId, RetrievedChunk, SkippedFile } from './types';
import { completeFromSources } from './complete/builtin';
import { completionCandidates } from './complete/candidates';
import { makeVetter, moduleLevel, type Vetted } from './complete/vetter';
import { SyntaxTrees } from './chunk/syntaxTrees';
import { assembleContext } from './context/assemble';
import { declarationSourceOf } from './context/declarations';
import type { PackingDefaults } from './context/pack';
import { WorkspaceIndex } from './indexer/workspaceIndex';
import type { IndexTuning } from './indexer/indexTuning';
import type { IndexedSink } from './indexer/indexedSink';
import { PathQueue } from './indexer/pathQueue';
export type { IndexedChunk, IndexedSink } from './indexer/indexedSink';
import { openForWriting } from './store/writeAccess';
import { NameLookups } from './lookup/nameLookups';
import { PrepareAgain } from './lookup/prepareAgain';
import type { DefinitionAt, SymbolInfo } from './lookup/symbols';
import { loadModel, type LoadedModel } from './modelPaths';
import { SyncedIndex } from './team/syncedIndex';

/** Plug-ins a host of the engine passes in: where its output also goes, where its runtime comes from. */
export interface EngineHooks {
  /** Receives what indexing produced (the redaction bench and tests look at it); awaited. */
  onIndexed?: IndexedSink;
  /**
   * Replaces the require of onnxruntime-node (default: embed/onnxRuntime.ts's requireOnnxRuntime).
   * Tests pass one that throws, to open the engine as on a platform without the native runtime.
   */
  loadOnnxRuntime?: OnnxRuntimeLoader;
}

/** Values tests set to reach a state with a few files; production leaves them unset. */
export interface TestSeams {
  /** Overrides LARGE_REPO_FILES (tests use a small fixture). */
  largeRepoFiles?: number;
  /** How often a long indexAll saves its progress (ms). Default 30 s. */
  checkpointMs?: number;
  /** Overrides the lexical fields' merge minimum (Bm25Options.mergeMinDocs; tests cross merges with a few files). */
  lexicalMergeMinDocs?: number;
}

/**
 * The retrieval defaults of a benchmark run: a request's RetrieveOptions override them; where both
 * are silent, the built-in ones apply (context/pack.ts PACKING_DEFAULTS, retrieve/weights.ts).
 */
export interface RetrievalDefaults extends PackingDefaults {
  weights?: Partial<FusionWeights>;
  query?: QueryOptions;
  /** Build every optional lexical field, whatever the weights (ablations switch stages per query). */
  allFields?: boolean;
}

/** Options beyond the public EngineOptions: the host's hooks, tests' seams, the benchmark's defaults. */
export interface EngineTuning {
  hooks?: EngineHooks;
  seams?: TestSeams;
  retrieval?: RetrievalDefaults;
}

/** What the indexing reads of the tuning (indexer/indexTuning.ts). */
function indexTuningOf(t: EngineTuning, foreground: Foreground): IndexTuning {
  return { ...t.seams, onIndexed: t.hooks?.onIndexed, weights: t.retrieval?.weights, allFields: t.retrieval?.allFields, foreground };
}

export class Engine {
  /** The index, its tables and the text buffers: indexing, change detection, saving (indexer/). */
  private ws!: WorkspaceIndex;
  tuning: EngineTuning = {};
  /** Hovers, completions, Find Related Code in flight: a live update waits for them (util/foreground.ts). */
  readonly foreground = new Foreground();
  /** Buffers' hover lookups, readied again after their live updates, in the background (lookup/prepareAgain.ts). */
  private readonly preparedAgain = new PrepareAgain((file) => this.prepareFile(file));

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
    const { model, warning } = opts.dense === false ? { model: undefined, warning: undefined } : await loadModel(opts, log, tuning.hooks?.loadOnnxRuntime);
    const engine = new Engine(opts, chunker, model?.embedder);
    engine.model = model;
    engine.modelWarning = warning;
    engine.tuning = tuning;
    const access = openForWriting(opts.indexDir, opts.readOnly);
    if ('readOnly' in access && !opts.readOnly) log(`updates to the index at ${opts.indexDir} are paused: ${access.readOnly}; this engine reads its last commit and keeps its own changes in memory`);
    engine.ws = new WorkspaceIndex(opts, chunker, model?.embedder, new IndexStore(opts.indexDir, { lexicalMergeMinDocs: tuning.seams?.lexicalMergeMinDocs }), () => indexTuningOf(engine.tuning, engine.foreground), 'lock' in access ? access.lock : undefined);
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
    this.nameLookups?.fileChanged('');
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
    this.nameLookups?.fileChanged(relPath);
    // A buffer's live update: its hover lookups are readied for the text typed (lookup/prepareAgain.ts).
    if (text !== undefined) this.preparedAgain.changed(relPath);
  }

  /** Readies the hover's lookups in a file (its syntax tree, scopes and module summary) for `content`, else its indexed text: the editor's warm-up. */
  prepareFile(relPath: string, content?: string): Promise<void> {
    return this.afterForeground().then(() => this.names.prepare(relPath, content, this.afterForeground));
  }

  /** Resolves when the lookups readied again after live updates are ready (tests). */
  lookupsPrepared(): Promise<void> {
    return this.preparedAgain.idle();
  }

  /** Background work's pause: a turn of the event loop, then no hover or completion in flight. */
  private readonly afterForeground = (): Promise<void> => nextTurn().then(() => this.foreground.idle());

  /** Drops a file, or every file under a directory (a deleted folder arrives as one event). */
  async removeFile(relPath: string): Promise<void> {
    await this.fileWork.run(relPath, () => this.ws.removeFile(relPath), true);
    this.preparedAgain.forget(relPath);
    this.nameLookups?.fileChanged(relPath);
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

  /** Ranked chunks for an editor state (or a free-text query), each with its per-signal ranks: searched (retrieve/rankHits.ts), then packed (context/assemble.ts). With `onQuick`, the lexical signals' answer first. */
  async retrieve(query: EditorState | string, opts: RetrieveOptions = {}, tunedWeights: Partial<FusionWeights> | undefined = this.tuning.retrieval?.weights): Promise<RetrievedChunk[]> {
    this.ws.saves.noteRead(); // a pending save waits for a quiet moment
    const search: SearchSources = {
      tables: () => this.tables, index: () => this.index, query: this.tuning.retrieval?.query, team: !!this.team,
      embedQuery: (text, signal, asDocument) => this.embedQuery(text, signal, asDocument),
    };
    const assemble = (ranked: RankedHits): Promise<RetrievedChunk[]> => assembleContext(ranked, opts, this.tuning.retrieval, {
      linesOf: (file) => this.linesOf(file),
      definitionsInPlay: (budgetChars, seen) => this.names.definitionsInPlay(ranked.state, budgetChars, ranked.windowStart, seen, opts.signal),
      declarations: () => declarationSourceOf(this.tables),
    });
    const onQuick = opts.onQuick;
    const quick = onQuick && (async (lexical: RankedHits) => onQuick(await assemble(lexical)));
    return assemble(await rankHits(query, opts, tunedWeights, search, quick));
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
    await warmSearchPaths(this.index, (prefix) => buildQuery('warm-up.ts', prefix, this.tuning.retrieval?.query), nextTurn);
    return warmed;
  }

  /**
   * The built-in, model-free completion (complete/builtin.ts): whole chunks found by the last lines
   * before the cursor (lexically and, where the index has it, by normalised structure), plus the
   * current file's earlier lines, continue the code at the cursor. No embedding: it runs per keystroke.
   */
  complete(asked: EditorState, opts: { signal?: AbortSignal; minEvidence?: number; /** false: suggestions unchecked (the benchmark's baseline) */ vet?: boolean } = {}): Promise<CompletionResult | null> {
    return this.foreground.run(() => this.completeNow(asked, opts));
  }

  private async completeNow(asked: EditorState, opts: Parameters<Engine['complete']>[1] = {}): Promise<CompletionResult | null> {
    opts.signal?.throwIfAborted();
    this.ws.saves.noteRead();
    const state = withEditorLines(asked);
    const found = completionCandidates(state, { tables: this.tables, index: this.index, linesOf: (f) => this.linesOf(f), windowLines: this.tuning.retrieval?.query?.windowLines ?? 60 });
    if (!found) return null;
    opts.signal?.throwIfAborted();
    const vet = opts.vet === false ? undefined : await this.vetter(state);
    return completeFromSources(state, found.sources, { idf: found.idf, minEvidence: opts.minEvidence, ...(vet ? { vet } : {}) });
  }

  /**
   * A suggestion for the cursor of `asked` cut by complete/scopeCheck.ts (complete/vetter.ts): the
   * built-in source's and a model's suggestions alike.
   */
  async vet(asked: EditorState, text: string): Promise<Vetted> {
    return (await this.vetter(withEditorLines(asked)))(text);
  }

  private vetter(state: EditorState): Promise<(text: string) => Vetted> {
    return makeVetter(state, {
      chunker: this.chunker, trees: this.completionTrees, defined: (n) => moduleLevel(this.tables.defs.lookup(n)),
      includedNames: (text, deadline) => this.names.includedNames(state.file, text, deadline),
    });
  }

  /** The name at a position and what the index knows of it (lookup/symbols.ts), or null: not a name, or unknown to the index. */
  symbolAt(relPath: string, line: number, character: number, content?: string): Promise<SymbolInfo | null> {
    return this.foreground.run(() => this.names.symbolAt(relPath, line, character, content));
  }

  /** symbolAt, then for a known name what retrieve finds for it (the name, then `query.context`): one request for hover and Find Related Code. */
  symbolRelated(relPath: string, line: number, character: number, query: SymbolRelatedQuery, content?: string, signal?: AbortSignal): Promise<{ symbol: SymbolInfo; chunks: RetrievedChunk[]; stages?: SymbolStages } | null> {
    return this.foreground.run(() => this.names.symbolRelated(relPath, line, character, query, content, signal));
  }

  /** What is at a definition's location another source named (the language server), with up to `siblings` of its siblings (lookup/siblings.ts). */
  definitionAt(relPath: string, line: number, character: number, siblings = 0): Promise<DefinitionAt & { siblings?: RetrievedChunk[] }> {
    return this.foreground.run(() => this.names.definitionAt(relPath, line, character, siblings));
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
    await this.preparedAgain.close();
    this.nameLookups?.dispose();
    this.completionTrees.dispose();
    await this.ws.close();
    await this.embedder?.dispose();
    await this.chunker.dispose();
  }
}
