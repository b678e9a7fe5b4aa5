// Weighted reciprocal-rank fusion plus score terms. Each list adds weight / (rrfK + rank) to the
// documents it ranks; each list with a score term then adds term weight × the document's score
// relative to the list's best (signal.ts). Lists are summed in registry order, so the same inputs
// always give the same floating-point sums.
import type { RankedList } from './signal';

export interface FusionInput extends RankedList {
  name: string;
  weight: number;
  /** The score term, when the signal has one: its weight and how a score compares with the best. */
  scoreTerm?: { weight: number; relative: 'ratio' | 'difference' };
}

export interface Fused {
  score: number;
  /** Per list: the document's 1-based rank in it. */
  signals: Record<string, number>;
}

export function fuse(lists: readonly FusionInput[], rrfK: number): Map<number, Fused> {
  const fused = new Map<number, Fused>();
  for (const { name, weight, ids } of lists) {
    ids.forEach((id, i) => {
      let e = fused.get(id);
      if (!e) fused.set(id, (e = { score: 0, signals: {} }));
      e.score += weight / (rrfK + i + 1);
      e.signals[name] = i + 1;
    });
  }
  for (const l of lists) {
    const term = l.scoreTerm;
    const scores = l.scores;
    // Best and worst among the candidates the list kept (a dense search also returns the ids
    // `accept` refused).
    const kept = l.kept ?? l.ids;
    if (!term?.weight || !scores || !kept.length) continue;
    let best = -Infinity;
    let worst = Infinity;
    for (const id of kept) { const x = scores.get(id)!; best = Math.max(best, x); worst = Math.min(worst, x); }
    for (const [id, e] of fused) {
      const x = scores.get(id);
      const relative = term.relative === 'difference' ? (x ?? worst) - best : x !== undefined && best > 0 ? x / best : 0;
      e.score += term.weight * relative;
    }
  }
  return fused;
}
