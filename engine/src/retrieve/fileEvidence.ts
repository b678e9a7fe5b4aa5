// Which file answers a question is told by the whole file, not its best chunk alone: the function
// asked for may say little in its own words while its file's other functions, comments and names
// say the rest (what grep's "files matching the most query words" captures). For search_code's
// prose queries each chunk's fused score gains a share of its file's other best chunks and of the
// share of the query's concepts the file holds (coverage, weighted by each concept's idf).

export interface ScoredDoc { id: number; score: number; signals: Record<string, number> }

/** Tuned on protocol N (test/bench/README.md); PARAMS.md has the runs. */
export const FILE_EVIDENCE = {
  /** Weight of the file's other best chunks' scores added to each chunk's. */
  rest: 0.15,
  /** How many of the file's other chunks count. */
  restChunks: 3,
  /** Weight of the file's concept coverage (0..1), in units of the best fused score. */
  coverage: 0.8,
  /** Coverage is measured for this many of the best files (the rest get none). */
  coverageFiles: 30,
} as const;

/**
 * `scored` (best first) re-scored with file evidence and re-sorted (ties to the lower id).
 * `coverageOf(files)`: each file's share (0..1) of the query's concepts, for the best files.
 */
export function withFileEvidence(scored: ScoredDoc[], fileOf: (id: number) => string | undefined, coverageOf?: (files: string[]) => Map<string, number>): ScoredDoc[] {
  if (scored.length === 0) return scored;
  const byFile = new Map<string, number[]>();
  for (const d of scored) {
    const f = fileOf(d.id);
    if (f === undefined) continue;
    let list = byFile.get(f);
    if (!list) byFile.set(f, (list = []));
    if (list.length <= FILE_EVIDENCE.restChunks) list.push(d.score);
  }
  const best = scored[0].score;
  const coverage = coverageOf && FILE_EVIDENCE.coverage > 0 ? coverageOf([...byFile.keys()].slice(0, FILE_EVIDENCE.coverageFiles)) : undefined;
  const out = scored.map((d) => {
    const f = fileOf(d.id);
    const top = f === undefined ? [] : byFile.get(f)!;
    // The file's best chunks other than this one (this one is among them when it is that good).
    let rest = 0, taken = 0, self = false;
    for (const s of top) {
      if (!self && s === d.score) { self = true; continue; }
      if (taken++ < FILE_EVIDENCE.restChunks) rest += s;
    }
    const cov = (f !== undefined && coverage?.get(f)) || 0;
    return { ...d, score: d.score + FILE_EVIDENCE.rest * rest + FILE_EVIDENCE.coverage * cov * best };
  });
  return out.sort((a, b) => b.score - a.score || a.id - b.id);
}
