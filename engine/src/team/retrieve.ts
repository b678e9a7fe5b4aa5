// Retrieval from a team index: the query the engine builds for an editor state (retrieve/query.ts),
// its lists read from PostgreSQL (reader.ts), fused by the engine's own fusion (retrieve/fusion.ts,
// in registry order) with the same weights, so one repository ranks the same from the team index as from
// a local index. Signals served: bm25, recent, dense, symbol, normalized (the defaults); the
// off-by-default stages (intent, docField, next, expand, hyde, rerank) are not served and count 0.
import type { EditorState } from '../types';
import { lexicalTerms } from '../lexical/tokenize';
import { boundNames, normalizedTerms } from '../lexical/normalize';
import { DEFAULT_WEIGHTS, type DocInfo, type FusionWeights } from '../retrieve/hybrid';
import { fuse, type FusionInput } from '../retrieve/fusion';
import { SIGNALS } from '../retrieve/registry';
import { buildQuery, pathPrefix, type QueryOptions, type RetrievalQuery } from '../retrieve/query';
import type { TeamIndexReader, TeamListRequest } from './reader';

export interface TeamHit extends DocInfo {
  score: number;
  signals: Record<string, number>;
}

export interface TeamRetrieveOptions {
  k?: number;
  weights?: Partial<FusionWeights>;
  query?: QueryOptions;
  /** Embeds the query text as the engine does (its query side); absent: no dense signal. */
  embedQuery?: (text: string) => Promise<Float32Array | undefined>;
  maxQueryPostings?: number;
  /** MaxScore pruning of the lexical lists (default true). */
  prune?: boolean;
}

/** The lexical lists of a query with their terms, as the bm25, recent and normalized signals build them. */
export function lexicalRequests(q: RetrievalQuery, w: FusionWeights): TeamListRequest[] {
  const prefix = q.file ? `${q.file}\n` : '';
  const lexical: TeamListRequest[] = [];
  if (w.bm25 > 0) lexical.push({ name: 'bm25', field: 'lexical', terms: lexicalTerms(prefix + q.window) });
  if (w.recent > 0) lexical.push({ name: 'recent', field: 'lexical', terms: lexicalTerms(prefix + q.trimmed) });
  if (w.normalized > 0) lexical.push({ name: 'normalized', field: 'normalized', terms: normalizedTerms(q.trimmed, boundNames(q.window)) });
  return lexical;
}

/** Ranked chunks (line ranges, no text) for an editor state or a free-text query, as Engine.retrieve ranks them. */
export async function teamRetrieve(reader: TeamIndexReader, query: EditorState | string, opts: TeamRetrieveOptions = {}): Promise<TeamHit[]> {
  const k = opts.k ?? 10;
  const weights = opts.weights;
  const w: FusionWeights = { ...DEFAULT_WEIGHTS, ...weights, intent: 0, docField: 0, next: 0, expand: 0, hyde: 0, rerank: 0 };
  const state: EditorState = typeof query === 'string' ? { file: '', prefix: query + '\n', line: -1 } : query;
  const q = buildQuery(state.file, state.prefix, opts.query, state.language);
  if (typeof query === 'string') q.trimmed = q.window;
  const windowStart = state.line - (opts.query?.windowLines ?? 60);
  const vec = w.dense === 0 || !opts.embedQuery ? undefined : await opts.embedQuery(`${pathPrefix(state.file)}\n${q.trimmed}`);
  const lexical = lexicalRequests(q, w);
  const depth = 100;
  let top: { id: number; score: number; signals: Record<string, number> }[] = [];
  const res = await reader.search(
    {
      lexical,
      identifiers: w.symbol > 0 ? q.identifiers : undefined,
      vector: w.dense > 0 ? vec : undefined,
      exclude: state.file ? { file: state.file, from: windowStart, to: state.line } : undefined,
      depth,
      maxQueryPostings: opts.maxQueryPostings,
      prune: opts.prune,
    },
    (got) => {
      // The lists in registry order, as HybridIndex.search fuses them (the order only matters for
      // ties); each scored list carries its score term as the signal declares it.
      const lists: FusionInput[] = [];
      for (const sig of SIGNALS) {
        const ids = got.lists.get(sig.name);
        const weight = w[sig.name];
        if (!ids || !(weight > 0)) continue;
        lists.push({ ids, scores: got.values.get(sig.name), name: sig.name, weight, scoreTerm: sig.scoreTerm && { weight: sig.scoreTerm.weight(w), relative: sig.scoreTerm.relative } });
      }
      const fused = fuse(lists, w.rrfK);
      const scored = [...fused].map(([id, e]) => ({ id, score: e.score, signals: e.signals }));
      scored.sort((a, b) => b.score - a.score || a.id - b.id);
      top = scored.slice(0, k);
      return top.map((h) => h.id);
    },
  );
  return top.flatMap((h) => {
    const d = res.docs.get(h.id);
    return d ? [{ ...d, score: h.score, signals: h.signals }] : [];
  });
}
