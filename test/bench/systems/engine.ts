// `engine`: the full engine. Protocols A and B rank the protocol's fragments with the engine's
// ranking code (FragmentSystem); protocol C goes through the product path: the real Engine indexes
// the repository on disk with its own chunks and enrichment, the task file is replaced by the
// editor's view of it (left_context only), and the context is what `retrieve` returns.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Engine, type RetrievalDefaults } from '../../../engine/src/engine';
import { completeFromContext } from '../../../engine/src/complete/builtin';
import { DEFINITION_SHARE } from '../../../engine/src/context/definitionContext';
import { LANGUAGE_EXTENSIONS, type Repo, type Task } from '../split';
import { FragmentSystem, type FragmentSystemOptions } from './fragments';

export class EngineSystem extends FragmentSystem {
  private engine: Engine | undefined;
  private indexDir = '';
  private stats: Record<string, number> = {};

  /** Protocol E, reported for the system that asks for it (the engine with its default model). */
  readonly complete?: (task: Task, suffix?: string) => Promise<Record<string, { text: string; ms: number; info?: Record<string, unknown> }>>;

  lastQueryMs: Record<string, number> = {};
  /** Above 1,024 tokens the engine is asked for proportionally more chunks (20 per 1,024 tokens); at or below, the product's 20. */
  readonly budgetAware = true;
  /** The task whose editor state the engine's index currently holds (its file cut at the cursor). */
  private editing: Task | undefined;

  constructor(opts: FragmentSystemOptions, private readonly modelDir: string | undefined, private readonly tuning: RetrievalDefaults, completion = false) {
    super(opts);
    if (completion) this.complete = (task, suffix) => this.completeTask(task, suffix);
  }

  override async indexRepo(repo: Repo, docs: Parameters<FragmentSystem['indexRepo']>[1]): Promise<void> {
    await super.indexRepo(repo, docs);
    await this.leave();
    await this.engine?.close();
    if (this.indexDir) fs.rmSync(this.indexDir, { recursive: true, force: true });
    this.indexDir = fs.mkdtempSync(path.join(os.tmpdir(), `reporecall-bench-${repo.name}-`));
    const rss0 = process.memoryUsage().rss;
    const t0 = performance.now();
    this.engine = await Engine.open({
      root: repo.root, indexDir: this.indexDir, modelDir: this.modelDir === 'none' ? undefined : this.modelDir, dense: this.modelDir !== 'none',
      extensions: LANGUAGE_EXTENSIONS[repo.language],
    }, { retrieval: { ...this.tuning, allFields: this.outputs !== undefined } });
    const s = await this.engine.indexAll();
    const secs = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    await this.engine.indexAll();
    const again = (performance.now() - t1) / 1000;
    this.stats = {
      files: s.files, index_s: round(secs, 2), reindex_unchanged_s: round(again, 3), chunks: s.chunks,
      chunks_per_s: Math.round(s.chunks / secs), rss_mb: Math.round(Math.max(rss0, process.memoryUsage().rss) / 1e6),
      index_bytes: s.indexBytes, source_bytes: repo.sourceBytes, index_to_source: round(s.indexBytes / repo.sourceBytes, 2),
    };
  }

  repoStats(): Record<string, number> {
    return this.stats;
  }

  /** Puts the engine in the task's editor state: its file holds only the left context. */
  private async enter(task: Task): Promise<Engine> {
    const engine = this.engine!;
    if (this.editing === task) return engine;
    if (this.editing && this.editing.file !== task.file) await engine.updateFile(this.editing.file);
    await engine.updateFile(task.file, task.left_context);
    this.editing = task;
    return engine;
  }

  /** Restores the file the last task cut, before another repository or the end. */
  private async leave(): Promise<void> {
    if (this.editing) await this.engine!.updateFile(this.editing.file);
    this.editing = undefined;
  }

  async context(task: Task, budgetTokens = 1024): Promise<Record<string, string[]> | string[]> {
    const k = budgetTokens > 1024 ? Math.ceil((20 * budgetTokens) / 1024) : 20;
    const engine = await this.enter(task);
    const out: Record<string, string[]> = {};
    const state = { file: task.file, language: task.language, prefix: task.left_context, line: task.cursor.line };
    // Asked before the clock starts: the query latency is the engine's, the model's is reported apart.
    const guess = await this.hypothesisFor(task);
    for (const [name, variant] of this.weightSets) {
      const { maxLinesPerHit, compact, maxPerFile, excerpt, novelty, declarations, definitions, freshNames, continuations, ...weights } = variant;
      // `declarations`: the share of the budget given to declaration lines (Engine.retrieve's declarationTokens).
      // `freshNames` is on as in the completion pipeline, which always asks with a budget (`freshNames=0` turns it off).
      const declarationTokens = declarations ? Math.round(declarations * budgetTokens) : undefined;
      // `definitions`: the share given to the resolved definitions of the names in play (Engine.retrieve's definitionTokens), the product's by default.
      const definitionTokens = Math.round((definitions ?? DEFINITION_SHARE) * budgetTokens);
      const hypothetical = guess && (weights.hyde ?? 0) > 0 ? { text: guess } : undefined;
      const t0 = performance.now();
      const hits = await engine.retrieve(state, { k, maxLinesPerHit, compact, maxPerFile, excerpt, novelty, hypothetical, declarationTokens, definitionTokens, continuations, freshNames: freshNames === undefined ? true : !!freshNames }, { ...this.tuning.weights, ...weights });
      this.lastQueryMs[name] = performance.now() - t0;
      // The same exclusion as every other system: nothing overlapping the query window.
      out[name] = hits.filter((h) => !(h.file === task.file && h.endLine >= task.context_start_line && h.startLine <= task.cursor.line - 1)).map((h) => h.text);
    }
    return this.outputs ? out : out[this.name];
  }

  /** With `suffix` the editor state has it after the cursor; the index keeps the left context alone, as for protocol C. */
  private async completeTask(task: Task, suffix?: string): Promise<Record<string, { text: string; ms: number; info?: Record<string, unknown> }>> {
    const engine = await this.enter(task);
    const state = { file: task.file, language: task.language, prefix: task.left_context, line: task.cursor.line, ...(suffix === undefined ? {} : { suffix }) };
    const timed = async (vet: boolean) => {
      const t = performance.now();
      const r = await engine.complete(state, { vet });
      const ms = performance.now() - t;
      // For --e-dump: what the offer rested on (a copy's source, its confidence and evidence, or why it abstained).
      return { text: r?.text ?? '', ms, info: r ? { confidence: r.confidence, evidence: r.evidence, from: r.source?.file, abstained: r.abstained } : undefined };
    };
    // Today's source before issue 29's checks (`vet: false`, complete/scopeCheck.ts off) on the same state,
    // asked first on every other task so that neither gains from the other's warm caches.
    const uncheckedFirst = task.cursor.line % 2 === 0;
    const first = await timed(!uncheckedFirst);
    const second = await timed(uncheckedFirst);
    const [checked, unchecked] = uncheckedFirst ? [second, first] : [first, second];
    const t1 = performance.now();
    const inFileOnly = completeFromContext(state, []);
    const msInFile = performance.now() - t1;
    return {
      [`${this.name}:builtin`]: checked,
      [`${this.name}:builtin-unchecked`]: unchecked,
      [`${this.name}:builtin-no-retrieval`]: { text: inFileOnly?.text ?? '', ms: msInFile },
    };
  }

  async close(): Promise<void> {
    await this.engine?.close();
    fs.rmSync(this.indexDir, { recursive: true, force: true });
  }
}

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;
