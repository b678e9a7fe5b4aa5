// Context packing (pure): ranked hits become the text the caller shows or prompts with — at most
// `maxPerFile` hits a file, each cut to its best window of lines (excerpt.ts), optionally reordered
// for novelty, then cut to a character budget. Values: PARAMS.md.
import type { RetrievedChunk } from '../types';
import { excerpt, selectNovel, type ExcerptOptions } from './excerpt';
import type { Hit } from '../retrieve/hybrid';

/** Lines per retrieved chunk: more chunks in the budget beat longer ones on protocol C (PARAMS.md). */
export const DEFAULT_LINES_PER_HIT = 20;
/** Lines per chunk when lines that add no new name are dropped (freshNames): room for more of the chunk (PARAMS.md). */
export const FRESH_LINES_PER_HIT = 30;
/** With freshNames, comment lines stay when they carry a new name (blank ones never do); docs name what the code uses (PARAMS.md). */
export const FRESH_COMPACT = false;
/** With freshNames, the best hits continued past the line like the cursor's last (context/continuation.ts, PARAMS.md). */
export const FRESH_CONTINUATIONS = 3;
/**
 * Retrieved text drops blank and comment-only lines by default: more code fits (PARAMS.md). The
 * built-in completion asks for the lines as written, since it continues them.
 */
export const DEFAULT_COMPACT = true;

/**
 * What a request's packing falls back on where its RetrieveOptions say nothing: the engine's
 * RetrievalDefaults (the benchmark's), else PACKING_DEFAULTS for the request's mode (packingFor).
 */
export interface PackingDefaults {
  /** Lines per retrieved chunk (RetrieveOptions.maxLinesPerHit). */
  maxLinesPerHit?: number;
  /** Drop blank and comment-only lines (RetrieveOptions.compact). */
  compact?: boolean;
  /** Hits kept per file (RetrieveOptions.maxPerFile). */
  maxPerFile?: number;
  /** Weight of the novelty reordering, 0: off (RetrieveOptions.novelty). */
  novelty?: number;
  /** Drop lines adding no name the context holds (RetrieveOptions.freshNames). */
  freshNames?: boolean;
  /** Best hits continued past the line like the cursor's last (RetrieveOptions.continuations). */
  continuations?: number;
}

/** One request's packing, every option decided. */
export type Packing = Required<PackingDefaults>;

/**
 * The built-in packing, one column per mode: `plain` for Find Related, hover and free-text
 * queries, `fresh` for a completion's context (freshNames, on by default when a budget is asked).
 */
export const PACKING_DEFAULTS: Readonly<Record<'plain' | 'fresh', Omit<Packing, 'freshNames'>>> = {
  plain: { maxLinesPerHit: DEFAULT_LINES_PER_HIT, compact: DEFAULT_COMPACT, maxPerFile: Infinity, novelty: 0, continuations: 0 },
  fresh: { maxLinesPerHit: FRESH_LINES_PER_HIT, compact: FRESH_COMPACT, maxPerFile: Infinity, novelty: 0, continuations: FRESH_CONTINUATIONS },
};

/** Each option the request's, else the engine's default, else PACKING_DEFAULTS for the request's mode. */
export function packingFor(asked: PackingDefaults & { budgetTokens?: number }, tuned: PackingDefaults = {}): Packing {
  const freshNames = asked.freshNames ?? tuned.freshNames ?? asked.budgetTokens !== undefined;
  const base = PACKING_DEFAULTS[freshNames ? 'fresh' : 'plain'];
  return {
    freshNames,
    maxLinesPerHit: asked.maxLinesPerHit ?? tuned.maxLinesPerHit ?? base.maxLinesPerHit,
    compact: asked.compact ?? tuned.compact ?? base.compact,
    maxPerFile: asked.maxPerFile ?? tuned.maxPerFile ?? base.maxPerFile,
    novelty: asked.novelty ?? tuned.novelty ?? base.novelty,
    continuations: asked.continuations ?? tuned.continuations ?? base.continuations,
  };
}

export interface PackOptions {
  k: number;
  /** Tokens the result may hold (about 4 characters each); undefined: no limit. */
  budgetTokens?: number;
  packing: ExcerptOptions;
  maxPerFile: number;
  /** > 0: reorder a pool of 3k candidates for novelty against the query window (selectNovel). */
  novelty: number;
  /** The query's terms (excerpt windows are chosen by them) and its window (novelty). */
  queryTerms: ReadonlySet<string>;
  window: string;
}

export function packHits(hits: readonly Hit[], linesOf: (file: string) => readonly string[], o: PackOptions): RetrievedChunk[] {
  const out: RetrievedChunk[] = [];
  let budget = o.budgetTokens !== undefined ? o.budgetTokens * 4 : Infinity;
  const perFile = new Map<string, number>();
  // Novelty reorders a wider pool; without it only the first k are cut and shown.
  const pool = o.novelty > 0 ? o.k * 3 : o.k;
  const candidates: RetrievedChunk[] = [];
  for (const h of hits) {
    if (candidates.length >= pool) break;
    const n = perFile.get(h.file) ?? 0;
    if (n >= o.maxPerFile) continue;
    perFile.set(h.file, n + 1);
    const text = excerpt(linesOf(h.file).slice(h.startLine, h.endLine + 1), o.queryTerms, o.packing);
    candidates.push({ file: h.file, startLine: h.startLine, endLine: h.endLine, kind: h.kind, name: h.name, text, score: h.score, signals: h.signals });
  }
  for (const c of o.novelty > 0 ? selectNovel(candidates, o.window, o.novelty, o.k) : candidates) {
    if (budget <= 0) break;
    if (c.text.length > budget) c.text = c.text.slice(0, budget);
    budget -= c.text.length;
    out.push(c);
  }
  return out;
}
