// Centroids for the inverted lists: spherical k-means on a sample, two levels deep so that neither
// training nor assigning 470k vectors to ~700 lists has to compare every vector with every
// centroid (N × lists × dim would be ~80 G multiply-adds, a minute even with SIMD).
//   train:  k-means into √lists groups, then each group's members into its share of the lists.
//   assign: best two groups (of the leaf centroids, regrouped), then the best leaf inside them.
// Assignment is therefore approximate (a vector can land in its second-nearest list); measured
// cost on clustered data is below 0.01 recall@10 (see vectorIndex.ts header).
import { Int8Scorer, readRecord, recordBytes, writeRecord } from './int8Kernel';

const ITERATIONS = 8;

/** Deterministic PRNG (mulberry32) so a rebuild from the same vectors gives the same lists. */
export function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Encodes unit vectors as records (id = position) so the scorer can compare against them. */
export function toRecords(vectors: Float32Array[], dim: number): Buffer {
  const stride = recordBytes(dim);
  const buf = Buffer.alloc(vectors.length * stride);
  vectors.forEach((v, i) => writeRecord(buf, i * stride, i, v, dim));
  return buf;
}

function normalise(v: Float32Array): Float32Array {
  let s = 0;
  for (let d = 0; d < v.length; d++) s += v[d] * v[d];
  const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
  for (let d = 0; d < v.length; d++) v[d] *= inv;
  return v;
}

/** Index of the best-scoring record in `recs` (count of them) for the scorer's current query. */
function best(scorer: Int8Scorer, recs: Buffer, count: number): number {
  let at = 0;
  let top = -Infinity;
  scorer.scoreRecords(recs, 0, count, (i, s) => {
    if (s > top) {
      top = s;
      at = i;
    }
  });
  return at;
}

/** Spherical k-means of `points` (unit vectors) into `k` unit centroids. */
export function sphericalKmeans(points: Float32Array[], k: number, dim: number, scorer: Int8Scorer, rand: () => number): Float32Array[] {
  k = Math.max(1, Math.min(k, points.length));
  // k-means++-lite: distinct random points as seeds.
  const order = points.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  let centroids: Float32Array[] = order.slice(0, k).map((i) => Float32Array.from(points[i]));
  const assign = new Int32Array(points.length);
  for (let it = 0; it < ITERATIONS; it++) {
    const recs = toRecords(centroids, dim);
    for (let p = 0; p < points.length; p++) {
      scorer.setQuery(points[p]);
      assign[p] = best(scorer, recs, k);
    }
    const sums = Array.from({ length: k }, () => new Float32Array(dim));
    const counts = new Int32Array(k);
    for (let p = 0; p < points.length; p++) {
      const s = sums[assign[p]];
      const v = points[p];
      for (let d = 0; d < dim; d++) s[d] += v[d];
      counts[assign[p]]++;
    }
    // An empty cluster is re-seeded on a random point rather than left dead.
    centroids = sums.map((s, c) => (counts[c] > 0 ? normalise(s) : Float32Array.from(points[Math.floor(rand() * points.length)])));
  }
  return centroids;
}

/** About `lists` leaf centroids for `sample` (unit vectors), trained in two levels. */
export function trainLists(sample: Float32Array[], lists: number, dim: number, scorer: Int8Scorer, seed: number): Float32Array[] {
  const rand = rng(seed);
  const groups = Math.max(1, Math.round(Math.sqrt(lists)));
  const top = sphericalKmeans(sample, groups, dim, scorer, rand);
  const topRecs = toRecords(top, dim);
  const members: Float32Array[][] = top.map(() => []);
  for (const v of sample) {
    scorer.setQuery(v);
    members[best(scorer, topRecs, top.length)].push(v);
  }
  const leaves: Float32Array[] = [];
  for (const group of members) {
    if (group.length === 0) continue;
    const share = Math.max(1, Math.round((lists * group.length) / sample.length));
    leaves.push(...sphericalKmeans(group, share, dim, scorer, rand));
  }
  return leaves;
}

/** Assigns vectors to the nearest leaf centroid through a coarse grouping of the leaves. */
export class ListAssigner {
  private readonly groupRecs: Buffer;
  private readonly groupCount: number;
  /** Per group: leaf records and the leaf numbers they stand for. */
  private readonly leafRecs: Buffer[] = [];
  private readonly leafNos: number[][] = [];
  private readonly stride: number;

  constructor(leafRecords: Buffer, leafCount: number, private readonly dim: number, private readonly scorer: Int8Scorer, seed: number) {
    this.stride = recordBytes(dim);
    const leaves = Array.from({ length: leafCount }, (_, i) => readRecord(leafRecords, i * this.stride, dim, new Float32Array(dim)));
    const groups = sphericalKmeans(leaves.map((v) => normalise(Float32Array.from(v))), Math.round(Math.sqrt(leafCount)), dim, scorer, rng(seed));
    this.groupRecs = toRecords(groups, dim);
    this.groupCount = groups.length;
    const byGroup: number[][] = groups.map(() => []);
    leaves.forEach((v, i) => {
      scorer.setQuery(v);
      byGroup[best(scorer, this.groupRecs, this.groupCount)].push(i);
    });
    for (const nos of byGroup) {
      this.leafNos.push(nos);
      const recs = Buffer.alloc(nos.length * this.stride);
      nos.forEach((leaf, j) => leafRecords.copy(recs, j * this.stride, leaf * this.stride, (leaf + 1) * this.stride));
      this.leafRecs.push(recs);
    }
  }

  /** The list for the record at `src[off]` (dequantised into `tmp`). */
  assign(src: Buffer, off: number, tmp: Float32Array): number {
    const { scorer } = this;
    scorer.setQuery(readRecord(src, off, this.dim, tmp));
    let first = -1;
    let second = -1;
    let s1 = -Infinity;
    let s2 = -Infinity;
    scorer.scoreRecords(this.groupRecs, 0, this.groupCount, (g, s) => {
      if (s > s1) {
        [second, s2] = [first, s1];
        [first, s1] = [g, s];
      } else if (s > s2) [second, s2] = [g, s];
    });
    let leaf = -1;
    let top = -Infinity;
    for (const g of second >= 0 ? [first, second] : [first]) {
      const nos = this.leafNos[g];
      scorer.scoreRecords(this.leafRecs[g], 0, nos.length, (i, s) => {
        if (s > top) {
          top = s;
          leaf = nos[i];
        }
      });
    }
    return leaf;
  }
}
