// What a large repository leaves out, decided from its file count (pure): the size-limited
// optional fields, and a smaller lexical work budget per query. Values and measurements: PARAMS.md.
import type { OptionalField } from '../retrieve/signal';

/**
 * Above this many indexable files the size-limited optional fields are left out: `normalized`
 * costs ~1.5 MB of memory per 1,000 files for +0.008 protocol C recall (PARAMS.md). The decision
 * is kept in the manifest: once left out, a field stays out until the index is rebuilt, so a
 * repository near the threshold never flip-flops into rebuilds.
 */
export const LARGE_REPO_FILES = 25_000;
/**
 * Lexical work budget (EngineOptions.maxQueryPostings) above LARGE_REPO_FILES; smaller indexes keep
 * Bm25Index's 250,000. Typing latency at scale (p95 ~10 ms less at 100k files) is worth the little
 * drift from exhaustive search (PARAMS.md, 2026-11-24-scale-100k-query-budget.json).
 */
export const LARGE_REPO_QUERY_POSTINGS = 150_000;
/** The optional fields a large repository leaves out. */
export const SIZE_LIMITED_FIELDS: readonly OptionalField[] = ['normalized'];

/** The filled fields a workspace of `files` files leaves out (none at or below the threshold). */
export function fieldsToLeaveOut(files: number, filled: ReadonlySet<OptionalField>, threshold = LARGE_REPO_FILES): OptionalField[] {
  if (files <= threshold) return [];
  return SIZE_LIMITED_FIELDS.filter((f) => filled.has(f));
}

/** The lexical work budget for a workspace of `files` files: the option wins; undefined keeps the index's own. */
export function queryBudget(files: number, option: number | undefined, threshold = LARGE_REPO_FILES): number | undefined {
  return option ?? (files > threshold ? LARGE_REPO_QUERY_POSTINGS : undefined);
}
