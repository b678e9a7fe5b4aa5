// `tabby`: Tabby's repository context for code completion, as its blog post ("Repository context
// for LLM assisted code completion", 2023), release notes (declarations from the editor's language
// server, 2024) and the code search parameters documented in its configuration describe it:
// tree-sitter chunks indexed with their file path; a BM25 list and an embedding list (40 each,
// `num_to_score`) fused by reciprocal rank (k = 60); hits below `min_rrf_score` 0.028 dropped; at
// most 2 chunks per file; 20 returned (`num_to_return`); the completion prompt puts the declaration
// snippets of the symbols near the cursor first, then the code search snippets.
// Approximated: chunks are the engine's tree-sitter chunks; the embedding model is the engine's
// shipped model (Tabby uses its own); the absolute BM25 (8.0) and cosine (0.75) thresholds belong
// to Tabby's tokenizer and model and are not applied (the rank-based RRF threshold is); the
// declarations come from the engine's definitions instead of a language server; the query is the
// prefix Tabby's client sends (its default: the last 20 lines).
import { Bm25Index } from '../../../../engine/src/lexical/bm25';
import { pathPrefix } from '../../../../engine/src/retrieve/query';
import type { Repo, Task } from '../../split';
import { splitLines } from '../../split';
import { keywordsOf } from '../../protocols';
import type { BenchSystem, FragmentDoc } from '../system';
import type { EmbeddingCache } from '../fragments';
import { plainTokens } from '../bm25';
import { corpusOf, type DefinitionAt, type RepoCorpus } from './corpus';

export const TABBY = { numToScore: 40, numToReturn: 20, rrfK: 60, minRrfScore: 0.028, maxPerFile: 2, prefixLines: 20, maxDeclarations: 5, declarationLines: 30 } as const;

export interface Scored {
  id: number;
  score: number;
}

/**
 * Reciprocal-rank fusion of best-first lists: each list gives 1 / (k + rank) (rank from 1), summed;
 * hits under `minScore` are dropped. Best first; ties by id.
 */
export function rrfFuse(lists: Scored[][], k: number, minScore: number): Scored[] {
  const fused = new Map<number, number>();
  for (const list of lists) list.forEach((h, i) => fused.set(h.id, (fused.get(h.id) ?? 0) + 1 / (k + i + 1)));
  return [...fused].filter(([, s]) => s >= minScore).map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score || a.id - b.id);
}

/** The first `n` hits keeping at most `maxPerFile` per file. */
export function capPerFile<T>(hits: T[], fileOf: (h: T) => string, maxPerFile: number, n: number): T[] {
  const per = new Map<string, number>();
  const out: T[] = [];
  for (const h of hits) {
    if (out.length >= n) break;
    const f = fileOf(h);
    const c = per.get(f) ?? 0;
    if (c >= maxPerFile) continue;
    per.set(f, c + 1);
    out.push(h);
  }
  return out;
}

interface Doc {
  file: string;
  startLine: number;
  endLine: number;
  text: string;
}

/** BM25 + embedding lists over path-prefixed documents, fused as Tabby's code search does. */
class CodeIndex {
  private readonly bm25 = new Bm25Index({ k1: 1.2, b: 0.75 });
  private readonly vectors = new Map<number, Float32Array>();
  readonly docs = new Map<number, Doc>();

  constructor(private readonly embeddings: EmbeddingCache) {}

  async add(items: { id: number; doc: Doc }[]): Promise<void> {
    const texts = items.map(({ doc }) => `${pathPrefix(doc.file)}\n${doc.text}`);
    const vecs = await this.embeddings.embed(texts);
    items.forEach(({ id, doc }, i) => {
      this.docs.set(id, doc);
      this.bm25.add(id, plainTokens(texts[i]));
      this.vectors.set(id, vecs[i]);
    });
  }

  remove(ids: number[]): void {
    for (const id of ids) {
      this.bm25.remove(id);
      this.vectors.delete(id);
      this.docs.delete(id);
    }
  }

  async search(file: string, query: string, accept: (id: number) => boolean): Promise<number[]> {
    const lexical = this.bm25.search(plainTokens(query), TABBY.numToScore, accept);
    const [qv] = await this.embeddings.embedQueries([`${pathPrefix(file)}\n${query}`]);
    const dense: Scored[] = [];
    for (const [id, v] of this.vectors) {
      if (!accept(id)) continue;
      let dot = 0;
      for (let i = 0; i < v.length; i++) dot += v[i] * qv[i];
      dense.push({ id, score: dot });
    }
    dense.sort((a, b) => b.score - a.score || a.id - b.id);
    const fused = rrfFuse([lexical, dense.slice(0, TABBY.numToScore)], TABBY.rrfK, TABBY.minRrfScore);
    return capPerFile(fused, (h) => this.docs.get(h.id)!.file, TABBY.maxPerFile, TABBY.numToReturn).map((h) => h.id);
  }
}

/** Identifiers of `lines`, nearest to the end first, each once, keywords left out. */
export function identifiersNearCursor(lines: string[], keywords: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (let i = lines.length - 1; i >= 0; i--) {
    const ids = lines[i].match(/[A-Za-z_$][A-Za-z0-9_$]*/g) ?? [];
    for (let j = ids.length - 1; j >= 0; j--) if (!keywords.has(ids[j]) && !out.includes(ids[j])) out.push(ids[j]);
  }
  return out;
}

export class TabbySystem implements BenchSystem {
  readonly name = 'tabby';
  private fragments!: CodeIndex;
  private chunks!: CodeIndex;
  private corpus!: RepoCorpus;
  /** Chunk ids of each file on disk. */
  private readonly chunkIds = new Map<string, number[]>();
  private nextId = 0;

  constructor(private readonly embeddings: EmbeddingCache) {}

  async indexRepo(repo: Repo, docs: FragmentDoc[]): Promise<void> {
    this.corpus = await corpusOf(repo);
    this.fragments = new CodeIndex(this.embeddings);
    await this.addDocs(docs);
    this.chunks = new CodeIndex(this.embeddings);
    this.chunkIds.clear();
    const items: { id: number; doc: Doc }[] = [];
    for (const f of this.corpus.files.values()) {
      const ids: number[] = [];
      for (const c of f.chunked.chunks) {
        const text = f.lines.slice(c.startLine, c.endLine + 1).join('\n');
        if (!text.trim()) continue;
        const id = this.nextId++;
        ids.push(id);
        items.push({ id, doc: { file: f.relPath, startLine: c.startLine, endLine: c.endLine, text } });
      }
      this.chunkIds.set(f.relPath, ids);
    }
    await this.chunks.add(items);
  }

  async addDocs(docs: FragmentDoc[]): Promise<void> {
    await this.fragments.add(docs.map((d) => ({ id: d.id, doc: d })));
  }
  async removeDocs(ids: number[]): Promise<void> {
    this.fragments.remove(ids);
  }

  /** Protocols A and B: Tabby's code search over the protocol's fragments. */
  async rank(task: Task, _k: number, exclude?: (id: number) => boolean): Promise<number[]> {
    return this.fragments.search(task.file, task.prefix_lines.slice(-TABBY.prefixLines).join('\n'), (id) => !exclude?.(id));
  }

  /** Protocol C: declarations of the symbols near the cursor, then Tabby's code search over chunks. */
  async context(task: Task): Promise<string[]> {
    const here = await this.corpus.taskFile(task);
    const overlapsWindow = (file: string, s: number, e: number) => file === task.file && e >= task.context_start_line && s <= task.cursor.line - 1;
    // The task file as the editor has it: its chunks from the left context, not the disk's.
    const temp: { id: number; doc: Doc }[] = here.chunked.chunks
      .map((c) => ({ id: this.nextId++, doc: { file: task.file, startLine: c.startLine, endLine: c.endLine, text: here.lines.slice(c.startLine, c.endLine + 1).join('\n') } }))
      .filter((x) => x.doc.text.trim());
    await this.chunks.add(temp);
    const onDisk = new Set(this.chunkIds.get(task.file) ?? []);
    const prefix = splitLines(task.left_context).slice(-TABBY.prefixLines);
    let ids: number[];
    try {
      ids = await this.chunks.search(task.file, prefix.join('\n'), (id) => {
        if (onDisk.has(id)) return false;
        const d = this.chunks.docs.get(id)!;
        return !overlapsWindow(d.file, d.startLine, d.endLine);
      });
    } finally {
      this.chunks.remove(temp.map((t) => t.id));
    }
    const snippets = ids.map((id) => this.chunks.docs.get(id)?.text ?? temp.find((t) => t.id === id)!.doc.text);
    const declarations: string[] = [];
    const seen = new Set<string>();
    for (const name of identifiersNearCursor(prefix, keywordsOf(task.language))) {
      if (declarations.length >= TABBY.maxDeclarations) break;
      const d: DefinitionAt | undefined = await this.corpus.definitionOf(task, name);
      if (!d || overlapsWindow(d.file, d.startLine, d.endLine)) continue;
      const key = `${d.file}:${d.startLine}`;
      if (seen.has(key)) continue;
      seen.add(key);
      declarations.push(await this.corpus.textOf(task, d, TABBY.declarationLines));
    }
    return [...declarations, ...snippets];
  }
}
