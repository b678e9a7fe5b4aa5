// The search stage: an editor state (or a free-text query) becomes ranked hits, each with its
// per-signal ranks — the query built from the prefix (query.ts), the query vector and a
// hypothetical continuation's (hyde.ts), the signals fused (hybrid.ts). The context stage
// (context/assemble.ts) packs them. With `quick`, the lexical signals are ranked first and handed
// over before the embedding model runs; the full ranking then reuses their lists (hybrid.ts
// signalMemo) and adds only the model's signals: one request, two answers.
import type { RetrieveOptions } from '../api';
import type { IndexTables } from '../index/tables';
import { lexicalTerms } from '../lexical/tokenize';
import type { EditorState } from '../types';
import { normalizeLoneCR, withEditorLines } from '../util/lines';
import { fileFilter } from './fileFilter';
import { signalMemo, type Hit, type HybridIndex } from './hybrid';
import { prepareHypothetical } from './hyde';
import { isProse, proseConcepts } from './prose';
import { buildQuery, pathPrefix, type QueryOptions } from './query';
import { DEFAULT_WEIGHTS, type FusionWeights } from './weights';

/** Candidates per signal under RetrieveOptions.files (default depth 100). */
export const FILTERED_DEPTH = 2000;

/** What the search found for a request, for the context stage (context/assemble.ts). */
export interface RankedHits {
  /** The editor state, lone CRs as LF (a free-text query: its text as the prefix, line -1). */
  state: EditorState;
  /** The query was free text, not an editor state: no definitions, continuations or declarations. */
  freeText: boolean;
  /** The first line of the editor window: what the editor shows needs no retrieving. */
  windowStart: number;
  hits: Hit[];
  /** The query's terms (excerpt windows are chosen by them) and its window (novelty). */
  queryTerms: ReadonlySet<string>;
  window: string;
}

/** What the stage reads of the engine (read at each use: a reload replaces the tables and the index). */
export interface SearchSources {
  tables(): IndexTables;
  index(): HybridIndex;
  query: QueryOptions | undefined;
  /** A team index is synced: its lexical statistics do not answer prose concepts. */
  team: boolean;
  /** What the user is writing, by the model's query side; `asDocument` for code that stands in for a chunk (HyDE). */
  embedQuery(text: string, signal: AbortSignal | undefined, asDocument?: boolean): Promise<Float32Array | undefined>;
}

/** `quick`: given the lexical signals' hits (and awaited) before the model embeds the query. */
export async function rankHits(query: EditorState | string, opts: RetrieveOptions, tunedWeights: Partial<FusionWeights> | undefined, src: SearchSources, quick?: (lexical: RankedHits) => Promise<void>): Promise<RankedHits> {
  const k = opts.k ?? 10;
  const weights = opts.lexicalOnly ? { ...tunedWeights, dense: 0, hyde: 0 } : tunedWeights;
  const state: EditorState = typeof query === 'string' ? { file: '', prefix: normalizeLoneCR(query) + '\n', line: -1 } : withEditorLines(query);
  const q = buildQuery(state.file, state.prefix, src.query, state.language);
  // Free text: all of it is the query; a question in words (asked so) by its concepts (prose.ts).
  if (typeof query === 'string') Object.assign(q, { trimmed: q.window, prose: opts.prose && !src.team && isProse(query) ? proseConcepts(query, (t) => src.index().lexical.holds(t)) : undefined });
  const windowStart = state.line - (src.query?.windowLines ?? 60);
  // Chunks of the current file around the cursor hold what the user is typing or already sees.
  const currentFile = src.tables().paths.find(state.file);
  const inFiles = opts.files ? fileFilter(opts.files) : undefined;
  const accept = inFiles
    ? (id: number) => src.tables().chunks.existsOutside(id, currentFile, windowStart, state.line) && inFiles(src.tables().chunks.fileOf(id) ?? '')
    : (id: number) => src.tables().chunks.existsOutside(id, currentFile, windowStart, state.line);
  // A file filter refuses most candidates: the signals look deeper (the dense signal filters its candidates afterwards).
  const search = { k: Math.max(k, 10) * 3, accept, recentFiles: state.recentFiles, depth: inFiles ? FILTERED_DEPTH : undefined, memo: quick ? signalMemo() : undefined };
  const ranked = (hits: Hit[]): RankedHits => ({ state, freeText: typeof query === 'string', windowStart, hits, queryTerms: new Set(lexicalTerms(q.hypothetical ? `${q.trimmed}\n${q.hypothetical.text}` : q.trimmed)), window: q.window });
  if (quick) {
    opts.signal?.throwIfAborted();
    await quick(ranked(src.index().search(q, undefined, { ...search, weights: { ...weights, dense: 0, hyde: 0 } })));
  }
  const vec = weights?.dense === 0 ? undefined : await src.embedQuery(`${pathPrefix(state.file)}\n${q.trimmed}`, opts.signal);
  const hydeWeight = opts.lexicalOnly ? 0 : opts.hypothetical?.weight ?? weights?.hyde ?? DEFAULT_WEIGHTS.hyde;
  q.hypothetical = await prepareHypothetical(opts.hypothetical?.text, hydeWeight, q, (t) => weights?.dense === 0 ? Promise.resolve(undefined) : src.embedQuery(t, opts.signal, true));
  opts.signal?.throwIfAborted();
  return ranked(src.index().search(q, vec, { ...search, weights: { ...weights, hyde: hydeWeight } }));
}
