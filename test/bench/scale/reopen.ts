// `node --expose-gc out/test/bench/scale/reopen.js --root DIR --index DIR --files-list F [--queries 500] [--seed 1] [--no-dense]`
// The second half of the scale bench, in a fresh process: what an editor session costs after the
// first index exists (the usual case: every launch after the first). Opens the saved index without
// re-indexing, answers the same kind of editor states as run.ts, and prints JSON with the open
// time, query latency and the process's RSS (peak sampled every 50 ms, and after a full GC).
// Separate from run.ts because RSS in the indexing process also holds whatever V8 kept from the
// build; this one holds only what querying needs.
import * as fs from 'fs';
import { Engine } from '../../../engine/src/engine';
import { prng } from './generate';
import { CODE_FILE, editorStateAt, percentile } from './editorStates';

const mb = (b: number) => Math.round((b / 1048576) * 10) / 10;

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const get = (n: string) => { const i = argv.indexOf(`--${n}`); return i >= 0 ? argv[i + 1] : undefined; };
  const root = get('root')!, indexDir = get('index')!, list = get('files-list')!;
  const queries = Number(get('queries') ?? 500), seed = Number(get('seed') ?? 1);
  const files = (JSON.parse(fs.readFileSync(list, 'utf8')) as string[]).filter((f) => CODE_FILE.test(f));
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 50);
  const rssBefore = process.memoryUsage().rss;
  let t = performance.now();
  const engine = await Engine.open({ root, indexDir, dense: !argv.includes('--no-dense'), log: (s) => console.error(`[reopen] ${s}`) });
  const openSeconds = (performance.now() - t) / 1000;
  global.gc?.();
  const afterOpen = process.memoryUsage();
  const r = prng(seed * 13 + 5);
  const latencies: number[] = [];
  for (let q = 0; q < queries; q++) {
    const state = editorStateAt(root, files[Math.floor(r() * files.length)], r);
    t = performance.now();
    await engine.retrieve(state, { k: 10 });
    latencies.push(performance.now() - t);
  }
  const whileQuerying = process.memoryUsage();
  // The sampling timer cannot fire during the synchronous load; the kernel's high-water mark can.
  peak = Math.max(peak, whileQuerying.rss, process.resourceUsage().maxRSS * 1024);
  global.gc?.();
  const live = process.memoryUsage();
  clearInterval(timer);
  const stats = await engine.stats();
  await engine.close();
  latencies.sort((a, b) => a - b);
  console.log(JSON.stringify({
    openSeconds,
    chunks: stats.chunks,
    rssMB: { beforeOpen: mb(rssBefore), afterOpen: mb(afterOpen.rss), peak: mb(peak), whileQuerying: mb(whileQuerying.rss), liveAfterGc: mb(live.rss) },
    heapUsedMB: { afterOpen: mb(afterOpen.heapUsed), afterGc: mb(live.heapUsed) },
    externalMB: { afterOpen: mb(afterOpen.external), afterGc: mb(live.external) },
    queryMs: { n: latencies.length, p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), max: latencies[latencies.length - 1] },
  }));
}

main().catch((e) => { console.error(e); process.exit(1); });
