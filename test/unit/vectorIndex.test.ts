import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { VectorIndex } from '../../engine/src/vector';
import { Int8Scorer, writeRecord } from '../../engine/src/vector/int8Kernel';
import { mulberry32 as rng } from '../../engine/src/util/prng';
import { tempDir } from './tempDir';

function normalise(v: Float32Array): Float32Array {
  let s = 0;
  for (let d = 0; d < v.length; d++) s += v[d] * v[d];
  for (let d = 0; d < v.length; d++) v[d] /= Math.sqrt(s);
  return v;
}

function randomUnitVectors(n: number, dim: number, seed: number): Float32Array[] {
  const rand = rng(seed);
  // Sum of uniforms ≈ Gaussian: directions uniform on the sphere.
  return Array.from({ length: n }, () => normalise(Float32Array.from({ length: dim }, () => rand() + rand() + rand() - 1.5)));
}

/** Unit vectors around `clusters` random centres (the shape real embeddings have, unlike uniform noise). */
function clusteredVectors(n: number, dim: number, clusters: number, seed: number): Float32Array[] {
  const rand = rng(seed);
  const centres = randomUnitVectors(clusters, dim, seed + 1000);
  return Array.from({ length: n }, () => {
    const c = centres[Math.floor(rand() * clusters)];
    return normalise(Float32Array.from(c, (x) => x + (0.6 * (rand() + rand() + rand() - 1.5)) / Math.sqrt(dim / 4)));
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
  beforeEach(() => (tmp = tempDir('rr-vec-')));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  describe('IVF on 8k clustered unit vectors, dim 64', () => {
    const dim = 64;
    const all = clusteredVectors(8200, dim, 120, 1);
    const data = new Map(all.slice(0, 8000).map((v, i) => [i * 7 + 3, v] as [number, Float32Array]));
    const queries = all.slice(8000);
    const opts = { dim, modelId: 'm1', flatThreshold: 500 };
    let index: VectorIndex;
    before(() => {
      index = new VectorIndex(opts);
      for (const [id, v] of data) index.add(id, v);
    });
    after(() => index.close());

    it('builds inverted lists and reaches recall@10 >= 0.9 against float brute force', () => {
      assert.strictEqual(index.kind, 'ivf');
      assert.strictEqual(index.size, 8000);
      assert.ok(index.listCount > 20, `${index.listCount} lists`);
      const recall = recallAt10(index, data, queries);
      assert.ok(recall >= 0.9, `recall@10 ${recall}`);
    });

    it('scores are cosine similarities to int8 precision, best first', () => {
      const res = index.search(queries[0], 10);
      for (const r of res) assert.ok(Math.abs(r.score - dot(data.get(r.id)!, queries[0])) < 0.01, `${r.score}`);
      for (let i = 1; i < res.length; i++) assert.ok(res[i - 1].score >= res[i].score);
    });

    it('gives the same neighbours after save/load, reading the lists from disk', () => {
      index.save(tmp);
      assert.deepStrictEqual(fs.readdirSync(tmp).sort(), ['vectors.ivf', 'vectors.json', 'vectors.pending']);
      // Disk ≈ the int8 payload: dim + 8 bytes per vector plus centroids.
      assert.ok(fs.statSync(path.join(tmp, 'vectors.ivf')).size < 1.1 * 8000 * (dim + 8));
      const loaded = VectorIndex.load(tmp, { dim, modelId: 'm1' });
      assert.ok(loaded instanceof VectorIndex, JSON.stringify(loaded));
      try {
        assert.strictEqual(loaded.kind, 'ivf');
        assert.strictEqual(loaded.size, 8000);
        for (const q of queries.slice(0, 20)) {
          assert.deepStrictEqual(loaded.search(q, 10), index.search(q, 10));
        }
        assert.ok(recallAt10(loaded, data, queries) >= 0.9);
      } finally {
        loaded.close();
      }
    });

    it('keeps recall through incremental adds, removes and replacements, saved and reloaded, and after a rebuild', () => {
      const live = new Map(data);
      const idx = new VectorIndex(opts);
      for (const [id, v] of live) idx.add(id, v);
      idx.save(tmp); // lists now on disk
      const extra = clusteredVectors(300, dim, 120, 1).map((v, i) => [100_000 + i, v] as [number, Float32Array]);
      const moved = clusteredVectors(100, dim, 120, 9);
      const ids = [...live.keys()];
      for (const [id, v] of extra) {
        idx.add(id, v);
        live.set(id, v);
      }
      for (let i = 0; i < 100; i++) {
        idx.remove(ids[i]);
        live.delete(ids[i]);
        idx.add(ids[200 + i], moved[i]); // replace
        live.set(ids[200 + i], moved[i]);
      }
      assert.strictEqual(idx.size, live.size);
      assert.strictEqual(idx.has(ids[0]), false);
      assert.strictEqual(idx.has(100_005), true);
      assert.ok(!idx.search(data.get(ids[5])!, 20).some((r) => r.id === ids[5]), 'a removed id was returned');
      assert.strictEqual(idx.search(moved[7], 1)[0].id, ids[207], 'a replaced vector is found at its new place');
      assert.ok(recallAt10(idx, live, queries) >= 0.9, 'after updates');
      // 500 changes of 8000 listed is above the save-time rebuild share: lists are rewritten.
      const before = fs.statSync(path.join(tmp, 'vectors.ivf')).ino;
      idx.save(tmp);
      const header = JSON.parse(fs.readFileSync(path.join(tmp, 'vectors.json'), 'utf8'));
      assert.strictEqual(header.pending, 0);
      assert.strictEqual(header.tombstones, 0);
      assert.notStrictEqual(fs.statSync(path.join(tmp, 'vectors.ivf')).ino, before);
      assert.ok(recallAt10(idx, live, queries) >= 0.9, 'after the rebuild');
      // A few changes stay pending: the lists file is kept and the changes go to vectors.pending.
      idx.remove(ids[300]);
      live.delete(ids[300]);
      idx.add(200_000, queries[0]);
      live.set(200_000, queries[0]);
      const listsIno = fs.statSync(path.join(tmp, 'vectors.ivf')).ino;
      idx.save(tmp);
      assert.strictEqual(fs.statSync(path.join(tmp, 'vectors.ivf')).ino, listsIno);
      const loaded = VectorIndex.load(tmp, { dim, modelId: 'm1' });
      assert.ok(loaded instanceof VectorIndex, JSON.stringify(loaded));
      try {
        assert.strictEqual(loaded.size, live.size);
        assert.strictEqual(loaded.has(ids[300]), false);
        assert.strictEqual(loaded.search(queries[0], 1)[0].id, 200_000);
        assert.ok(recallAt10(loaded, live, queries) >= 0.9, 'after reload with pending changes');
        loaded.rebuildLists(true);
        assert.strictEqual(loaded.size, live.size);
        assert.strictEqual(loaded.has(ids[300]), false);
        assert.ok(recallAt10(loaded, live, queries) >= 0.9, 'after retraining the centroids');
      } finally {
        loaded.close();
        idx.close();
      }
    });
  });

  describe('damaged or mismatched files', () => {
    const dim = 16;
    function saved(kind: 'flat' | 'ivf'): void {
      const index = new VectorIndex({ dim, modelId: 'model-a', flatThreshold: kind === 'flat' ? 2000 : 50 });
      clusteredVectors(400, dim, 10, 3).forEach((v, i) => index.add(i, v));
      assert.strictEqual(index.kind, kind);
      index.save(tmp);
      if (kind === 'ivf') {
        // One addition and one removal after the lists were built: they go to vectors.pending.
        index.add(1000, randomUnitVectors(1, dim, 4)[0]);
        index.remove(7);
        index.save(tmp);
        const header = JSON.parse(fs.readFileSync(path.join(tmp, 'vectors.json'), 'utf8'));
        assert.deepStrictEqual([header.pending, header.tombstones], [1, 1]);
      }
      index.close();
    }
    const expectError = (pattern: RegExp, expect = { dim, modelId: 'model-a' }): void => {
      const res = VectorIndex.load(tmp, expect);
      if (res instanceof VectorIndex) res.close();
      assert.ok(!(res instanceof VectorIndex), 'load should have failed');
      assert.match(res.error, pattern);
    };
    const flipByte = (name: string, at: (size: number) => number): void => {
      const file = path.join(tmp, name);
      const bytes = fs.readFileSync(file);
      bytes[at(bytes.length)] ^= 0x10;
      fs.writeFileSync(file, bytes);
    };

    it('reports a missing index', () => expectError(/no vector index/));

    it('detects a bit flip in a list (ivf)', () => {
      saved('ivf');
      flipByte('vectors.ivf', (n) => n - 20);
      expectError(/vectors\.ivf fails its checksum/);
    });

    it('detects a bit flip in the centroids (ivf)', () => {
      saved('ivf');
      flipByte('vectors.ivf', () => 40);
      expectError(/vectors\.ivf fails its checksum/);
    });

    it('detects a truncated list file (ivf)', () => {
      saved('ivf');
      const file = path.join(tmp, 'vectors.ivf');
      fs.truncateSync(file, fs.statSync(file).size - 100);
      expectError(/vectors\.ivf is \d+ bytes, expected \d+ \(truncated/);
    });

    it('detects a missing list file (ivf)', () => {
      saved('ivf');
      fs.rmSync(path.join(tmp, 'vectors.ivf'));
      expectError(/vectors\.ivf is missing/);
    });

    for (const kind of ['flat', 'ivf'] as const) {
      it(`detects a bit flip in the pending file (${kind})`, () => {
        saved(kind);
        flipByte('vectors.pending', (n) => n >> 1);
        expectError(/vectors\.pending fails its checksum/);
      });

      it(`detects a truncated pending file (${kind})`, () => {
        saved(kind);
        const file = path.join(tmp, 'vectors.pending');
        fs.truncateSync(file, fs.statSync(file).size - 5);
        expectError(/truncated/);
      });
    }

    it('detects a corrupt header', () => {
      saved('flat');
      fs.writeFileSync(path.join(tmp, 'vectors.json'), '{"format": 2, "dim": 1');
      expectError(/header .* corrupt/);
    });

    it('rejects an index of the previous format (hnswlib graph) so the engine rebuilds it', () => {
      fs.writeFileSync(path.join(tmp, 'vectors.json'), JSON.stringify({ format: 1, kind: 'hnsw', dim, count: 0, modelId: 'model-a', space: 'cosine', files: {} }));
      expectError(/format 1 is not the supported 2/);
    });

    it('detects a dim mismatch', () => {
      saved('flat');
      expectError(/dim 16.*produces 32/, { dim: 32, modelId: 'model-a' });
    });

    it('detects a model mismatch', () => {
      saved('ivf');
      expectError(/model model-a.*model-b/, { dim, modelId: 'model-b' });
    });
  });

  it('flat search is exact over int8 vectors and survives save/load', () => {
    const dim = 32;
    const vectors = randomUnitVectors(500, dim, 4);
    const data = new Map(vectors.map((v, i) => [i, v] as [number, Float32Array]));
    const index = new VectorIndex({ dim, modelId: 'm' });
    for (const [id, v] of data) index.add(id, v);
    assert.strictEqual(index.kind, 'flat');
    const q = randomUnitVectors(1, dim, 5)[0];
    const found = index.search(q, 10);
    const truth = bruteForce(data, q, 10);
    assert.ok(found.filter((r) => truth.includes(r.id)).length >= 9, 'int8 keeps the float top 10 but for near-ties');
    found.forEach((r) => assert.ok(Math.abs(r.score - dot(data.get(r.id)!, q)) < 0.01));
    index.save(tmp);
    assert.deepStrictEqual(fs.readdirSync(tmp).sort(), ['vectors.json', 'vectors.pending']);
    const loaded = VectorIndex.load(tmp, { dim, modelId: 'm' });
    assert.ok(loaded instanceof VectorIndex);
    assert.strictEqual(loaded.kind, 'flat');
    assert.deepStrictEqual(loaded.search(q, 5), index.search(q, 5));
  });

  it('switches flat -> ivf -> flat across the threshold and keeps results', () => {
    const dim = 32;
    const vectors = clusteredVectors(1200, dim, 30, 11);
    const data = new Map(vectors.map((v, i) => [i, v] as [number, Float32Array]));
    const queries = clusteredVectors(50, dim, 30, 12);
    const index = new VectorIndex({ dim, modelId: 'm', flatThreshold: 300, nprobe: 1000 });
    const flatAnswers: number[][] = [];
    for (let i = 0; i < 300; i++) index.add(i, vectors[i]);
    assert.strictEqual(index.kind, 'flat');
    for (const q of queries) flatAnswers.push(index.search(q, 5).map((r) => r.id));
    for (let i = 300; i < 1200; i++) index.add(i, vectors[i]);
    assert.strictEqual(index.kind, 'ivf');
    // Probing every list is exact over the same int8 vectors: the answers match brute force.
    assert.ok(recallAt10(index, data, queries) >= 0.97);
    for (let i = 300; i < 1200; i++) index.remove(i);
    assert.strictEqual(index.size, 300);
    queries.forEach((q, i) => assert.deepStrictEqual(index.search(q, 5).map((r) => r.id), flatAnswers[i]));
    for (let i = 150; i < 300; i++) index.remove(i);
    assert.strictEqual(index.kind, 'flat', 'back to flat at half the threshold');
    const rest = new Map([...data].filter(([id]) => id < 150));
    for (const q of queries) assert.deepStrictEqual(index.search(q, 1)[0].id, bruteForce(rest, q, 1)[0]);
    index.save(tmp);
    assert.ok(!fs.existsSync(path.join(tmp, 'vectors.ivf')));
  });

  it('rebuildAsync pauses between slices and builds exactly what the blocking rebuild builds', async () => {
    const dim = 32;
    const vectors = clusteredVectors(3000, dim, 40, 21);
    const queries = clusteredVectors(40, dim, 40, 22);
    const opts = { dim, modelId: 'm', flatThreshold: 400, nprobe: 4 };
    const blocking = new VectorIndex(opts);
    const paced = new VectorIndex(opts);
    // Lists exist (flat -> ivf at 400), then pending vectors accumulate below the rebuild limit.
    for (let i = 0; i < 2000; i++) { blocking.add(i, vectors[i]); paced.add(i, vectors[i]); }
    const extra = 300;
    for (let i = 2000; i < 2000 + extra; i++) { blocking.add(i, vectors[i]); paced.add(i, vectors[i]); }
    assert.strictEqual(paced.kind, 'ivf');
    assert.ok(paced.wouldRebuildOnAdd(10_000) && !paced.wouldRebuildOnAdd(0));
    const before = queries.map((q) => paced.search(q, 5));
    let pauses = 0;
    const duringPause: number[][] = [];
    await paced.rebuildAsync(async () => {
      pauses++;
      // Searches between slices see the index as it was before the rebuild.
      if (pauses === 2) queries.forEach((q) => duringPause.push(paced.search(q, 5).map((r) => r.id)));
      await new Promise<void>((resolve) => setImmediate(resolve));
    }, 256);
    blocking.rebuildLists();
    assert.ok(pauses >= Math.floor(2300 / 256), `paused ${pauses} times`);
    queries.forEach((q, i) => assert.deepStrictEqual(duringPause[i], before[i].map((r) => r.id)));
    assert.strictEqual(paced.listCount, blocking.listCount);
    assert.strictEqual(paced.size, blocking.size);
    queries.forEach((q) => assert.deepStrictEqual(paced.search(q, 10), blocking.search(q, 10)));
    assert.ok(!paced.wouldRebuildOnAdd(extra), 'the pending vectors were folded into the lists');
    blocking.close();
    paced.close();
  });

  it('lists rebuilt into a scratch file (past listSpillMin) search, save and reload exactly like lists rebuilt in memory', async () => {
    const dim = 32;
    const vectors = clusteredVectors(3000, dim, 40, 41);
    const queries = clusteredVectors(40, dim, 40, 42);
    const opts = { dim, modelId: 'm', flatThreshold: 400, nprobe: 6 };
    const inMemory = new VectorIndex(opts);
    const spilled = new VectorIndex(opts);
    inMemory.listSpillMin = Infinity;
    spilled.listSpillMin = 0;
    const listsFile = (v: VectorIndex) => (v as unknown as { lists?: { file?: { path: string } } }).lists?.file?.path;
    for (let i = 0; i < 3000; i++) {
      inMemory.add(i, vectors[i]);
      spilled.add(i, vectors[i]);
      if (i % 5 === 0 && i > 100) { inMemory.remove(i - 100); spilled.remove(i - 100); }
    }
    await spilled.rebuildAsync(() => new Promise<void>((resolve) => setImmediate(resolve)), 256);
    inMemory.rebuildLists();
    assert.strictEqual(listsFile(inMemory), undefined);
    assert.match(listsFile(spilled) ?? '', /reporecall-vector-lists-/, 'the rebuilt lists are read from a scratch file');
    queries.forEach((q) => assert.deepStrictEqual(spilled.search(q, 10), inMemory.search(q, 10)));
    spilled.save(tmp);
    assert.strictEqual(listsFile(spilled), path.join(tmp, 'vectors.ivf'));
    const loaded = VectorIndex.load(tmp, { dim, modelId: 'm' }, { nprobe: 6 });
    if ('error' in loaded) throw new Error(loaded.error);
    queries.forEach((q) => assert.deepStrictEqual(loaded.search(q, 10), inMemory.search(q, 10)));
    for (const v of [inMemory, spilled, loaded]) v.close();
    assert.deepStrictEqual(fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith(`reporecall-vector-lists-${process.pid}-`)), []);
  });

  it('rebuildAsync overtaken by an add or a remove still leaves a correct index', async () => {
    const dim = 32;
    const vectors = clusteredVectors(2600, dim, 40, 31);
    const index = new VectorIndex({ dim, modelId: 'm', flatThreshold: 400, nprobe: 1000 });
    for (let i = 0; i < 2500; i++) index.add(i, vectors[i]);
    let pauses = 0;
    await index.rebuildAsync(async () => {
      if (++pauses === 2) { index.add(9_999, vectors[2500]); index.remove(7); }
    }, 256);
    assert.strictEqual(index.size, 2500);
    assert.strictEqual(index.search(vectors[2500], 1)[0].id, 9_999);
    assert.ok(!index.has(7));
    assert.ok(index.search(vectors[7], 3).every((r) => r.id !== 7));
    index.close();
  });

  it('two rebuildAsync runs overlapping (the indexer\'s and a background merge\'s) leave every vector findable under its id', async () => {
    const dim = 32;
    const vectors = clusteredVectors(2600, dim, 40, 41);
    const index = new VectorIndex({ dim, modelId: 'm', flatThreshold: 400, nprobe: 1000 });
    for (let i = 0; i < 2000; i++) index.add(i, vectors[i]);
    for (let i = 2000; i < 2300; i++) index.add(i, vectors[i]); // pending
    const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
    await Promise.all([index.rebuildAsync(tick, 128), index.rebuildAsync(tick, 256)]);
    assert.strictEqual(index.size, 2300);
    for (let i = 0; i < 2300; i += 23) assert.strictEqual(index.search(vectors[i], 1)[0]?.id, i, `vector ${i}`);
    index.save(tmp);
    const back = VectorIndex.load(tmp, { dim, modelId: 'm' });
    if ('error' in back) throw new Error(back.error);
    assert.strictEqual(back.size, 2300);
    back.close();
    index.close();
  });

  it('normalises vectors in cosine space', () => {
    const index = new VectorIndex({ dim: 3, modelId: 'm' });
    index.add(1, [10, 0, 0]);
    index.add(2, [0, 3, 0]);
    const [best] = index.search([5, 1, 0], 1);
    assert.strictEqual(best.id, 1);
    assert.ok(Math.abs(best.score - 5 / Math.sqrt(26)) < 1e-3);
  });

  for (const kind of ['flat', 'ivf'] as const) {
    it(`remove hides a vector, re-add brings it back (${kind})`, () => {
      const dim = 16;
      const vectors = clusteredVectors(300, dim, 10, 6);
      const index = new VectorIndex({ dim, modelId: 'm', flatThreshold: kind === 'flat' ? 1000 : 20 });
      vectors.forEach((v, i) => index.add(i, v));
      if (kind === 'ivf') index.save(tmp); // folds everything into lists, so 42 is listed
      assert.strictEqual(index.kind, kind);
      assert.strictEqual(index.search(vectors[42], 1)[0].id, 42);
      assert.strictEqual(index.remove(42), true);
      assert.strictEqual(index.remove(42), false);
      assert.strictEqual(index.size, 299);
      assert.ok(!index.search(vectors[42], 50).some((r) => r.id === 42));
      index.save(tmp);
      const loaded = VectorIndex.load(tmp, { dim, modelId: 'm' });
      assert.ok(loaded instanceof VectorIndex, JSON.stringify(loaded));
      assert.strictEqual(loaded.size, 299);
      assert.ok(!loaded.search(vectors[42], 50).some((r) => r.id === 42));
      loaded.add(42, vectors[42]);
      assert.strictEqual(loaded.size, 300);
      assert.strictEqual(loaded.search(vectors[42], 1)[0].id, 42);
      loaded.close();
      index.close();
    });
  }

  it('rebuilds the lists after many removals and stays correct', () => {
    const dim = 16;
    const vectors = clusteredVectors(4000, dim, 40, 7);
    const index = new VectorIndex({ dim, modelId: 'm', flatThreshold: 100 });
    vectors.forEach((v, i) => index.add(i, v));
    for (let i = 0; i < 3000; i++) index.remove(i);
    assert.strictEqual(index.size, 1000);
    const res = index.search(vectors[3500], 20);
    assert.strictEqual(res[0].id, 3500);
    assert.ok(res.every((r) => r.id >= 3000));
  });

  it('the SIMD kernel and the plain JS loop give identical sums', () => {
    const dim = 64;
    const simd = new Int8Scorer(dim);
    const js = new Int8Scorer(dim, true);
    assert.strictEqual(js.usesWasm, false);
    const vectors = randomUnitVectors(50, dim, 8);
    const recs = Buffer.alloc(50 * (dim + 8));
    vectors.forEach((v, i) => writeRecord(recs, i * (dim + 8), i, v, dim));
    const q = randomUnitVectors(1, dim, 9)[0];
    const a: number[] = [];
    const b: number[] = [];
    simd.setQuery(q);
    js.setQuery(q);
    simd.scoreRecords(recs, 0, 50, (i, s) => (a[i] = s));
    js.scoreRecords(recs, 0, 50, (i, s) => (b[i] = s));
    assert.deepStrictEqual(a, b);
    vectors.forEach((v, i) => assert.ok(Math.abs(a[i] - dot(v, q)) < 0.01));
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
