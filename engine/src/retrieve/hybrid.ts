// The in-memory retrieval index: lexical (BM25 over identifier sub-tokens), dense (vectors from the
// embedder) and symbol (which document defines a name) signals over one set of documents, fused by
// weighted reciprocal-rank fusion. Documents are the engine's chunks in the product and the
// protocol's fragments in the benchmark, so both are judged by the same ranking code.
import { Bm25Index } from '../lexical/bm25';
import { lexicalTerms } from '../lexical/tokenize';
import { VectorIndex } from '../vector';
import type { ChunkKind } from '../types';
import type { RetrievalQuery } from './query';

export interface DocInfo {
  id: number;
  file: string;
  startLine: number;
  endLine: number;
  kind: ChunkKind;
  name?: string;
  /** Names this document defines (functions, classes, methods' simple names). */
  defines: string[];
}

export interface DocInput extends DocInfo {
  /** The enriched text the lexical index sees (path prefix, code, call-graph signatures). */
  indexText: string;
  /** The document's embedding, when the dense signal is on. */
  vector?: Float32Array;
}

/** Relative weight of each signal in the fusion; 0 turns a signal off. */
export interface FusionWeights {
  /** BM25 with the long prefix window as the query. */
  bm25: number;
  /** BM25 with the trimmed window (the last lines) as the query. */
  recent: number;
  /** Cosine similarity of the query embedding. */
  dense: number;
  /** Definitions of identifiers used near the cursor (call-graph adjacency). */
  symbol: number;
  /** RRF damping constant: smaller values favour the top of each list. */
  rrfK: number;
}

export const DEFAULT_WEIGHTS: FusionWeights = { bm25: 1, recent: 0.7, dense: 0.8, symbol: 0.5, rrfK: 30 };

export interface Hit extends DocInfo {
  score: number;
  /** Per signal: its 1-based rank for this document (absent when the signal did not retrieve it). */
  signals: Record<string, number>;
}

export interface SearchOptions {
  k: number;
  weights?: Partial<FusionWeights>;
  accept?: (id: number) => boolean;
  /** Candidates taken from each signal before fusion. Default 100. */
  depth?: number;
}

/** A name defined in more documents than this says nothing about which one is meant. */
const MAX_DEFINITIONS_PER_NAME = 4;

export class HybridIndex {
  readonly lexical: Bm25Index;
  readonly vectors: VectorIndex | undefined;
  private readonly docs = new Map<number, DocInfo>();
  private readonly definers = new Map<string, Set<number>>();

  constructor(dense?: { dim: number; modelId: string }, parts?: { lexical: Bm25Index; vectors?: VectorIndex; docs: DocInfo[] }) {
    this.lexical = parts?.lexical ?? new Bm25Index();
    this.vectors = parts ? parts.vectors : dense ? new VectorIndex({ dim: dense.dim, modelId: dense.modelId }) : undefined;
    for (const d of parts?.docs ?? []) this.register(d);
  }

  private register(info: DocInfo): void {
    this.docs.set(info.id, info);
    for (const name of info.defines) {
      let s = this.definers.get(name);
      if (!s) this.definers.set(name, (s = new Set()));
      s.add(info.id);
    }
  }

  get size(): number {
    return this.docs.size;
  }

  get(id: number): DocInfo | undefined {
    return this.docs.get(id);
  }

  allDocs(): IterableIterator<DocInfo> {
    return this.docs.values();
  }

  add(doc: DocInput): void {
    if (this.docs.has(doc.id)) this.remove(doc.id);
    const { indexText, vector, ...info } = doc;
    this.register(info);
    this.lexical.add(doc.id, lexicalTerms(indexText));
    if (vector && this.vectors) this.vectors.add(doc.id, vector);
  }

  remove(id: number): void {
    const info = this.docs.get(id);
    if (!info) return;
    this.docs.delete(id);
    this.lexical.remove(id);
    this.vectors?.remove(id);
    for (const name of info.defines) {
      const s = this.definers.get(name);
      s?.delete(id);
      if (s && s.size === 0) this.definers.delete(name);
    }
  }

  /** Documents defining `name` (exact), unless the name is too common to point anywhere. */
  definitionsOf(name: string): number[] {
    const s = this.definers.get(name);
    return s && s.size <= MAX_DEFINITIONS_PER_NAME ? [...s] : [];
  }

  search(q: RetrievalQuery, qVec: Float32Array | undefined, opts: SearchOptions): Hit[] {
    const w = { ...DEFAULT_WEIGHTS, ...opts.weights };
    const depth = opts.depth ?? 100;
    const accept = opts.accept;
    const lists: [string, number, number[]][] = [];
    const prefix = q.file ? `${q.file}\n` : '';
    if (w.bm25 > 0) lists.push(['bm25', w.bm25, this.lexical.search(lexicalTerms(prefix + q.window), depth, accept).map((r) => r.id)]);
    if (w.recent > 0) lists.push(['recent', w.recent, this.lexical.search(lexicalTerms(prefix + q.trimmed), depth, accept).map((r) => r.id)]);
    if (w.dense > 0 && qVec && this.vectors && this.vectors.size > 0) {
      const found = this.vectors.search(qVec, accept ? depth * 2 : depth);
      lists.push(['dense', w.dense, found.map((r) => r.id).filter((id) => !accept || accept(id)).slice(0, depth)]);
    }
    if (w.symbol > 0) {
      const ids: number[] = [];
      const seen = new Set<number>();
      for (const name of q.identifiers) {
        for (const id of this.definitionsOf(name)) {
          if (seen.has(id) || (accept && !accept(id))) continue;
          seen.add(id);
          ids.push(id);
        }
        if (ids.length >= depth) break;
      }
      lists.push(['symbol', w.symbol, ids]);
    }
    const fused = new Map<number, { score: number; signals: Record<string, number> }>();
    for (const [name, weight, ids] of lists) {
      ids.forEach((id, i) => {
        let e = fused.get(id);
        if (!e) fused.set(id, (e = { score: 0, signals: {} }));
        e.score += weight / (w.rrfK + i + 1);
        e.signals[name] = i + 1;
      });
    }
    const hits: Hit[] = [];
    for (const [id, e] of fused) {
      const info = this.docs.get(id);
      if (info) hits.push({ ...info, score: e.score, signals: e.signals });
    }
    hits.sort((a, b) => b.score - a.score || a.id - b.id);
    return hits.slice(0, opts.k);
  }
}
