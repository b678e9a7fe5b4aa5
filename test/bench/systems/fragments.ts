// `engine` and `dense` over the protocol's fragments (protocols A and B). A fragment's document is
// its file path plus its own lines, nothing else (the README's fair-play rule), so no call-graph
// enrichment here: that is measured by protocol C, through the product's own index.
import { OnnxEmbedder } from '../../../engine/src/embed';
import { HybridIndex, type FusionWeights } from '../../../engine/src/retrieve/hybrid';
import { buildQuery, pathPrefix, type QueryOptions } from '../../../engine/src/retrieve/query';
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

/** Embeddings cached by text: task-file fragments repeat across tasks of the same file. */
export class EmbeddingCache {
  private readonly cache = new Map<string, Float32Array>();
  constructor(readonly embedder: OnnxEmbedder) {}
  async embed(texts: string[]): Promise<Float32Array[]> {
    const missing = [...new Set(texts.filter((t) => !this.cache.has(t)))];
    for (let i = 0; i < missing.length; i += 64) {
      const batch = missing.slice(i, i + 64);
      const vecs = await this.embedder.embed(batch);
      batch.forEach((t, j) => this.cache.set(t, vecs[j]));
    }
    return texts.map((t) => this.cache.get(t)!);
  }
}

export interface FragmentSystemOptions {
  name: string;
  weights: Partial<FusionWeights>;
  embeddings?: EmbeddingCache;
  query?: QueryOptions;
}

export class FragmentSystem implements BenchSystem {
  readonly name: string;
  private index!: HybridIndex;

  constructor(private readonly opts: FragmentSystemOptions) {
    this.name = opts.name;
  }

  private docText(d: FragmentDoc): string {
    return `${pathPrefix(d.file)}\n${d.text}`;
  }

  async indexRepo(_repo: Repo, docs: FragmentDoc[]): Promise<void> {
    const e = this.opts.embeddings?.embedder;
    this.index = new HybridIndex(e ? { dim: e.dim, modelId: e.modelId } : undefined);
    await this.addDocs(docs);
  }

  async addDocs(docs: FragmentDoc[]): Promise<void> {
    const texts = docs.map((d) => this.docText(d));
    const vecs = this.opts.embeddings && (this.opts.weights.dense ?? 1) > 0 ? await this.opts.embeddings.embed(texts) : undefined;
    docs.forEach((d, i) => this.index.add({
      id: d.id, file: d.file, startLine: d.startLine, endLine: d.endLine, kind: 'window',
      defines: definedNames(d.text), indexText: texts[i], vector: vecs?.[i],
    }));
  }

  async removeDocs(ids: number[]): Promise<void> {
    for (const id of ids) this.index.remove(id);
  }

  async rank(task: Task, k: number): Promise<number[]> {
    const q = buildQuery(task.file, task.prefix_lines.join('\n') + '\n', this.opts.query, task.language);
    const vec = this.opts.embeddings && (this.opts.weights.dense ?? 1) > 0
      ? (await this.opts.embeddings.embed([`${pathPrefix(task.file)}\n${q.trimmed}`]))[0]
      : undefined;
    return this.index.search(q, vec, { k, weights: this.opts.weights }).map((h) => h.id);
  }
}
