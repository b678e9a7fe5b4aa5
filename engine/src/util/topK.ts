// The k best of a stream of scored ids, for every ranked search in the engine (BM25, vectors).
// Tie rule: a higher score ranks first; among equal scores the lower id does, so a result never
// depends on the order in which candidates were scanned (an IVF probe order, a merge order).
// A binary heap of the kept entries with the worst at the root: O(log k) per accepted offer.

export interface ScoredId {
  id: number;
  score: number;
}

export class TopK {
  private readonly ids: number[] = [];
  private readonly scores: number[] = [];

  constructor(private readonly k: number) {}

  /** Whether (a) ranks below (b): lower score, or equal score and higher id. */
  private worse(a: number, b: number): boolean {
    const sa = this.scores[a], sb = this.scores[b];
    return sa < sb || (sa === sb && this.ids[a] > this.ids[b]);
  }

  private swap(a: number, b: number): void {
    [this.ids[a], this.ids[b]] = [this.ids[b], this.ids[a]];
    [this.scores[a], this.scores[b]] = [this.scores[b], this.scores[a]];
  }

  offer(id: number, score: number): void {
    if (this.k <= 0) return;
    if (this.ids.length < this.k) {
      this.ids.push(id);
      this.scores.push(score);
      let i = this.ids.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.worse(i, p)) break;
        this.swap(i, p);
        i = p;
      }
      return;
    }
    // The root is the worst kept entry; replace it only with something better.
    if (score < this.scores[0] || (score === this.scores[0] && id > this.ids[0])) return;
    this.ids[0] = id;
    this.scores[0] = score;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i;
      if (l < this.ids.length && this.worse(l, m)) m = l;
      if (r < this.ids.length && this.worse(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }

  /** Best first. */
  sorted(): ScoredId[] {
    const out = this.ids.map((id, i) => ({ id, score: this.scores[i] }));
    out.sort((x, y) => y.score - x.score || x.id - y.id);
    return out;
  }
}
