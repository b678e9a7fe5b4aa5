// `node --expose-gc out/test/bench/lexicalScale.js [--docs 47000,470000] [--queries 200] [--out F.json]
//    [--format1 lexical.bin] [--exhaustive]`
//
// The BM25 index at scale, old (format 1, per-term JS arrays; lexical/bm25Format1Baseline.ts, the
// code as it was on main) against new (format 2, packed segment + MaxScore), side by side in one
// run over the same synthetic documents: build seconds, memory after a full GC (V8 heap + typed
// array backing stores, and RSS), serialized bytes, deserialize seconds, query latency p50/p95/p99
// on the loaded index, and whether both return the same top-10 ids for every query. A third row
// loads format 2 as the engine does, from a file whose postings stay on disk (read per query
// term), and must return exactly the same results (ids and scores) as format 2 in memory.
// Format 1 scores every query term; format 2 drops the most common terms of a query past its
// postings budget (Bm25Options.maxQueryPostings), so their top 10 differ unless `--exhaustive`
// lifts the budget (then they must be identical).
//
// Documents are synthetic but shaped like the chunks of the generated 10k-file repository
// (scale/generate.ts: 160 tokens and 76 distinct terms per chunk on average): 100–220 tokens
// drawn from a Zipfian vocabulary (s = 1.2, 200k terms) plus ~1.5% chunk-local identifiers from a
// space that grows with the corpus (rare names), so the vocabulary grows about one term per chunk. Queries are 40–80 terms, half from one indexed chunk (the code
// around a cursor resembles the code it is looking for), half from the vocabulary.
//
// `--format1 FILE` takes the documents instead from a format-1 lexical.bin the engine wrote (real
// tokenizer over real chunks, e.g. of a scale/generate.ts repository); queries are then half from
// one document and half from another random document.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Bm25Index } from '../../engine/src/lexical/bm25';
import { Bm25Index as Bm25Format1 } from './lexical/bm25Format1Baseline';
import { prng } from './scale/generate';

interface LexicalIndex {
  add(id: number, terms: Iterable<string>): void;
  search(terms: Iterable<string>, k: number): { id: number; score: number }[];
  serialize(): Buffer;
}

const args = process.argv.slice(2);
const flag = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const FORMAT1_FILE = flag('format1', '');
/** Documents read from a format-1 file: term ids with repeats, and the vocabulary. */
const realDocs = FORMAT1_FILE ? readFormat1Docs(FORMAT1_FILE) : null;
const DOC_COUNTS = realDocs ? [realDocs.docs.length] : flag('docs', '47000,470000').split(',').map(Number);

function readFormat1Docs(file: string): { vocab: string[]; docs: Uint32Array[] } {
  const buf = fs.readFileSync(file);
  const vocabLen = buf.readUInt32LE(24), nDocs = buf.readUInt32LE(28);
  const vocab = JSON.parse(buf.toString('utf8', 32, 32 + vocabLen)) as string[];
  const docs: Uint32Array[] = [];
  let o = 32 + vocabLen;
  for (let d = 0; d < nDocs; d++) {
    const n = buf.readUInt32LE(o + 8);
    o += 12;
    const terms: number[] = [];
    for (let i = 0; i < n; i++) {
      const tid = buf.readUInt32LE(o + 4 * i), tf = buf.readUInt16LE(o + 4 * n + 2 * i);
      for (let r = 0; r < tf; r++) terms.push(tid);
    }
    o += 6 * n;
    docs.push(Uint32Array.from(terms));
  }
  return { vocab, docs };
}
const QUERIES = Number(flag('queries', '200'));
/** Format 2 without its query postings budget, to compare its top 10 with format 1's. */
const TUNING = args.includes('--exhaustive') ? { maxQueryPostings: Infinity } : {};
const OUT = flag('out', '');
const VOCAB = 200_000;

if (!global.gc) {
  console.error('run with node --expose-gc');
  process.exit(2);
}

// Zipf(s = 1.2) inverse CDF over the global vocabulary (~84 distinct terms per document).
const cdf = new Float64Array(VOCAB);
{
  let sum = 0;
  for (let i = 0; i < VOCAB; i++) cdf[i] = sum += 1 / Math.pow(i + 1, 1.2);
  for (let i = 0; i < VOCAB; i++) cdf[i] /= sum;
}
function zipf(rand: () => number): number {
  const u = rand();
  let lo = 0, hi = VOCAB - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cdf[mid] < u) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Document `i` of a corpus of `n` (a pure function of both, so it can be regenerated instead of kept). */
function doc(i: number, n: number): string[] {
  // Fresh strings, so that an index's vocabulary is counted as its own memory.
  if (realDocs) return Array.from(realDocs.docs[i], (t) => (' ' + realDocs.vocab[t]).slice(1));
  const rand = prng(1_000_003 + i);
  const len = 100 + Math.floor(rand() * 121);
  const out: string[] = [];
  for (let j = 0; j < len; j++) {
    // Fresh strings (not shared with the generator), as the tokenizer would produce.
    if (rand() < 0.015) out.push('r' + Math.floor(rand() * n).toString(36));
    else out.push('t' + zipf(rand).toString(36));
  }
  return out;
}

function query(q: number, n: number): string[] {
  const rand = prng(77_000_000 + q);
  const source = doc(Math.floor(rand() * n), n);
  const len = 40 + Math.floor(rand() * 41);
  const out: string[] = [];
  const other = realDocs ? doc(Math.floor(rand() * n), n) : [];
  for (let j = 0; j < len; j++) {
    if (j % 2 === 0 && source.length > 0) out.push(source[Math.floor(rand() * source.length)]);
    else if (realDocs) out.push(other.length > 0 ? other[Math.floor(rand() * other.length)] : 'x');
    else out.push('t' + zipf(rand).toString(36));
  }
  return out;
}

const memory = () => {
  global.gc!();
  global.gc!();
  const m = process.memoryUsage();
  return { heapExt: m.heapUsed + m.external, rss: m.rss };
};
const mb = (b: number) => Math.round((b / 1048576) * 10) / 10;
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

interface Row {
  impl: string;
  docs: number;
  buildS: number;
  builtMB: number;
  builtRssMB: number;
  serializedBytes: number;
  serializeS: number;
  deserializeS: number;
  loadedMB: number;
  loadedRssMB: number;
  p50ms: number;
  p95ms: number;
  p99ms: number;
  meanMs: number;
  /** CPU time of this process per query (less sensitive than wall time to other load on the machine). */
  cpuP50ms: number;
  cpuP95ms: number;
  cpuP99ms: number;
  /** Memory of the loaded index once queries have allocated their scratch. */
  afterQueriesMB: number;
}

function measure(impl: string, make: () => LexicalIndex, load: (b: Buffer) => LexicalIndex, n: number, queries: string[][]): { row: Row; top10: number[][]; results: string[] } {
  const m0 = memory();
  let t = process.hrtime.bigint();
  let idx: LexicalIndex | null = make();
  for (let i = 0; i < n; i++) idx.add(i, doc(i, n));
  const buildS = Number(process.hrtime.bigint() - t) / 1e9;
  const m1 = memory();
  t = process.hrtime.bigint();
  const buf = idx.serialize();
  const serializeS = Number(process.hrtime.bigint() - t) / 1e9;
  // eslint-disable-next-line no-useless-assignment -- dropped so that --expose-gc can collect it before the reload
  idx = null;
  const m2 = memory();
  t = process.hrtime.bigint();
  const loaded = load(buf);
  const deserializeS = Number(process.hrtime.bigint() - t) / 1e9;
  const m3 = memory();
  const times: number[] = [];
  const cpu: number[] = [];
  const top10: number[][] = [];
  const results: string[] = [];
  for (const q of queries.slice(0, 10)) loaded.search(q, 10); // warm-up (JIT)
  for (const q of queries) {
    const c = process.cpuUsage();
    const s = process.hrtime.bigint();
    const r = loaded.search(q, 10);
    times.push(Number(process.hrtime.bigint() - s) / 1e6);
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
    top10.push(r.map((x) => x.id));
    results.push(JSON.stringify(r));
  }
  const sorted = [...times].sort((a, b) => a - b);
  const cpuSorted = [...cpu].sort((a, b) => a - b);
  const m4 = memory();
  loaded.search(queries[0], 1); // keeps `loaded` reachable through the measurement above
  (loaded as Partial<Bm25Index>).close?.();
  const row: Row = {
    impl, docs: n, buildS: +buildS.toFixed(2),
    builtMB: mb(m1.heapExt - m0.heapExt), builtRssMB: mb(m1.rss - m0.rss),
    serializedBytes: buf.length, serializeS: +serializeS.toFixed(2), deserializeS: +deserializeS.toFixed(2),
    // The loaded index alone: `buf` is alive in both m2 and m3, so it cancels out.
    loadedMB: mb(m3.heapExt - m2.heapExt), loadedRssMB: mb(m3.rss - m2.rss),
    p50ms: +pct(sorted, 50).toFixed(2), p95ms: +pct(sorted, 95).toFixed(2), p99ms: +pct(sorted, 99).toFixed(2),
    meanMs: +(times.reduce((a, b) => a + b, 0) / times.length).toFixed(2),
    cpuP50ms: +pct(cpuSorted, 50).toFixed(2), cpuP95ms: +pct(cpuSorted, 95).toFixed(2), cpuP99ms: +pct(cpuSorted, 99).toFixed(2),
    afterQueriesMB: mb(m4.heapExt - m2.heapExt),
  };
  return { row, top10, results };
}

const rows: Row[] = [];
const checks: Array<{ docs: number; queries: number; identicalTop10: number; firstMismatch?: number; onDiskIdentical: number }> = [];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rr-lexical-bench-'));
/** Format 2 as the engine loads it: from the file, keeping it open for the postings. */
function openOnDisk(buf: Buffer): Bm25Index {
  const file = path.join(tmp, 'lexical.bin');
  fs.writeFileSync(file, buf);
  return Bm25Index.deserialize(buf, { fd: fs.openSync(file, 'r'), path: file }, TUNING);
}
for (const n of DOC_COUNTS) {
  const queries = Array.from({ length: QUERIES }, (_, q) => query(q, n));
  const avgQ = queries.reduce((a, q) => a + q.length, 0) / queries.length;
  console.log(`\n== ${n} documents, ${QUERIES} queries of ${avgQ.toFixed(0)} terms on average`);
  const old = measure('format1 (main)', () => new Bm25Format1(), (b) => Bm25Format1.deserialize(b), n, queries);
  console.log(JSON.stringify(old.row));
  const neu = measure('format2 (packed)', () => new Bm25Index(), (b) => Bm25Index.deserialize(b, undefined, TUNING), n, queries);
  console.log(JSON.stringify(neu.row));
  const disk = measure('format2 (on disk)', () => new Bm25Index(), openOnDisk, n, queries);
  console.log(JSON.stringify(disk.row));
  rows.push(old.row, neu.row, disk.row);
  const onDiskIdentical = queries.filter((_, q) => disk.results[q] === neu.results[q]).length;
  console.log(`format2 on disk: results (ids and scores) identical to in memory for ${onDiskIdentical}/${queries.length} queries`);
  let same = 0, first: number | undefined;
  for (let q = 0; q < queries.length; q++) {
    if (JSON.stringify(old.top10[q]) === JSON.stringify(neu.top10[q])) same++;
    else if (first === undefined) first = q;
  }
  checks.push({ docs: n, queries: queries.length, identicalTop10: same, firstMismatch: first, onDiskIdentical });
  console.log(`top-10 ids identical for ${same}/${queries.length} queries`);
}
fs.rmSync(tmp, { recursive: true, force: true });
console.table(rows);
if (OUT) fs.writeFileSync(OUT, JSON.stringify({ date: new Date().toISOString(), vocab: VOCAB, exhaustive: 'maxQueryPostings' in TUNING, rows, checks }, null, 2));
