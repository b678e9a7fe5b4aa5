import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { VectorIndex } from '../../engine/src/vector';

/** Deterministic PRNG (mulberry32) so failures reproduce. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomUnitVectors(n: number, dim: number, seed: number): Float32Array[] {
  const rand = rng(seed);
  return Array.from({ length: n }, () => {
    const v = new Float32Array(dim);
    let s = 0;
    for (let d = 0; d < dim; d++) {
      // Sum of uniforms ≈ Gaussian: directions uniform on the sphere, the hard case for ANN.
      v[d] = rand() + rand() + rand() - 1.5;
      s += v[d] * v[d];
    }
    for (let d = 0; d < dim; d++) v[d] /= Math.sqrt(s);
    return v;
  });
}

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function bruteForce(data: Map<number, Float32Array>, q: Float32Array, k: number): number[] {
  return [...data].map(([id, v]) => ({ id, s: dot(v, q) })).sort((a, b) => b.s - a.s).slice(0, k).map((x) => x.id);
}

function recallAt10(index: VectorIndex, data: Map<number, Float32Array>, queries: Float32Array[]): number {
  let hits = 0;
  for (const q of queries) {
    const truth = new Set(bruteForce(data, q, 10));
    hits += index.search(q, 10).filter((r) => truth.has(r.id)).length;
  }
  return hits / (queries.length * 10);
}

describe('VectorIndex', function () {
  this.timeout(120_000);
  let tmp: string;
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rr-vec-'))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  describe('HNSW on 5k random unit vectors, dim 64', () => {
    const dim = 64;
    const vectors = randomUnitVectors(5000, dim, 1);
    const data = new Map(vectors.map((v, i) => [i * 7 + 3, v] as [number, Float32Array]));
    const queries = randomUnitVectors(200, dim, 2);
    let index: VectorIndex;
    before(() => {
      index = new VectorIndex({ dim, modelId: 'm1' });
      for (const [id, v] of data) index.add(id, v);
    });

    it('builds a graph and reaches recall@10 >= 0.95 against brute force', () => {
      assert.strictEqual(index.kind, 'hnsw');
      assert.strictEqual(index.size, 5000);
      const recall = recallAt10(index, data, queries);
      assert.ok(recall >= 0.95, `recall@10 ${recall}`);
    });

    it('scores are cosine similarities, best first', () => {
      const res = index.search(queries[0], 10);
      for (const r of res) assert.ok(Math.abs(r.score - dot(data.get(r.id)!, queries[0])) < 1e-4);
      for (let i = 1; i < res.length; i++) assert.ok(res[i - 1].score >= res[i].score);
    });

    it('gives the same neighbours after save/load, and keeps recall', () => {
      index.save(tmp);
      const loaded = VectorIndex.load(tmp, { dim, modelId: 'm1' });
      assert.ok(loaded instanceof VectorIndex, JSON.stringify(loaded));
      assert.strictEqual(loaded.kind, 'hnsw');
      assert.strictEqual(loaded.size, 5000);
      assert.strictEqual(loaded.loadNote, undefined);
      for (const q of queries.slice(0, 20)) {
        assert.deepStrictEqual(loaded.search(q, 10).map((r) => r.id), index.search(q, 10).map((r) => r.id));
      }
      const recall = recallAt10(loaded, data, queries);
      assert.ok(recall >= 0.95, `recall@10 after load ${recall}`);
    });

    it('repairs a truncated graph file from the stored vectors', () => {
      index.save(tmp);
      const graph = path.join(tmp, 'vectors.hnsw');
      fs.truncateSync(graph, Math.floor(fs.statSync(graph).size / 2));
      const loaded = VectorIndex.load(tmp, { dim, modelId: 'm1' });
      assert.ok(loaded instanceof VectorIndex, JSON.stringify(loaded));
      assert.match(loaded.loadNote ?? '', /truncated.*rebuilt/);
      assert.strictEqual(loaded.size, 5000);
      assert.ok(recallAt10(loaded, data, queries) >= 0.95);
    });
  });

  describe('damaged or mismatched files', () => {
    const dim = 16;
    function saved(kind: 'flat' | 'hnsw'): void {
      const index = new VectorIndex({ dim, modelId: 'model-a', flatThreshold: kind === 'flat' ? 2000 : 10 });
      randomUnitVectors(100, dim, 3).forEach((v, i) => index.add(i, v));
      assert.strictEqual(index.kind, kind);
      index.save(tmp);
    }
    const expectError = (pattern: RegExp, expect = { dim, modelId: 'model-a' }): void => {
      const res = VectorIndex.load(tmp, expect);
      assert.ok(!(res instanceof VectorIndex), 'load should have failed');
      assert.match(res.error, pattern);
    };

    it('reports a missing index', () => expectError(/no vector index/));

    for (const kind of ['flat', 'hnsw'] as const) {
      it(`detects a bit flip in the vector file (${kind})`, () => {
        saved(kind);
        const file = path.join(tmp, 'vectors.i8');
        const bytes = fs.readFileSync(file);
        bytes[bytes.length >> 1] ^= 0x10;
        fs.writeFileSync(file, bytes);
        expectError(/checksum/);
      });

      it(`detects a truncated vector file (${kind})`, () => {
        saved(kind);
        const file = path.join(tmp, 'vectors.i8');
        fs.truncateSync(file, fs.statSync(file).size - 5);
        expectError(/truncated/);
      });
    }

    it('repairs a bit-flipped graph file rather than trusting it', () => {
      saved('hnsw');
      const file = path.join(tmp, 'vectors.hnsw');
      const bytes = fs.readFileSync(file);
      bytes[100] ^= 0x01;
      fs.writeFileSync(file, bytes);
      const loaded = VectorIndex.load(tmp, { dim, modelId: 'model-a' });
      assert.ok(loaded instanceof VectorIndex);
      assert.match(loaded.loadNote ?? '', /checksum/);
    });

    it('detects a corrupt header', () => {
      saved('flat');
      fs.writeFileSync(path.join(tmp, 'vectors.json'), '{"format": 1, "dim": 1');
      expectError(/header .* corrupt/);
    });

    it('detects a dim mismatch', () => {
      saved('flat');
      expectError(/dim 16.*produces 32/, { dim: 32, modelId: 'model-a' });
    });

    it('detects a model mismatch', () => {
      saved('hnsw');
      expectError(/model model-a.*model-b/, { dim, modelId: 'model-b' });
    });
  });

  it('flat search is exact and survives save/load (int8 storage)', () => {
    const dim = 32;
    const vectors = randomUnitVectors(500, dim, 4);
    const data = new Map(vectors.map((v, i) => [i, v] as [number, Float32Array]));
    const index = new VectorIndex({ dim, modelId: 'm' });
    for (const [id, v] of data) index.add(id, v);
    assert.strictEqual(index.kind, 'flat');
    const q = randomUnitVectors(1, dim, 5)[0];
    assert.deepStrictEqual(index.search(q, 10).map((r) => r.id), bruteForce(data, q, 10));
    index.save(tmp);
    const loaded = VectorIndex.load(tmp, { dim, modelId: 'm' });
    assert.ok(loaded instanceof VectorIndex);
    assert.strictEqual(loaded.kind, 'flat');
    const before = index.search(q, 5);
    const after = loaded.search(q, 5);
    assert.deepStrictEqual(after.map((r) => r.id), before.map((r) => r.id));
    after.forEach((r, i) => assert.ok(Math.abs(r.score - before[i].score) < 0.01, `score ${r.score} vs ${before[i].score}`));
  });

  it('normalises vectors in cosine space', () => {
    const index = new VectorIndex({ dim: 3, modelId: 'm' });
    index.add(1, [10, 0, 0]);
    index.add(2, [0, 3, 0]);
    const [best] = index.search([5, 1, 0], 1);
    assert.strictEqual(best.id, 1);
    assert.ok(Math.abs(best.score - 5 / Math.sqrt(26)) < 1e-6);
  });

  for (const kind of ['flat', 'hnsw'] as const) {
    it(`remove hides a vector, re-add brings it back (${kind})`, () => {
      const dim = 16;
      const vectors = randomUnitVectors(300, dim, 6);
      const index = new VectorIndex({ dim, modelId: 'm', flatThreshold: kind === 'flat' ? 1000 : 20 });
      vectors.forEach((v, i) => index.add(i, v));
      assert.strictEqual(index.kind, kind);
      assert.strictEqual(index.search(vectors[42], 1)[0].id, 42);
      assert.strictEqual(index.remove(42), true);
      assert.strictEqual(index.remove(42), false);
      assert.strictEqual(index.size, 299);
      assert.ok(!index.search(vectors[42], 50).some((r) => r.id === 42));
      index.save(tmp);
      const loaded = VectorIndex.load(tmp, { dim, modelId: 'm' });
      assert.ok(loaded instanceof VectorIndex);
      assert.strictEqual(loaded.size, 299);
      assert.ok(!loaded.search(vectors[42], 50).some((r) => r.id === 42));
      loaded.add(42, vectors[42]);
      assert.strictEqual(loaded.size, 300);
      assert.strictEqual(loaded.search(vectors[42], 1)[0].id, 42);
    });
  }

  it('compacts the graph after many removals and stays correct', () => {
    const dim = 16;
    const vectors = randomUnitVectors(4000, dim, 7);
    const index = new VectorIndex({ dim, modelId: 'm', flatThreshold: 100 });
    vectors.forEach((v, i) => index.add(i, v));
    for (let i = 0; i < 3000; i++) index.remove(i);
    assert.strictEqual(index.size, 1000);
    const res = index.search(vectors[3500], 20);
    assert.strictEqual(res[0].id, 3500);
    assert.ok(res.every((r) => r.id >= 3000));
  });

  it('rejects bad ids and wrong widths with clear messages', () => {
    const index = new VectorIndex({ dim: 4, modelId: 'm' });
    assert.throws(() => index.add(-1, [1, 0, 0, 0]), /uint32/);
    assert.throws(() => index.add(1.5, [1, 0, 0, 0]), /uint32/);
    assert.throws(() => index.add(1, [1, 0, 0]), /dim 3.*dim 4/);
    assert.throws(() => index.search([1, 0], 1), /dim 2.*dim 4/);
    assert.deepStrictEqual(index.search([1, 0, 0, 0], 5), []);
  });
});
