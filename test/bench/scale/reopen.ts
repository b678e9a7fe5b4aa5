// `node --expose-gc out/test/bench/scale/reopen.js --root DIR --index DIR --files-list F [--queries 500] [--seed 1] [--no-dense]
//   [--in-process] [--young-mb N] [--edit-every N]`
// The second half of the scale bench, in a fresh process: what an editor session costs after the
// first index exists (the usual case: every launch after the first). Opens the saved index without
// re-indexing, answers the same kind of editor states as run.ts, and prints JSON with the open
// time, query latency and the process's RSS (peak sampled every 50 ms, and after a full GC).
// Separate from run.ts because RSS in the indexing process also holds whatever V8 kept from the
// build; this one holds only what querying needs.
// By default the engine runs as in the extension: in the engine worker thread, through
// EngineClient, with its resource limits; RSS is then the whole process (an idle main thread
// plus the worker). `--in-process` opens the Engine on the main thread instead.
// Every `--edit-every` queries (default 20; 0 = never) the user types into the queried file: the
// unsaved buffer (a line inserted at the cursor) is re-indexed as the extension does on a pause
// in typing, so parsing (tree-sitter grammars), embedding and the index saves that follow are in
// the figures too.
import * as fs from 'fs';
import * as path from 'path';
import type { Engine } from '../../../engine/src/engine';
import { EngineClient, ENGINE_YOUNG_GENERATION_MB } from '../../../engine/src/rpc/client';
import type { EditorState, RetrievedChunk } from '../../../engine/src/types';
import type { IndexStats, RetrieveOptions } from '../../../engine/src/api';
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
  const inProcess = argv.includes('--in-process');
  const youngMb = Number(get('young-mb') ?? ENGINE_YOUNG_GENERATION_MB);
  const engine = inProcess ? await openInProcess(root, indexDir, !argv.includes('--no-dense')) : await openWorker(root, indexDir, !argv.includes('--no-dense'), youngMb);
  const openSeconds = (performance.now() - t) / 1000;
  global.gc?.();
  const afterOpen = process.memoryUsage();
  const r = prng(seed * 13 + 5);
  const latencies: number[] = [];
  const editEvery = Number(get('edit-every') ?? 20);
  const updates: number[] = [];
  for (let q = 0; q < queries; q++) {
    const state = editorStateAt(root, files[Math.floor(r() * files.length)], r);
    if (editEvery > 0 && q % editEvery === editEvery - 1) {
      const typed = `${state.prefix}const edited${q} = 1;\n${state.suffix ?? ''}`;
      t = performance.now();
      await engine.updateFile(state.file, typed);
      updates.push(performance.now() - t);
    }
    t = performance.now();
    await engine.retrieve(state, { k: 10 });
    latencies.push(performance.now() - t);
  }
  const whileQuerying = process.memoryUsage();
  const kinds = rssKinds();
  // The sampling timer cannot fire during the synchronous load; the kernel's high-water mark can.
  peak = Math.max(peak, whileQuerying.rss, process.resourceUsage().maxRSS * 1024);
  global.gc?.();
  const live = process.memoryUsage();
  clearInterval(timer);
  const stats = await engine.stats();
  await engine.close();
  latencies.sort((a, b) => a - b);
  updates.sort((a, b) => a - b);
  console.log(JSON.stringify({
    host: inProcess ? 'in-process' : `worker (young generation ${youngMb || 'V8 default'} MB)`,
    openSeconds,
    chunks: stats.chunks,
    rssMB: { beforeOpen: mb(rssBefore), afterOpen: mb(afterOpen.rss), peak: mb(peak), whileQuerying: mb(whileQuerying.rss), liveAfterGc: mb(live.rss) },
    // Anonymous memory is the process's own; file-backed pages are code (node, onnxruntime) mapped from disk.
    rssKindsWhileQueryingMB: kinds,
    heapUsedMB: { afterOpen: mb(afterOpen.heapUsed), afterGc: mb(live.heapUsed) },
    externalMB: { afterOpen: mb(afterOpen.external), afterGc: mb(live.external) },
    queryMs: { n: latencies.length, p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), max: latencies[latencies.length - 1] },
    updateFileMs: { n: updates.length, p50: percentile(updates, 50), p95: percentile(updates, 95), max: updates[updates.length - 1] },
  }));
}

/** RSS split into anonymous and file-backed pages (Linux; empty elsewhere). */
function rssKinds(): Record<string, number> {
  try {
    const status = fs.readFileSync('/proc/self/status', 'utf8');
    const kb = (k: string) => Number(/\d+/.exec(status.split('\n').find((l) => l.startsWith(`${k}:`)) ?? '')?.[0] ?? NaN);
    return { anon: mb(kb('RssAnon') * 1024), file: mb(kb('RssFile') * 1024) };
  } catch {
    return {};
  }
}

interface Queryable {
  retrieve(state: EditorState, opts: RetrieveOptions): Promise<RetrievedChunk[]>;
  updateFile(relPath: string, content?: string): Promise<void>;
  stats(): Promise<IndexStats> | IndexStats;
  close(): Promise<void>;
}

async function openInProcess(root: string, indexDir: string, dense: boolean): Promise<Queryable> {
  // Loaded here only: in worker mode the main thread stays as light as the extension host's side.
  const { Engine: EngineClass } = await import('../../../engine/src/engine');
  return EngineClass.open({ root, indexDir, dense, log: (s) => console.error(`[reopen] ${s}`) });
}

async function openWorker(root: string, indexDir: string, dense: boolean, youngGenerationMb: number): Promise<Queryable> {
  const client = new EngineClient({
    workerPath: path.resolve(__dirname, '../../../engine/src/rpc/worker.js'),
    init: { options: { root, indexDir, dense } },
    youngGenerationMb,
  });
  client.onLog((s) => console.error(`[reopen] ${s}`));
  await client.whenReady();
  return client;
}

main().catch((e) => { console.error(e); process.exit(1); });
