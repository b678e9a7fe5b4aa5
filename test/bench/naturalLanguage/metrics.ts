// Protocol N's metrics: the rank of the positive file among the first distinct files a system
// returns, and of the positive function among the first chunks, then MRR@10 and recall@5.

/** A ranked result: a whole file (ripgrep) or a chunk of one (line range, 0-based, inclusive). */
export interface RankedUnit { file: string; startLine?: number; endLine?: number }

export interface Positive { file: string; startLine: number; endLine: number }

/** Results counted: the first 10 (distinct files for the file rank, chunks for the chunk rank). */
export const CUTOFF = 10;

/** 1-based rank of the positive's file among the first CUTOFF distinct files (Infinity if absent). */
export function fileRank(ranked: RankedUnit[], positive: Positive): number {
  const seen = new Set<string>();
  for (const u of ranked) {
    if (seen.has(u.file)) continue;
    seen.add(u.file);
    if (u.file === positive.file) return seen.size;
    if (seen.size >= CUTOFF) break;
  }
  return Infinity;
}

/** 1-based rank of the first of the first CUTOFF chunks in the positive's file that overlaps the function (Infinity if absent). */
export function chunkRank(ranked: RankedUnit[], positive: Positive): number {
  for (let i = 0; i < Math.min(CUTOFF, ranked.length); i++) {
    const u = ranked[i];
    if (u.file === positive.file && u.startLine !== undefined && u.endLine !== undefined && u.startLine <= positive.endLine && u.endLine >= positive.startLine) return i + 1;
  }
  return Infinity;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Mean reciprocal rank over ranks (a rank past CUTOFF counts 0). */
export function mrr10(ranks: number[]): number {
  return ranks.length ? round3(ranks.reduce((s, r) => s + (r <= CUTOFF ? 1 / r : 0), 0) / ranks.length) : 0;
}

/** Share of ranks at or above 5. */
export function recall5(ranks: number[]): number {
  return ranks.length ? round3(ranks.filter((r) => r <= 5).length / ranks.length) : 0;
}
