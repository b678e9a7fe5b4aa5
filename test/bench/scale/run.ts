// `npm run bench:scale -- --files N --out FILE.json [--dir DIR] [--queries 500] [--seed 1] [--no-dense] [--keep] [--in-process] [--edits 50]
//   [--gitignore-lines N] [--hostile-gitignore]`
// (then reopen.ts runs the same queries in a fresh process on the saved index)
// Generates a synthetic repository (generate.ts), cold-indexes it as the extension does (the
// engine in its own process behind EngineClient, which replaces it after a large build;
// `--in-process` runs the Engine on this thread instead, with its V8 heap figures), and measures: wall time, chunks/s, peak RSS while indexing and while querying (sampled every
// 100 ms), index bytes on disk per component vs source bytes, query latency p50/p95/p99 over
// editor states at random positions of random files, a save after editing one file (--edits times:
// bytes written, time, the longest query meanwhile), and the time of a second, no-change indexAll.
// The fresh process (reopen.ts) first times the editor's reopen of the unchanged workspace: open,
// scan, nothing to do (`noChangeReopen`, beside the cold build's `index.seconds`).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as v8 from 'v8';
import { EngineClient } from '../../../engine/src/rpc/client';
import type { IndexProgress, IndexStats, RetrieveOptions } from '../../../engine/src/api';
import type { EditorState, RetrievedChunk } from '../../../engine/src/types';
import { spawnSync } from 'child_process';
import { RssSampler } from './rssSampler';
import { prng, type GeneratedRepo } from './generate';
import { CODE_FILE, editorStateAt, percentile } from './editorStates';

interface Args {
  files: number;
  out?: string;
  dir?: string;
  queries: number;
  seed: number;
  dense: boolean;
  keep: boolean;
  inProcess: boolean;
  edits: number;
  gitignoreLines: number;
  hostileGitignore: boolean;
}

/** What the bench asks of the engine: an Engine on this thread, or an EngineClient and its worker. */
interface EngineHost {
  /** The engine's own process, when it has one. */
  readonly enginePid?: number;
  indexAll(onProgress?: (p: IndexProgress) => void): Promise<IndexStats>;
  retrieve(state: EditorState, opts: RetrieveOptions): Promise<RetrievedChunk[]>;
  updateFile(relPath: string): Promise<unknown>;
  /** Writes what the updates changed now, instead of after the save delay. */
  flush(): void | Promise<void>;
  close(): Promise<void>;
  /** Each answered call's round trip and the engine's own part (EngineClient; absent in-process). */
  onTiming?(listener: (t: { method: string; totalMs: number; engineMs: number }) => void): unknown;
}

/** The extension's setup: the engine worker behind EngineClient, with its defaults. */
async function openWorker(root: string, indexDir: string, dense: boolean, log: (s: string) => void, onReplaced: (seconds: number) => void): Promise<EngineHost> {
  const client = new EngineClient({ workerPath: path.resolve(__dirname, '../../../engine/src/rpc/worker.js'), init: { options: { root, indexDir, dense } } });
  client.onLog((s) => log(s));
  let replacing = 0;
  client.onState((s) => {
    if (s === 'starting') replacing = performance.now();
    else if (s === 'ready' && replacing) onReplaced((performance.now() - replacing) / 1000);
  });
  await client.whenReady();
  return client;
}

function parseArgs(argv: string[]): Args {
  const get = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  return {
    files: Number(get('files') ?? 100_000),
    out: get('out'),
    dir: get('dir'),
    queries: Number(get('queries') ?? 500),
    seed: Number(get('seed') ?? 1),
    dense: !argv.includes('--no-dense'),
    keep: argv.includes('--keep'),
    inProcess: argv.includes('--in-process'),
    edits: Number(get('edits') ?? 50),
    gitignoreLines: Number(get('gitignore-lines') ?? 0),
    hostileGitignore: argv.includes('--hostile-gitignore'),
  };
}

/** Size and modification time of every file under `dir`. */
function dirFiles(dir: string): Map<string, { size: number; mtimeMs: number }> {
  const out = new Map<string, { size: number; mtimeMs: number }>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const st = fs.statSync(p);
        out.set(p, { size: st.size, mtimeMs: st.mtimeMs });
      }
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

/**
 * A save after editing one file, `edits` times: a file on disk gets a line, the engine re-indexes
 * it, then writes the index (flush) while queries run back to back. Reports the bytes of the index
 * files the save wrote (files new or changed since before it), the flush request's round trip, and
 * the longest any query took while the save ran (`query_wait_max_ms`: the whole query, its own
 * work included). Beside it, `query_excess_max_ms`: the most any of those queries took beyond
 * the same query run again right after the save (warmer, so this errs high), i.e. what the save
 * itself added.
 */
interface SaveOneEditResult {
  n: number;
  bytes_p50: number;
  bytes_p95: number;
  ms_p50: number;
  ms_p95: number;
  query_wait_max_ms: number | null;
  query_excess_max_ms: number | null;
  query_wait_by_edit_ms: number[];
  queries_by_edit: number[];
  /** The engine's own time of that longest query (the rest is the message's way there and back); absent in-process. */
  query_wait_engine_ms_by_edit?: number[];
}

async function saveOneEdit(engine: EngineHost, root: string, indexDir: string, code: string[], edits: number, seed: number): Promise<SaveOneEditResult> {
  const r = prng(seed * 13 + 5);
  const bytes: number[] = [];
  const ms: number[] = [];
  let queryWaitMax = 0;
  let queryExcessMax = -Infinity;
  // Per edit: the longest query during its save and how many ran, to tell one spike from a trend.
  const waitByEdit: number[] = [];
  const queriesByEdit: number[] = [];
  const engineByEdit: number[] = [];
  let lastRetrieveEngineMs = NaN;
  engine.onTiming?.((t) => t.method === 'retrieve' && (lastRetrieveEngineMs = t.engineMs));
  for (let i = 0; i < edits; i++) {
    const rel = code[Math.floor(r() * code.length)];
    fs.appendFileSync(path.join(root, rel), `\nexport const editedForSave${i} = ${i};\n`);
    await engine.updateFile(rel);
    const state = editorStateAt(root, code[Math.floor(r() * code.length)], r);
    const before = dirFiles(indexDir);
    let saving = true;
    let overlapMax = 0;
    let overlapEngineMs = NaN;
    let overlapped = 0;
    const querying = (async () => {
      while (saving) {
        const q0 = performance.now();
        await engine.retrieve(state, { k: 10 });
        const took = performance.now() - q0;
        if (took > overlapMax) [overlapMax, overlapEngineMs] = [took, lastRetrieveEngineMs];
        overlapped++;
      }
    })();
    const t0 = performance.now();
    await engine.flush();
    ms.push(performance.now() - t0);
    saving = false;
    await querying;
    queryWaitMax = Math.max(queryWaitMax, overlapMax);
    waitByEdit.push(Math.round(overlapMax * 10) / 10);
    queriesByEdit.push(overlapped);
    engineByEdit.push(Math.round(overlapEngineMs * 10) / 10);
    const c0 = performance.now();
    await engine.retrieve(state, { k: 10 });
    queryExcessMax = Math.max(queryExcessMax, overlapMax - (performance.now() - c0));
    let written = 0;
    for (const [p, st] of dirFiles(indexDir)) {
      const old = before.get(p);
      if (!old || old.mtimeMs !== st.mtimeMs || old.size !== st.size) written += st.size;
    }
    bytes.push(written);
  }
  ms.sort((a, b) => a - b);
  bytes.sort((a, b) => a - b);
  return { n: edits, bytes_p50: percentile(bytes, 50), bytes_p95: percentile(bytes, 95), ms_p50: percentile(ms, 50), ms_p95: percentile(ms, 95), query_wait_max_ms: edits ? queryWaitMax : null, query_excess_max_ms: edits ? queryExcessMax : null, query_wait_by_edit_ms: waitByEdit, queries_by_edit: queriesByEdit, ...(engine.onTiming ? { query_wait_engine_ms_by_edit: engineByEdit } : {}) };
}

/** Bytes of every file under `dir`, by path relative to it (forward slashes). */
function dirBytes(dir: string): Record<string, number> {
  return Object.fromEntries([...dirFiles(dir)].map(([p, st]) => [path.relative(dir, p).split(path.sep).join('/'), st.size]));
}

const mb = (b: number) => Math.round((b / 1048576) * 10) / 10;

function memorySnapshot(): Record<string, number> {
  const m = process.memoryUsage();
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, mb(s.space_used_size)]));
  return { rssMB: mb(m.rss), heapUsedMB: mb(m.heapUsed), heapTotalMB: mb(m.heapTotal), externalMB: mb(m.external), arrayBuffersMB: mb(m.arrayBuffers), ...Object.fromEntries(Object.entries(spaces).map(([k, v]) => [`v8.${k}MB`, v])) };
}

/** The log: on stderr, and kept with the seconds since start (the cold build's peak is shown with the lines around it). */
function makeLog(): { log: (s: string) => void; logLines: Array<{ atS: number; line: string }> } {
  const logT0 = performance.now();
  const logLines: Array<{ atS: number; line: string }> = [];
  const log = (s: string) => {
    logLines.push({ atS: Math.round((performance.now() - logT0) / 100) / 10, line: s.slice(0, 200) });
    console.error(`[scale] ${s}`);
  };
  return { log, logLines };
}

/**
 * The synthetic repository, generated in a child process, so that this process (the extension
 * host's stand-in) does not carry the generator's garbage into the memory figures.
 */
function generateRepo(args: Args, root: string, log: (s: string) => void): { repo: GeneratedRepo; generateSeconds: number } {
  const t = performance.now();
  const gen = spawnSync(process.execPath, [path.join(__dirname, 'generate.js'), '--dir', root, '--files', String(args.files), '--seed', String(args.seed), '--gitignore-lines', String(args.gitignoreLines), ...(args.hostileGitignore ? ['--hostile-gitignore'] : []), '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (gen.status !== 0) throw new Error(`generator failed: ${gen.stderr}`);
  const repo = JSON.parse(gen.stdout) as GeneratedRepo;
  const generateSeconds = (performance.now() - t) / 1000;
  log(`generated ${repo.indexable.length} indexable files, ${mb(repo.sourceBytes)} MB, in ${generateSeconds.toFixed(1)} s`);
  return { repo, generateSeconds };
}

/** The cold build, progress logged every 15 s; in worker mode less the time the worker was being replaced. */
async function indexTimed(engine: EngineHost, replacedSeconds: () => number | undefined, log: (s: string) => void): Promise<{ stats: IndexStats; indexSeconds: number }> {
  const t = performance.now();
  let lastLog = 0;
  const stats = await engine.indexAll((p) => {
    const now = performance.now();
    if (now - lastLog > 15_000) {
      lastLog = now;
      log(`${p.phase} ${p.done}/${p.total} rss ${mb(process.memoryUsage().rss)} MB, ${((now - t) / 1000).toFixed(0)} s`);
    }
  });
  // In worker mode indexAll resolves after the worker was replaced; that time is not indexing.
  const indexSeconds = (performance.now() - t) / 1000 - (replacedSeconds() ?? 0);
  log(`indexed ${stats.files} files, ${stats.chunks} chunks in ${indexSeconds.toFixed(1)} s`);
  return { stats, indexSeconds };
}

/** `args.queries` queries at random code files' editor states: sorted latencies, empty answers, memory meanwhile and after a GC. */
async function timeQueries(engine: EngineHost, root: string, code: string[], args: Args) {
  const r = prng(args.seed * 7 + 1);
  const latencies: number[] = [];
  let emptyResults = 0;
  for (let q = 0; q < args.queries; q++) {
    const state = editorStateAt(root, code[Math.floor(r() * code.length)], r);
    const q0 = performance.now();
    const hits = await engine.retrieve(state, { k: 10 });
    latencies.push(performance.now() - q0);
    if (!hits.length) emptyResults++;
  }
  const whileQuerying = memorySnapshot();
  // Live memory (after a full GC): RSS above it while querying is per-query garbage V8 has not returned.
  global.gc?.();
  const liveAfterQueries = memorySnapshot();
  latencies.sort((a, b) => a - b);
  return { latencies, emptyResults, whileQuerying, liveAfterQueries };
}

/** A fresh process on the saved index (reopen.ts): the editor's memory and latency after a restart. */
function reopenFresh(at: { work: string; root: string; indexDir: string }, repo: GeneratedRepo, args: Args, indexSeconds: number, log: (s: string) => void) {
  const { work, root, indexDir } = at;
  const listFile = path.join(work, 'files.json');
  fs.writeFileSync(listFile, JSON.stringify(repo.indexable.map((f) => f.relPath)));
  const reopenArgs = [...process.execArgv.filter((a) => a === '--expose-gc'), path.join(__dirname, 'reopen.js'), '--root', root, '--index', indexDir, '--files-list', listFile, '--queries', String(args.queries), '--seed', String(args.seed), ...(args.dense ? [] : ['--no-dense'])];
  const child = spawnSync(process.execPath, reopenArgs, { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (child.status !== 0) log(`reopen failed (${child.status}): ${child.stderr.slice(-2000)}`);
  const reopened = child.status === 0 ? JSON.parse(child.stdout.trim().split('\n').pop()!) : { error: child.stderr.slice(-2000) };
  if (child.status === 0) log(`no-change reopen ${reopened.noChangeReopen.seconds.toFixed(1)} s (cold build ${indexSeconds.toFixed(1)} s)`);
  if (child.status === 0) log(`fresh process: open ${reopened.openSeconds.toFixed(1)} s, query p95 ${reopened.queryMs.p95.toFixed(1)} ms, engine RSS while querying ${reopened.engineRssMB.whileQuerying} MB`);
  return reopened;
}

/** The engine's process per phase (after `index`, the replacement the client started), and this one. */
function rssReport(sampler: RssSampler, rssBeforeOpen: number, logLines: Array<{ atS: number; line: string }>) {
  return {
    beforeOpen: mb(rssBeforeOpen),
    peakByPhase: Object.fromEntries(Object.entries(sampler.peaks).map(([k, v]) => [k, mb(v)])),
    hostPeakByPhase: Object.fromEntries(Object.entries(sampler.hostPeaks).map(([k, v]) => [k, mb(v)])),
    // The cold build's peak in context: when it was sampled, the log lines around it, and RSS per second.
    indexPeak: {
      atS: sampler.peakAtS.index ?? null,
      logAround: logLines.filter((l) => sampler.peakAtS.index !== undefined && Math.abs(l.atS - sampler.peakAtS.index) <= 15),
      perSecondMB: (sampler.perSecondMB.index ?? []).map((v) => v ?? null),
    },
  };
}

/** Percentiles of sorted latencies. */
function latencyReport(latencies: number[]) {
  return { n: latencies.length, p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), max: latencies[latencies.length - 1] };
}

/** The scale targets (README), met or not. */
function targetsOf(sampler: RssSampler, reopened: { engineRssMB?: { peakWhileQuerying?: unknown }; queryMs?: { p95?: unknown } }, indexBytes: number, sourceBytes: number, latencies: number[]) {
  return {
    rssWhileQueryingLe300MB: (sampler.peaks.query ?? Infinity) <= 300 * 1048576,
    freshProcessRssWhileQueryingLe300MB: typeof reopened.engineRssMB?.peakWhileQuerying === 'number' && reopened.engineRssMB.peakWhileQuerying <= 300,
    freshProcessQueryP95Le50ms: typeof reopened.queryMs?.p95 === 'number' && reopened.queryMs.p95 <= 50,
    indexLe1xSource: indexBytes <= sourceBytes,
    queryP95Le50ms: percentile(latencies, 95) <= 50,
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const work = args.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'rr-scale-'));
  const root = path.join(work, 'repo');
  const indexDir = path.join(work, 'index');
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(indexDir, { recursive: true, force: true });
  const { log, logLines } = makeLog();

  let engine: EngineHost | undefined;
  const sampler = new RssSampler(() => engine?.enginePid);
  sampler.enter('generate');
  const { repo, generateSeconds } = generateRepo(args, root, log);

  global.gc?.();
  sampler.enter('open');
  const rssBeforeOpen = process.memoryUsage().rss;
  let t = performance.now();
  let workerReplacedSeconds: number | undefined;
  engine = args.inProcess
    ? await (await import('../../../engine/src/engine')).Engine.open({ root, indexDir, dense: args.dense, log })
    : await openWorker(root, indexDir, args.dense, log, (s) => (workerReplacedSeconds = s));
  const openSeconds = (performance.now() - t) / 1000;

  sampler.enter('index');
  const { stats, indexSeconds } = await indexTimed(engine, () => workerReplacedSeconds, log);
  const afterIndex = memorySnapshot();

  global.gc?.();
  sampler.enter('query');
  const code = repo.indexable.filter((f) => CODE_FILE.test(f.relPath));
  const { latencies, emptyResults, whileQuerying, liveAfterQueries } = await timeQueries(engine, root, code.map((f) => f.relPath), args);

  sampler.enter('saveOneEdit');
  const saveOne = await saveOneEdit(engine, root, indexDir, code.map((f) => f.relPath), args.edits, args.seed);
  log(`save after one edit (${saveOne.n}x): ${saveOne.bytes_p95} bytes and ${saveOne.ms_p95?.toFixed(1)} ms at p95, longest query meanwhile ${saveOne.query_wait_max_ms?.toFixed(1)} ms (at most ${saveOne.query_excess_max_ms?.toFixed(1)} ms more than the same query without a save)`);

  sampler.enter('reindex');
  t = performance.now();
  const again = await engine.indexAll();
  const reindexSeconds = (performance.now() - t) / 1000;

  sampler.enter('close');
  await engine.close();
  sampler.stop();
  const reopened = reopenFresh({ work, root, indexDir }, repo, args, indexSeconds, log);

  const components = dirBytes(indexDir);
  const indexBytes = Object.values(components).reduce((s, b) => s + b, 0);
  const result = {
    params: { files: args.files, gitignoreLines: args.gitignoreLines, hostileGitignore: args.hostileGitignore, seed: args.seed, dense: args.dense, queries: args.queries, node: process.version, cpus: os.cpus().length, host: args.inProcess ? 'in-process' : 'worker' },
    source: { indexableFiles: repo.indexable.length, bytes: repo.sourceBytes, skippedByGenerator: repo.ignored.length },
    generateSeconds,
    openSeconds,
    index: {
      seconds: indexSeconds,
      files: stats.files,
      chunks: stats.chunks,
      chunksPerSecond: stats.chunks / indexSeconds,
      filesPerSecond: stats.files / indexSeconds,
      skipped: stats.skipped,
      workerReplacedSeconds,
    },
    disk: { indexBytes, ratioToSource: indexBytes / repo.sourceBytes, components },
    // The engine's process per phase (after `index`, the replacement the client started), and this one.
    rssMB: rssReport(sampler, rssBeforeOpen, logLines),
    memoryAfterIndex: afterIndex,
    memoryWhileQuerying: whileQuerying,
    memoryLiveAfterQueries: liveAfterQueries,
    queryMs: { ...latencyReport(latencies), emptyResults },
    reopened,
    // Issue 19: bytes written and time of a save after one edited file, the longest query meanwhile (whole), and the most a save added to one.
    save_one_edit: saveOne,
    reindexUnchanged: { seconds: reindexSeconds, secondsPer1000Files: (reindexSeconds / stats.files) * 1000, changedFiles: again.changedFiles },
    targets: targetsOf(sampler, reopened, indexBytes, repo.sourceBytes, latencies),
  };
  const json = JSON.stringify(result, null, 2);
  if (args.out) {
    fs.mkdirSync(path.dirname(path.resolve(args.out)), { recursive: true });
    fs.writeFileSync(args.out, json + '\n');
  }
  console.log(json);
  if (!args.keep && !args.dir) fs.rmSync(work, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
