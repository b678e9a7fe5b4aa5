// `engine` and `dense` over the protocol's fragments (protocols A and B). A fragment's document is
// its file path plus its own lines, nothing else (the README's fair-play rule), so no call-graph
// enrichment here: that is measured by protocol C, through the product's own index.
import { OnnxEmbedder } from '../../../engine/src/embed';
import { DEFAULT_WEIGHTS, HybridIndex, type FusionWeights, type Hit } from '../../../engine/src/retrieve/hybrid';
import { buildQuery, pathPrefix, type QueryOptions, type RetrievalQuery } from '../../../engine/src/retrieve/query';
import { prepareHypothetical } from '../../../engine/src/retrieve/hyde';
import type { HypothesisProvider } from '../hyde';
import type { Repo, Task } from '../split';
import type { BenchSystem, FragmentDoc } from './system';

/** Names a fragment defines, read from its own lines. */
const DEF = /\b(?:def|class|function|interface|type|enum)\s+([A-Za-z_$][\w$]*)|^\s*(?:(?:public|private|protected|static|async|readonly|export|override)\s+)*([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\([^)]*\)?\s*(?::[^={]*)?\{\s*$|^\s*(?:export\s+)?(?:const|let)\s+([A-Za-z_$][\w$]*)\s*=/gm;
const KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'function', 'constructor']);
export function definedNames(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(DEF)) {
    const n = m[1] ?? m[2] ?? m[3];
    if (n && !KEYWORDS.has(n)) out.add(n);
  }
  return [...out];
}

/** The doc field of a fragment: its comment and docstring lines and the names it defines. */
function docLines(text: string, defines: string[]): string {
  const comments = text.split('\n').filter((l) => /^\s*(#|\/\/|\*|\/\*|"""|''')/.test(l));
  return [...defines, ...comments].join('\n');
}

/** The index's `accept` filter for a protocol's `exclude`. */
function acceptOf(exclude?: (id: number) => boolean): ((id: number) => boolean) | undefined {
  return exclude && ((id) => !exclude(id));
}

/** Embeddings cached by text: task-file fragments repeat across tasks of the same file. */
export class EmbeddingCache {
  private readonly cache = new Map<string, Float32Array>();
  constructor(readonly embedder: Pick<OnnxEmbedder, 'embed' | 'embedQueries' | 'dim' | 'modelId'>) {}
  async embed(texts: string[]): Promise<Float32Array[]> {
    const missing = [...new Set(texts.filter((t) => !this.cache.has(t)))];
    for (let i = 0; i < missing.length; i += 64) {
      const batch = missing.slice(i, i + 64);
      const vecs = await this.embedder.embed(batch);
      batch.forEach((t, j) => this.cache.set(t, vecs[j]));
    }
    return texts.map((t) => this.cache.get(t)!);
  }
  /** Query-side vectors (an asymmetric model's own output); queries do not repeat, so no cache. */
  embedQueries(texts: string[]): Promise<Float32Array[]> {
    return this.embedder.embedQueries(texts);
  }
}

/** A variant: fusion weights, plus how the product packs retrieved text (protocol C only). */
export type Variant = Partial<FusionWeights> & { maxLinesPerHit?: number; compact?: boolean; maxPerFile?: number; excerpt?: 'best' | 'head'; novelty?: number; declarations?: number; definitions?: number; freshNames?: number | boolean; continuations?: number };

export interface FragmentSystemOptions {
  name: string;
  weights: Variant;
  /** Further variants reported under their own names from the same index (ablations). */
  variants?: Record<string, Variant>;
  embeddings?: EmbeddingCache;
  query?: QueryOptions;
  /** Hypothetical continuations for the variants with a `hyde` weight (bench --hyde). */
  hypothesis?: HypothesisProvider;
}

export class FragmentSystem implements BenchSystem {
  readonly name: string;
  readonly outputs?: string[];
  protected readonly weightSets: [string, Variant][];
  private index!: HybridIndex;
  private readonly texts = new Map<number, string>();
  protected repo!: Repo;

  /** The query of the last `rank` call, so `explain` right after it neither re-embeds nor re-asks a hypothesis. */
  private lastQuery: { task: Task; query: Promise<{ q: RetrievalQuery; vec: Float32Array | undefined }> } | undefined;

  constructor(protected readonly opts: FragmentSystemOptions) {
    this.name = opts.name;
    this.weightSets = [[opts.name, opts.weights], ...Object.entries(opts.variants ?? {})];
    if (opts.variants) this.outputs = this.weightSets.map(([n]) => n);
  }

  /** Whether any weight set uses the dense signal (else nothing is embedded). */
  protected get usesDense(): boolean {
    return !!this.opts.embeddings && this.weightSets.some(([, w]) => (w.dense ?? DEFAULT_WEIGHTS.dense) > 0);
  }

  private docText(d: FragmentDoc): string {
    return `${pathPrefix(d.file)}\n${d.text}`;
  }

  async indexRepo(repo: Repo, docs: FragmentDoc[]): Promise<void> {
    this.repo = repo;
    const e = this.opts.embeddings?.embedder;
    this.texts.clear();
    this.index = new HybridIndex(e ? { dim: e.dim, modelId: e.modelId } : undefined, undefined, (d) => this.texts.get(d.id));
    await this.addDocs(docs);
  }

  async addDocs(docs: FragmentDoc[]): Promise<void> {
    const texts = docs.map((d) => this.docText(d));
    const vecs = this.usesDense ? await this.opts.embeddings!.embed(texts) : undefined;
    docs.forEach((d, i) => {
      this.texts.set(d.id, d.text);
      const defines = definedNames(d.text);
      this.index.add({
        id: d.id, file: d.file, startLine: d.startLine, endLine: d.endLine, kind: 'window',
        defines, indexText: texts[i], code: d.text, docText: docLines(d.text, defines), vector: vecs?.[i],
      });
    });
  }

  async removeDocs(ids: number[]): Promise<void> {
    for (const id of ids) {
      this.index.remove(id);
      this.texts.delete(id);
    }
  }

  async rank(task: Task, k: number, exclude?: (id: number) => boolean): Promise<number[] | Record<string, number[]>> {
    const query = this.queryFor(task);
    this.lastQuery = { task, query };
    const { q, vec } = await query;
    const accept = acceptOf(exclude);
    const out: Record<string, number[]> = {};
    for (const [name, weights] of this.weightSets) out[name] = this.index.search(q, vec, { k, weights, accept, chainInCurrentFile: false }).map((h) => h.id);
    return this.outputs ? out : out[this.name];
  }

  /** The first weight set's hits with every signal's rank and score (bench --dump-features). */
  async explain(task: Task, k: number, exclude?: (id: number) => boolean): Promise<Hit[]> {
    const { q, vec } = await (this.lastQuery?.task === task ? this.lastQuery.query : this.queryFor(task));
    return this.index.search(q, vec, { k, weights: this.weightSets[0][1], accept: acceptOf(exclude), chainInCurrentFile: false });
  }

  private async queryFor(task: Task): Promise<{ q: RetrievalQuery; vec: Float32Array | undefined }> {
    const q = buildQuery(task.file, task.prefix_lines.join('\n') + '\n', this.opts.query, task.language);
    const vec = this.usesDense ? (await this.opts.embeddings!.embedQueries([`${pathPrefix(task.file)}\n${q.trimmed}`]))[0] : undefined;
    const text = await this.hypothesisFor(task);
    const embed = async (t: string) => (this.usesDense ? (await this.opts.embeddings!.embed([t]))[0] : undefined);
    q.hypothetical = await prepareHypothetical(text, 1, q, embed);
    return { q, vec };
  }

  /** The task's hypothetical continuation, when a variant reads one. */
  protected async hypothesisFor(task: Task): Promise<string | undefined> {
    const wanted = this.opts.hypothesis && this.weightSets.some(([, w]) => (w.hyde ?? 0) > 0);
    return wanted ? this.opts.hypothesis!.forTask(task, this.repo) : undefined;
  }
}
