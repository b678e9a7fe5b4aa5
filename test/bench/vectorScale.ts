// `node --expose-gc out/test/bench/vectorScale.js [--n 50000,470000] [--dim 256] [--clusters 2000]
//   [--queries 200] [--nprobe 8,16,24,32] [--no-old] [--dir /tmp/rr-vscale] [--out F.json]`
// The vector index at scale, old design (hnswlib HNSW graph + int8 copy, format 1) and new (int8
// IVF, format 2) side by side in one run, on clustered synthetic unit vectors (a mixture of
// gaussian clusters of uneven size, not uniform random). For each N and design: build seconds,
// bytes on disk, memory of a fresh process that loaded the saved index and ran the queries
// (RSS / heap / external deltas after gc), query p50/p95/p99 and recall@10 against exact float
// brute force. For IVF also the recall of an exact int8 scan (the cost of quantisation alone).
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { HierarchicalNSW } from 'hnswlib-node';
import { VectorIndex } from '../../engine/src/vector';
import { l2Normalise as normalise } from '../../engine/src/embed/pooling';
import { mulberry32 as rng } from '../../engine/src/util/prng';

const arg = (name: string, dflt: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : dflt;
};
const mb = (b: number) => +(b / 1048576).toFixed(1);

function gauss(rand: () => number): number {
  return Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
}

/**
 * `n` unit vectors from a mixture of `clusters` gaussians around random unit centres, cluster
 * weights uneven (∝ u², u uniform), per-cluster spread 0.4–0.9 of the centre's length, so
 * neighbours are near but not trivially so (mean cosine to the own centre ≈ 0.8).
 */
export function clusteredVectors(n: number, dim: number, clusters: number, seed: number): Float32Array {
  const rand = rng(seed);
  const centres = Array.from({ length: clusters }, () => normalise(Float32Array.from({ length: dim }, () => gauss(rand))));
  const spread = Array.from({ length: clusters }, () => 0.4 + 0.5 * rand());
  const weights = centres.map(() => rand() ** 2 + 0.01);
  const cum: number[] = [];
  weights.reduce((s, w, i) => (cum[i] = s + w), 0);
  const total = cum[cum.length - 1];
  const out = new Float32Array(n * dim);
  const sd = 1 / Math.sqrt(dim);
  for (let i = 0; i < n; i++) {
    const x = rand() * total;
    let lo = 0;
    let hi = clusters - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    const v = out.subarray(i * dim, (i + 1) * dim);
    for (let d = 0; d < dim; d++) v[d] = centres[lo][d] + spread[lo] * sd * gauss(rand);
    normalise(v);
  }
  return out;
}

function exactTop10(data: Float32Array, dim: number, q: Float32Array): number[] {
  const n = data.length / dim;
  const ids = new Int32Array(10).fill(-1);
  const sc = new Float64Array(10).fill(-Infinity);
  for (let i = 0; i < n; i++) {
    const b = i * dim;
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (let d = 0; d < dim; d += 4) {
      s0 += data[b + d] * q[d];
      s1 += data[b + d + 1] * q[d + 1];
      s2 += data[b + d + 2] * q[d + 2];
      s3 += data[b + d + 3] * q[d + 3];
    }
    const s = s0 + s1 + s2 + s3;
    if (s <= sc[9]) continue;
    let at = 9;
    while (at > 0 && sc[at - 1] < s) {
      sc[at] = sc[at - 1];
      ids[at] = ids[at - 1];
      at--;
    }
    sc[at] = s;
    ids[at] = i;
  }
  return [...ids];
}

const pct = (xs: number[], p: number) => {
  const s = xs.slice().sort((a, b) => a - b);
  return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(3);
};

function dirBytes(dir: string): number {
  return fs.readdirSync(dir).reduce((s, f) => s + fs.statSync(path.join(dir, f)).size, 0);
}

function snap() {
  global.gc!();
  global.gc!();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed, ext: m.external + m.arrayBuffers };
}

/** Child process: load the saved index, run the queries, report memory, latencies and ids. */
function child(): void {
  const [design, dir, queryFile, dimS, nprobeList] = process.argv.slice(3);
  const dim = Number(dimS);
  const qBuf = fs.readFileSync(queryFile);
  const queries = new Float32Array(qBuf.buffer, qBuf.byteOffset, qBuf.length / 4);
  const nq = queries.length / dim;
  const base = snap();
  let search: (q: Float32Array) => number[];
  let exact: ((q: Float32Array) => number[]) | undefined;
  let setProbe: (p: number) => void = () => {};
  const t0 = process.hrtime.bigint();
  let keep: unknown;
  if (design === 'old') {
    const g = new HierarchicalNSW('ip', dim);
    g.readIndexSync(path.join(dir, 'vectors.hnsw'));
    g.setEf(128);
    keep = g;
    search = (q) => g.searchKnn(Array.from(q), 10).neighbors;
  } else {
    const idx = VectorIndex.load(dir, { dim, modelId: 'bench' });
    if ('error' in idx) throw new Error(idx.error);
    keep = idx;
    search = (q) => idx.search(q, 10).map((r) => r.id);
    exact = (q) => idx.searchExact(q, 10).map((r) => r.id);
    setProbe = (p) => (idx.nprobe = p);
  }
  const loadSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const loaded = snap();
  const runs: Record<string, { p50: number; p95: number; p99: number; cpuP50: number; cpuP95: number; ids: number[][] }> = {};
  const probes = design === 'old' ? ['ef128'] : nprobeList.split(',');
  for (const p of probes) {
    if (design !== 'old') setProbe(Number(p));
    for (let i = 0; i < Math.min(20, nq); i++) search(queries.subarray(i * dim, (i + 1) * dim)); // warm-up
    const times: number[] = [];
    const cpu: number[] = [];
    const ids: number[][] = [];
    for (let i = 0; i < nq; i++) {
      const q = queries.subarray(i * dim, (i + 1) * dim);
      const c = process.cpuUsage();
      const t = process.hrtime.bigint();
      ids.push(search(q));
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
      const used = process.cpuUsage(c);
      cpu.push((used.user + used.system) / 1000);
    }
    // Wall-clock percentiles include preemption on a shared machine; CPU time per query does not.
    runs[p] = { p50: pct(times, 50), p95: pct(times, 95), p99: pct(times, 99), cpuP50: pct(cpu, 50), cpuP95: pct(cpu, 95), ids };
  }
  const queried = snap();
  const exactIds = exact ? Array.from({ length: nq }, (_, i) => exact!(queries.subarray(i * dim, (i + 1) * dim))) : undefined;
  void keep;
  process.stdout.write(
    JSON.stringify({
      loadSeconds,
      memAfterLoad: { rss: mb(loaded.rss - base.rss), heap: mb(loaded.heap - base.heap), external: mb(loaded.ext - base.ext) },
      memAfterQueries: { rss: mb(queried.rss - base.rss), heap: mb(queried.heap - base.heap), external: mb(queried.ext - base.ext) },
      runs,
      exactIds,
    }),
  );
}

/**
 * Incremental work on the saved index: remove 0.5% and add 2.5% (above the save-time rebuild
 * share, so the next save folds them into the lists), then one more small change and save
 * (pending file only), then a forced k-means retrain with reassignment of every vector. Seconds
 * for each step.
 */
function incremental(dir: string, dim: number, n: number, added: Float32Array, extra: number): Record<string, number> {
  const secs = (t: number) => +((Date.now() - t) / 1000).toFixed(2);
  let t = Date.now();
  const idx = VectorIndex.load(dir, { dim, modelId: 'bench' });
  if ('error' in idx) throw new Error(idx.error);
  const loadSeconds = secs(t);
  t = Date.now();
  for (let i = 0; i < n; i += 200) idx.remove(i);
  for (let i = 0; i < extra; i++) idx.add(n + 1_000_000 + i, added.subarray(i * dim, (i + 1) * dim));
  const updateSeconds = secs(t);
  t = Date.now();
  idx.save(dir);
  const rebuildingSaveSeconds = secs(t);
  t = Date.now();
  idx.remove(1);
  idx.add(n + 2_000_000, added.subarray(0, dim));
  idx.save(dir);
  const smallSaveSeconds = secs(t);
  t = Date.now();
  idx.rebuildLists(true);
  const retrainSeconds = secs(t);
  idx.close();
  return { loadSeconds, updateSeconds, rebuildingSaveSeconds, smallSaveSeconds, retrainSeconds };
}

function main(): void {
  if (!global.gc) throw new Error('run with node --expose-gc');
  const sizes = arg('n', '50000,470000').split(',').map(Number);
  const dim = Number(arg('dim', '256'));
  const clusters = Number(arg('clusters', '2000'));
  const nq = Number(arg('queries', '200'));
  const nprobes = arg('nprobe', '8,16,24,32');
  const withOld = !process.argv.includes('--no-old');
  const root = arg('dir', '/tmp/rr-vscale');
  const report: Record<string, unknown>[] = [];
  for (const n of sizes) {
    fs.rmSync(root, { recursive: true, force: true });
    fs.mkdirSync(root, { recursive: true });
    // The same generator run longer: the first n + nq vectors are identical, the rest are added later.
    const extra = Math.ceil(n * 0.025);
    const all = clusteredVectors(n + nq + extra, dim, clusters, 7);
    const data = all.subarray(0, n * dim);
    const queries = all.slice(n * dim, (n + nq) * dim);
    const added = all.subarray((n + nq) * dim);
    const queryFile = path.join(root, 'queries.f32');
    fs.writeFileSync(queryFile, Buffer.from(queries.buffer));
    let t = Date.now();
    // Exact float top 10 per query: minutes at 470k, so cached across runs with the same data.
    const truthFile = path.join(`${root}-truth`, `${n}-${dim}-${clusters}-${nq}.json`);
    let truth: number[][];
    if (fs.existsSync(truthFile)) truth = JSON.parse(fs.readFileSync(truthFile, 'utf8'));
    else {
      truth = Array.from({ length: nq }, (_, i) => exactTop10(data, dim, queries.subarray(i * dim, (i + 1) * dim)));
      fs.mkdirSync(path.dirname(truthFile), { recursive: true });
      fs.writeFileSync(truthFile, JSON.stringify(truth));
    }
    console.error(`N=${n}: ground truth in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    const recall = (ids: number[][]) => +(ids.reduce((s, r, i) => s + r.filter((id) => truth[i].includes(id)).length, 0) / (nq * 10)).toFixed(4);
    const designs = withOld ? ['old', 'new'] : ['new'];
    for (const design of designs) {
      const dir = path.join(root, design);
      fs.mkdirSync(dir, { recursive: true });
      t = Date.now();
      if (design === 'old') {
        const g = new HierarchicalNSW('ip', dim);
        g.initIndex({ maxElements: Math.ceil(n * 1.5), m: 16, efConstruction: 100, randomSeed: 100 });
        for (let i = 0; i < n; i++) g.addPoint(Array.from(data.subarray(i * dim, (i + 1) * dim)), i);
        g.writeIndexSync(path.join(dir, 'vectors.hnsw'));
        // Format 1 also wrote an int8 copy: u32 id, f32 scale, dim × i8 per vector.
        fs.writeFileSync(path.join(dir, 'vectors.i8'), Buffer.alloc(n * (dim + 8)));
      } else {
        const idx = new VectorIndex({ dim, modelId: 'bench' });
        for (let i = 0; i < n; i++) idx.add(i, data.subarray(i * dim, (i + 1) * dim));
        idx.save(dir);
        console.error(`  new: ${idx.kind}, ${idx.listCount} lists`);
        idx.close();
      }
      const buildSeconds = (Date.now() - t) / 1000;
      const out = JSON.parse(
        execFileSync(process.execPath, ['--expose-gc', __filename, '--child', design, dir, queryFile, String(dim), nprobes], { maxBuffer: 1 << 28 }).toString(),
      );
      const row: Record<string, unknown> = {
        n,
        dim,
        design: design === 'old' ? 'hnsw+i8 (format 1)' : 'ivf int8 (format 2)',
        buildSeconds,
        diskMB: mb(dirBytes(dir)),
        int8PayloadMB: mb(n * (dim + 8)),
        loadSeconds: +out.loadSeconds.toFixed(2),
        memAfterLoad: out.memAfterLoad,
        memAfterQueries: out.memAfterQueries,
        runs: Object.fromEntries(Object.entries(out.runs as Record<string, { p50: number; p95: number; p99: number; cpuP50: number; cpuP95: number; ids: number[][] }>).map(([k, r]) => [k, { p50: r.p50, p95: r.p95, p99: r.p99, cpuP50: r.cpuP50, cpuP95: r.cpuP95, recall10: recall(r.ids) }])),
      };
      if (out.exactIds) row.recall10ExactInt8 = recall(out.exactIds);
      if (design === 'new') row.incremental = incremental(dir, dim, n, added, extra);
      console.error(JSON.stringify(row));
      report.push(row);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const outFile = arg('out', '');
  if (outFile) fs.writeFileSync(outFile, JSON.stringify(report, null, 1));
  console.log(JSON.stringify(report, null, 1));
}

if (process.argv[2] === '--child') child();
else main();
