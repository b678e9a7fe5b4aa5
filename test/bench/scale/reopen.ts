// `node --expose-gc out/test/bench/scale/reopen.js --root DIR --index DIR --files-list F [--queries 500] [--seed 1] [--no-dense]
//   [--host process|thread] [--in-process] [--young-mb N] [--edit-every N] [--no-allocator-tuning]
//   [--max-query-postings N]`
// The second half of the scale bench, in a fresh process: what an editor session costs after the
// first index exists (the usual case: every launch after the first). Opens the saved index without
// re-indexing, answers the same kind of editor states as run.ts, and prints JSON with the open
// time, query latency and the process's RSS (peak sampled every 50 ms, and after a full GC).
// Separate from run.ts because RSS in the indexing process also holds whatever V8 kept from the
// build; this one holds only what querying needs.
// By default the engine runs as in the extension: in its own process (a child), through
// EngineClient, with its resource limits, and the figures are that process's (from /proc);
// `--host thread` runs it in a worker thread of this process, `--in-process` on this thread.
// Every `--edit-every` queries (default 20; 0 = never) the user types into the queried file: the
// unsaved buffer (a line inserted at the cursor) is re-indexed as the extension does on a pause
// in typing, so parsing (tree-sitter grammars), embedding and the index saves that follow are in
// the figures too.
import * as fs from 'fs';
import * as path from 'path';
import { EngineClient, ENGINE_YOUNG_GENERATION_MB } from '../../../engine/src/rpc/client';
import { procMemory } from './procMemory';
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
  const mode: Mode = argv.includes('--in-process') ? 'in-process' : ((get('host') ?? 'process') as Mode);
  const youngMb = Number(get('young-mb') ?? ENGINE_YOUNG_GENERATION_MB);
  const hostBefore = process.memoryUsage().rss;
  let t = performance.now();
  const engine = mode === 'in-process' ? await openInProcess(root, indexDir, !argv.includes('--no-dense')) : await openClient(root, indexDir, !argv.includes('--no-dense'), youngMb, mode);
  const openSeconds = (performance.now() - t) / 1000;
  // The editor reopens a workspace and brings the index up to date: here nothing changed.
  t = performance.now();
  const unchanged = await engine.indexAll();
  const noChangeReopen = { seconds: openSeconds + (performance.now() - t) / 1000, indexAllSeconds: (performance.now() - t) / 1000, changedFiles: unchanged.changedFiles };
  // The engine's own process: the child, or this one when the engine shares it.
  const enginePid = engine.enginePid ?? process.pid;
  const afterOpen = procMemory(enginePid);
  let peakWhileQuerying = 0;
  const timer = setInterval(() => { peakWhileQuerying = Math.max(peakWhileQuerying, procMemory(enginePid)?.rss ?? 0); }, 50);
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
  const whileQuerying = procMemory(enginePid);
  clearInterval(timer);
  peakWhileQuerying = Math.max(peakWhileQuerying, whileQuerying?.rss ?? 0);
  const hostWhileQuerying = process.memoryUsage().rss;
  const stats = await engine.stats();
  await engine.close();
  latencies.sort((a, b) => a - b);
  updates.sort((a, b) => a - b);
  console.log(JSON.stringify({
    maxQueryPostings: queryBudget() ?? 'engine default (150,000 above 25,000 files, else 250,000)',
    host: mode === 'in-process' ? 'in-process' : `${mode === 'process' ? 'child process' : 'worker thread'} (young generation ${youngMb || 'V8 default'} MB${mode === 'process' && argv.includes('--no-allocator-tuning') ? ', glibc defaults' : ''})`,
    openSeconds,
    noChangeReopen,
    chunks: stats.chunks,
    // The engine's process: RSS after opening the index, at the end of the queries, the highest
    // sampled while querying, and the kernel's high-water mark (which includes the index load).
    engineRssMB: {
      afterOpen: mb(afterOpen?.rss ?? NaN),
      whileQuerying: mb(whileQuerying?.rss ?? NaN),
      peakWhileQuerying: mb(peakWhileQuerying),
      highWaterIncludingLoad: mb(whileQuerying?.peak ?? NaN),
      // Anonymous memory is the process's own; file-backed pages are code (node, onnxruntime) mapped from disk.
      anonWhileQuerying: mb(whileQuerying?.anon ?? NaN),
      fileWhileQuerying: mb(whileQuerying?.file ?? NaN),
    },
    // This process (the extension host's stand-in); it includes the engine only in-process or as a thread.
    hostRssMB: { beforeOpen: mb(hostBefore), whileQuerying: mb(hostWhileQuerying) },
    queryMs: { n: latencies.length, p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), max: latencies[latencies.length - 1] },
    updateFileMs: { n: updates.length, p50: percentile(updates, 50), p95: percentile(updates, 95), max: updates[updates.length - 1] },
  }));
}

type Mode = 'process' | 'thread' | 'in-process';

interface Queryable {
  readonly enginePid?: number;
  retrieve(state: EditorState, opts: RetrieveOptions): Promise<RetrievedChunk[]>;
  updateFile(relPath: string, content?: string): Promise<unknown>;
  indexAll(): Promise<IndexStats>;
  stats(): Promise<IndexStats> | IndexStats;
  close(): Promise<void>;
}

/** `--max-query-postings N`: the engine's lexical work budget (EngineOptions.maxQueryPostings). */
function queryBudget(): number | undefined {
  const i = process.argv.indexOf('--max-query-postings');
  return i >= 0 ? Number(process.argv[i + 1]) : undefined;
}

async function openInProcess(root: string, indexDir: string, dense: boolean): Promise<Queryable> {
  // Loaded here only: otherwise this process stays as light as the extension host's side.
  const { Engine: EngineClass } = await import('../../../engine/src/engine');
  return EngineClass.open({ root, indexDir, dense, maxQueryPostings: queryBudget(), log: (s) => console.error(`[reopen] ${s}`) });
}

async function openClient(root: string, indexDir: string, dense: boolean, youngGenerationMb: number, host: 'process' | 'thread'): Promise<Queryable> {
  const client = new EngineClient({
    workerPath: path.resolve(__dirname, '../../../engine/src/rpc/worker.js'),
    init: { options: { root, indexDir, dense, maxQueryPostings: queryBudget() } },
    youngGenerationMb,
    host,
    allocatorTuning: !process.argv.includes('--no-allocator-tuning'),
  });
  client.onLog((s) => console.error(`[reopen] ${s}`));
  await client.whenReady();
  return client;
}

main().catch((e) => { console.error(e); process.exit(1); });
