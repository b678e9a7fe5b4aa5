// The in-memory retrieval index: several signals over one set of documents, fused by weighted
// reciprocal-rank fusion, then a structural rerank. Documents are the engine's chunks in the
// product and the protocol's fragments in the benchmark, so both are judged by the same code.
//
// The signals, each in its own file under signals/ (where each idea comes from), are listed in
// registry.ts; fusion.ts fuses their lists and rerank.ts boosts files near the current one.
import { Bm25Index, type Bm25Options } from '../lexical/bm25';
import { normalizedTerms } from '../lexical/normalize';
import { lexicalTerms } from '../lexical/tokenize';
import { VectorIndex } from '../vector';
import { ChunkTable, type DocInfo } from '../store/chunkTable';
import type { RetrievalQuery } from './query';
import { SIGNALS } from './registry';
import { fuse, type FusionInput } from './fusion';
import { structuralBoost } from './rerank';
import { withFileEvidence } from './fileEvidence';
import { proseWeights } from './prose';
import { OPTIONAL_FIELDS, type OptionalField, type RankedList, type SignalContext } from './signal';
import { DEFAULT_WEIGHTS, type FusionWeights } from './weights';

export type { DocInfo, OptionalField, FusionWeights };
export { OPTIONAL_FIELDS };
export { CORE_WEIGHTS, DEFAULT_WEIGHTS, fieldsFor, STAGES } from './weights';

export interface DocInput extends DocInfo {
  /** The enriched text the lexical index sees (path prefix, code, call-graph signatures). */
  indexText: string;
  /** The document's own code (for the normalised-structure field); default indexText. */
  code?: string;
  /** Name, signature and doc comment (the doc field); default: the defined names. */
  docText?: string;
  /** The document's embedding, when the dense signal is on. */
  vector?: Float32Array;
}

export interface Hit extends DocInfo {
  score: number;
  /** Per signal: its 1-based rank for this document (absent when the signal did not retrieve it). */
  signals: Record<string, number>;
  /** Per scored signal (bm25, recent: BM25 score; dense: cosine): the score behind that rank. */
  values: Record<string, number>;
}

export interface SearchOptions {
  k: number;
  weights?: Partial<FusionWeights>;
  accept?: (id: number) => boolean;
  /** Candidates taken from each signal before fusion. Default 100. */
  depth?: number;
  /** Recently edited/opened files (rerank). */
  recentFiles?: string[];
  /**
   * Whether `next` and `expand` may follow documents of the current file to what comes after
   * them (default true). The benchmark's fragment protocols turn it off: there the current file
   * on disk holds the lines after the cursor, and chaining into them would represent a fragment
   * by its neighbour's lines, which the fair-play rule forbids.
   */
  chainInCurrentFile?: boolean;
  /**
   * The lists of signals already ranked for the same query, accept and depth, reused and filled
   * (signalMemo): a second search of one query that adds the model's signals ranks only those.
   */
  memo?: SignalMemo;
}

/** Per signal its ranked list for one query, with the values and shared work behind them. */
export interface SignalMemo {
  lists: Map<string, RankedList | undefined>;
  values: Map<string, Map<number, number>>;
  shared: Map<string, unknown>;
}

export function signalMemo(): SignalMemo {
  return { lists: new Map(), values: new Map(), shared: new Map() };
}

export interface IndexParts {
  lexical: Bm25Index;
  docField: Bm25Index;
  normalized: Bm25Index;
  vectors?: VectorIndex;
  docs: ChunkTable;
}

export class HybridIndex {
  readonly lexical: Bm25Index;
  docField: Bm25Index;
  normalized: Bm25Index;
  readonly vectors: VectorIndex | undefined;
  /** The documents' metadata, also who defines what and what follows what in a file. */
  readonly docs: ChunkTable;

  private readonly filled: Set<OptionalField>;

  constructor(
    dense?: { dim: number; modelId: string },
    parts?: IndexParts,
    /** The current text of a document (for `expand`); without it expansion is skipped. */
    readonly textOf?: (doc: DocInfo) => string | undefined,
    /** Optional fields to fill (an unfilled field costs no memory and finds nothing). Default: all. */
    fields: ReadonlySet<OptionalField> = new Set(OPTIONAL_FIELDS),
    /** Options of the lexical fields this creates (a loaded index brings its own). */
    private readonly lexicalOptions: Bm25Options = {},
  ) {
    this.filled = new Set(fields);
    this.lexical = parts?.lexical ?? new Bm25Index(lexicalOptions);
    this.docField = parts?.docField ?? new Bm25Index(lexicalOptions);
    this.normalized = parts?.normalized ?? new Bm25Index(lexicalOptions);
    this.vectors = parts ? parts.vectors : dense ? new VectorIndex({ dim: dense.dim, modelId: dense.modelId }) : undefined;
    this.docs = parts?.docs ?? new ChunkTable();
    // An unfilled field holds no documents at all (e.g. one the settings no longer read).
    for (const f of OPTIONAL_FIELDS) {
      if (this.filled.has(f) || this[f].size === 0) continue;
      this[f].close();
      this[f] = new Bm25Index(this.lexicalOptions);
    }
  }

  /** The optional fields this index fills. */
  get fields(): ReadonlySet<OptionalField> {
    return this.filled;
  }

  /** Stops filling an optional field and frees what it holds; its stage then finds nothing. */
  emptyField(field: OptionalField): void {
    if (!this.filled.delete(field)) return;
    this[field].close();
    this[field] = new Bm25Index(this.lexicalOptions);
  }

  /** Releases the index files the lexical fields and the vector lists read from. */
  close(): void {
    for (const field of this.lexicalFields) field.close();
    this.vectors?.close();
  }

  /** The lexical fields, each its own BM25 index (merged, saved and closed one by one). */
  get lexicalFields(): Bm25Index[] {
    return [this.lexical, this.docField, this.normalized];
  }

  get size(): number {
    return this.docs.size;
  }

  get(id: number): DocInfo | undefined {
    return this.docs.get(id);
  }

  add(doc: DocInput): void {
    if (this.docs.has(doc.id)) this.remove(doc.id);
    const { indexText, vector, code, docText, ...info } = doc;
    this.docs.add(info);
    this.lexical.add(doc.id, lexicalTerms(indexText));
    // A filled field gets every document, termless ones too, so its BM25 statistics count them;
    // an unfilled one gets none and costs nothing.
    if (this.filled.has('docField')) this.docField.add(doc.id, lexicalTerms(docText ?? doc.defines.join(' ')));
    if (this.filled.has('normalized')) this.normalized.add(doc.id, normalizedTerms(code ?? indexText));
    if (vector && this.vectors) this.vectors.add(doc.id, vector);
  }

  remove(id: number): void {
    if (!this.docs.remove(id)) return;
    this.lexical.remove(id);
    this.docField.remove(id);
    this.normalized.remove(id);
    this.vectors?.remove(id);
  }

  search(q: RetrievalQuery, qVec: Float32Array | undefined, opts: SearchOptions): Hit[] {
    const w = { ...DEFAULT_WEIGHTS, ...opts.weights };
    const weights: Record<string, number> = q.prose ? proseWeights(w) : w;
    const shared = opts.memo?.shared ?? new Map<string, unknown>();
    const ctx: SignalContext = {
      index: this,
      q,
      qVec,
      weights: w,
      depth: opts.depth ?? 100,
      accept: opts.accept,
      chainable: (id) => opts.chainInCurrentFile !== false || this.docs.fileOf(id) !== q.file,
      values: opts.memo?.values ?? new Map(),
      shared: <T>(key: string, make: () => T): T => {
        if (!shared.has(key)) shared.set(key, make());
        return shared.get(key) as T;
      },
    };
    const lists: FusionInput[] = [];
    for (const s of SIGNALS) {
      const weight = weights[s.name];
      if (!(weight > 0)) continue;
      const memo = opts.memo?.lists;
      const list = memo?.has(s.name) ? memo.get(s.name) : s.rank(ctx);
      memo?.set(s.name, list);
      if (list) lists.push({ ...list, name: s.name, weight, scoreTerm: s.scoreTerm && { weight: s.scoreTerm.weight(w), relative: s.scoreTerm.relative } });
    }
    const fused = fuse(lists, w.rrfK);
    const boost = w.rerank > 0 ? structuralBoost(q, opts.recentFiles ?? []) : undefined;
    const scored: { id: number; score: number; signals: Record<string, number> }[] = [];
    for (const [id, e] of fused) {
      if (!this.docs.has(id)) continue;
      const b = boost?.({ file: this.docs.fileOf(id)! }) ?? 0;
      if (b > 0) e.signals.rerank = Math.round(b * 100) / 100;
      scored.push({ id, score: e.score * (1 + w.rerank * b), signals: e.signals });
    }
    scored.sort((a, b) => b.score - a.score || a.id - b.id);
    const concepts = q.prose;
    const ranked = concepts ? withFileEvidence(scored, (id) => this.docs.fileOf(id), (files) => this.coverage(files, concepts, opts.accept)) : scored;
    // Document records are decoded from the table only for the hits returned.
    return ranked.slice(0, opts.k).map((h) => {
      const v: Record<string, number> = {};
      for (const [name, m] of ctx.values) {
        const x = m.get(h.id);
        if (x !== undefined) v[name] = x;
      }
      return { ...this.docs.get(h.id)!, score: h.score, signals: h.signals, values: v };
    });
  }

  /**
   * Each file's share (0..1) of `concepts` (a concept counts when any of its terms is in one of the
   * file's documents), each concept weighted by the idf of its rarest term held.
   */
  private coverage(files: string[], concepts: string[][], accept?: (id: number) => boolean): Map<string, number> {
    const fileOfId = new Map<number, string>();
    for (const f of files) for (const id of this.docs.idsOfFile(f)) if (!accept || accept(id)) fileOfId.set(id, f);
    const held = new Map<string, number>();
    let total = 0;
    for (const terms of concepts) {
      const present = terms.filter((t) => this.lexical.holds(t));
      if (!present.length) continue;
      const idf = Math.max(...present.map((t) => this.lexical.idf(t)));
      total += idf;
      const inFiles = new Set<string>();
      for (const h of this.lexical.search(present, fileOfId.size, (id) => fileOfId.has(id))) inFiles.add(fileOfId.get(h.id)!);
      for (const f of inFiles) held.set(f, (held.get(f) ?? 0) + idf);
    }
    for (const [f, x] of held) held.set(f, total > 0 ? x / total : 0);
    return held;
  }
}
