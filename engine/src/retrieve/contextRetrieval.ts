// Engine.retrieve: an editor state (or a free-text query) to ranked, packed chunks. The query views
// (query.ts) are ranked by every signal (hybrid.ts), fused, and packed into the budget with the
// definitions of the names in play and the continuations of the best hits. With `onQuick` the
// lexical signals are ranked first and their answer given before the embedding model runs; the
// full ranking then reuses their lists and adds only the model's signals (one request, two answers).
import type { RetrieveOptions } from '../api';
import type { IndexTables } from '../index/tables';
import { lexicalTerms } from '../lexical/tokenize';
import type { EditorState, RetrievedChunk } from '../types';
import { normalizeLoneCR } from '../util/lines';
import { continuationChunks, DEFAULT_CONTINUATION } from './continuation';
import { declarationsFor, declarationSourceOf } from './declarations';
import { DEFINITION_SHARE } from './definitionContext';
import { namesOnScreen } from './excerpt';
import { fileFilter } from './fileFilter';
import { signalMemo, type HybridIndex, type Hit } from './hybrid';
import { prepareHypothetical } from './hyde';
import type { NameLookups } from './nameLookups';
import { DEFAULT_COMPACT, DEFAULT_LINES_PER_HIT, FRESH_COMPACT, FRESH_CONTINUATIONS, FRESH_LINES_PER_HIT, packHits } from './pack';
import { isProse, proseConcepts } from './prose';
import { buildQuery, pathPrefix, type QueryOptions, type RetrievalQuery } from './query';
import { DEFAULT_WEIGHTS, type FusionWeights } from './weights';

/** Candidates per signal under RetrieveOptions.files (default depth 100). */
const FILTERED_DEPTH = 2000;

/** The tuning defaults retrieve reads (EngineTuning's). */
export interface RetrieveTuning {
  query?: QueryOptions;
  maxLinesPerHit?: number;
  compact?: boolean;
  maxPerFile?: number;
  novelty?: number;
  freshNames?: boolean;
  continuations?: number;
}

/** What retrieve reads of the engine. */
export interface RetrievalSource {
  tables: IndexTables;
  index: HybridIndex;
  names: NameLookups;
  tuning: RetrieveTuning;
  /** A team index is synced in (no prose path: its file evidence is not local). */
  team: boolean;
  linesOf(file: string): string[];
  /** The model's vector for a text (undefined: no model); `asDocument` for code standing in for a chunk. */
  embedQuery(text: string, signal?: AbortSignal, asDocument?: boolean): Promise<Float32Array | undefined>;
}

/** Ranked chunks for an editor state (or a free-text query), each with its per-signal ranks. */
export async function retrieveChunks(src: RetrievalSource, query: EditorState | string, opts: RetrieveOptions, tunedWeights: Partial<FusionWeights> | undefined): Promise<RetrievedChunk[]> {
  const { tables, index, tuning } = src;
  const k = opts.k ?? 10;
  const weights = opts.lexicalOnly ? { ...tunedWeights, dense: 0, hyde: 0 } : tunedWeights;
  const state: EditorState = typeof query === 'string' ? { file: '', prefix: normalizeLoneCR(query) + '\n', line: -1 } : withEditorLines(query);
  const q = buildQuery(state.file, state.prefix, tuning.query, state.language);
  // Free text: all of it is the query; a question in words (asked so) by its concepts (retrieve/prose.ts).
  if (typeof query === 'string') Object.assign(q, { trimmed: q.window, prose: opts.prose && !src.team && isProse(query) ? proseConcepts(query, (t) => index.lexical.holds(t)) : undefined });
  const windowStart = state.line - (tuning.query?.windowLines ?? 60);
  // Chunks of the current file around the cursor hold what the user is typing or already sees.
  const currentFile = tables.paths.find(state.file);
  const inFiles = opts.files ? fileFilter(opts.files) : undefined;
  const accept = inFiles
    ? (id: number) => tables.chunks.existsOutside(id, currentFile, windowStart, state.line) && inFiles(tables.chunks.fileOf(id) ?? '')
    : (id: number) => tables.chunks.existsOutside(id, currentFile, windowStart, state.line);
  // Context for a completion (asked with a budget): lines adding no name beyond the last lines and earlier chunks dropped (retrieve/excerpt.ts).
  const fresh = opts.freshNames ?? tuning.freshNames ?? opts.budgetTokens !== undefined;
  const seen = fresh ? namesOnScreen(state.prefix) : undefined;
  // The definitions of the names in play come first, out of their share of the budget (retrieve/definitionContext.ts).
  const definitionTokens = opts.definitionTokens ?? (opts.budgetTokens === undefined ? 0 : Math.round(DEFINITION_SHARE * opts.budgetTokens));
  const defined = definitionTokens > 0 && typeof query !== 'string' ? await src.names.definitionsInPlay(state, definitionTokens * 4, windowStart, seen ?? namesOnScreen(state.prefix), opts.signal) : [];
  // A file filter refuses most candidates: the signals look deeper (the dense signal filters its candidates afterwards).
  const search = { k: Math.max(k, 10) * 3, accept, recentFiles: state.recentFiles, depth: inFiles ? FILTERED_DEPTH : undefined, memo: opts.onQuick ? signalMemo() : undefined };
  const pack = (hits: Hit[]): RetrievedChunk[] => packContext(src, { state, q, opts, k, fresh, seen, windowStart, defined, query }, hits);
  if (opts.onQuick) {
    opts.signal?.throwIfAborted();
    opts.onQuick(pack(index.search(q, undefined, { ...search, weights: { ...weights, dense: 0, hyde: 0 } })));
  }
  const vec = weights?.dense === 0 ? undefined : await src.embedQuery(`${pathPrefix(state.file)}\n${q.trimmed}`, opts.signal);
  const hydeWeight = opts.lexicalOnly ? 0 : opts.hypothetical?.weight ?? weights?.hyde ?? DEFAULT_WEIGHTS.hyde;
  q.hypothetical = await prepareHypothetical(opts.hypothetical?.text, hydeWeight, q, (t) => weights?.dense === 0 ? Promise.resolve(undefined) : src.embedQuery(t, opts.signal, true));
  opts.signal?.throwIfAborted();
  return pack(index.search(q, vec, { ...search, weights: { ...weights, hyde: hydeWeight } }));
}

interface PackInput {
  state: EditorState;
  q: RetrievalQuery;
  opts: RetrieveOptions;
  k: number;
  fresh: boolean;
  seen: Set<string> | undefined;
  windowStart: number;
  defined: RetrievedChunk[];
  query: EditorState | string;
}

/** The hits cut to their best lines within the budget, after the definitions in play and the continuations. */
function packContext(src: RetrievalSource, p: PackInput, hits: Hit[]): RetrievedChunk[] {
  const { state, q, opts, fresh, defined } = p;
  const tuning = src.tuning;
  // Packing adds the names it gives to `seen`: each pass starts from the names before it.
  const seen = p.seen && new Set(p.seen);
  const queryTerms = new Set(lexicalTerms(q.hypothetical ? `${q.trimmed}\n${q.hypothetical.text}` : q.trimmed));
  // The lines after where the best hits resemble the cursor's last line, before the hits themselves (retrieve/continuation.ts).
  const continuations = opts.continuations ?? tuning.continuations ?? (fresh ? FRESH_CONTINUATIONS : 0);
  const continued = continuations > 0 && typeof p.query !== 'string'
    ? continuationChunks(hits, continuations, (file) => src.linesOf(file), { file: state.file, prefix: state.prefix, windowStart: p.windowStart }, DEFAULT_CONTINUATION, seen)
    : [];
  const packed = packHits(hits, (file) => src.linesOf(file), {
    k: p.k,
    // The continuations come out of the same budget (4 characters a token).
    budgetTokens: opts.budgetTokens === undefined ? undefined : Math.max(0, opts.budgetTokens - Math.ceil([...defined, ...continued].reduce((n, c) => n + c.text.length, 0) / 4)),
    packing: {
      maxLines: opts.maxLinesPerHit ?? tuning.maxLinesPerHit ?? (fresh ? FRESH_LINES_PER_HIT : DEFAULT_LINES_PER_HIT),
      compact: opts.compact ?? tuning.compact ?? (fresh ? FRESH_COMPACT : DEFAULT_COMPACT),
      mode: opts.excerpt,
      seen,
    },
    maxPerFile: opts.maxPerFile ?? tuning.maxPerFile ?? Infinity,
    novelty: opts.novelty ?? tuning.novelty ?? 0,
    queryTerms,
    window: q.window,
  });
  // Declarations of the names in play, before the analogous code (retrieve/declarations.ts).
  const out = [...defined, ...continued, ...packed];
  if (opts.declarationTokens) return [...declarationsFor(declarationSourceOf(src.tables), state, { budgetChars: opts.declarationTokens * 4 }), ...out];
  return out;
}

/** The state with lone CRs as LF (same length), so its lines are counted as the editor counts them, as in the index. */
export function withEditorLines(state: EditorState): EditorState {
  if (!state.prefix.includes('\r') && !state.suffix?.includes('\r')) return state;
  return { ...state, prefix: normalizeLoneCR(state.prefix), ...(state.suffix === undefined ? {} : { suffix: normalizeLoneCR(state.suffix) }) };
}
