// `node --expose-gc out/test/bench/scale/firstQuery.js --dir DIR [--files 20000] [--edits 20] [--seed 1] [--prof FILE.cpuprofile] [--no-dense] [--warm 500] [--warm-edits | --warm-updates] [--worker [--worker-exec SCRIPT]]`
// Issue 19's `save_one_edit.query_wait_max_ms`, taken apart: after `updateFile` of one edited
// file, how long the FIRST query takes (1) while `flush()` saves, (2) with no save running, and
// the same query again right after each (warm). A first query that is slow without a save is work
// an index change left for the next query, not the save. The engine runs on this thread (the CPU
// profile, `--prof`, covers the first query of each save, summed by function self time) or, with
// `--worker`, in its own process as in the extension. `--dir` keeps the generated repository and
// its index: a second run reopens them.
import * as fs from 'fs';
import * as inspector from 'inspector';
import * as path from 'path';
import { spawnSync } from 'child_process';
import { EngineClient } from '../../../engine/src/rpc/client';
import type { IndexStats, RetrieveOptions } from '../../../engine/src/api';
import type { EditorState, RetrievedChunk } from '../../../engine/src/types';

interface Probed {
  indexAll(): Promise<IndexStats>;
  retrieve(state: EditorState, opts: RetrieveOptions): Promise<RetrievedChunk[]>;
  updateFile(relPath: string): Promise<unknown>;
  flush(): void | Promise<void>;
  close(): Promise<void>;
}
import { prng, type GeneratedRepo } from './generate';
import { CODE_FILE, editorStateAt, percentile } from './editorStates';

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

function post<T>(session: inspector.Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res as T))));
}

/** Self time per function (ms) summed over profiles, largest first. */
function selfTimes(profiles: Profile[]): Array<[string, number]> {
  const by = new Map<string, number>();
  for (const p of profiles) {
    const nodes = new Map(p.nodes.map((n) => [n.id, n]));
    p.samples.forEach((id, i) => {
      const f = nodes.get(id)!.callFrame;
      const key = `${f.functionName || '(anon)'} ${path.basename(f.url)}:${f.lineNumber + 1}`;
      by.set(key, (by.get(key) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
    });
  }
  return [...by].sort((a, b) => b[1] - a[1]);
}

/** The generated repository's code files: generated into `dir` on the first run, listed in files.json. */
function codeFiles(dir: string, root: string, files: number, seed: number): string[] {
  const listFile = path.join(dir, 'files.json');
  if (!fs.existsSync(listFile)) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const gen = spawnSync(process.execPath, [path.join(__dirname, 'generate.js'), '--dir', root, '--files', String(files), '--seed', String(seed), '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    if (gen.status !== 0) throw new Error(`generator failed: ${gen.stderr}`);
    const repo = JSON.parse(gen.stdout) as GeneratedRepo;
    fs.writeFileSync(listFile, JSON.stringify(repo.indexable.map((f) => f.relPath)));
  }
  return (JSON.parse(fs.readFileSync(listFile, 'utf8')) as string[]).filter((f) => CODE_FILE.test(f));
}

/** The engine on this thread, or with `--worker` behind EngineClient in a child process. */
async function openProbed(worker: boolean, workerExec: string | undefined, options: { root: string; indexDir: string; dense: boolean }, log: (s: string) => void): Promise<Probed> {
  if (worker) {
    // As the extension runs it (and run.ts): a child process behind EngineClient. For its CPU
    // profile, `--worker-exec SCRIPT`: a script that runs node with --cpu-prof and its arguments
    // (fork starts process.execPath; --cpu-prof is not allowed in NODE_OPTIONS).
    if (workerExec) process.execPath = path.resolve(workerExec);
    const client = new EngineClient({ workerPath: path.resolve(__dirname, '../../../engine/src/rpc/worker.js'), init: { options }, recycleAfterFiles: 0 });
    client.onLog(log);
    await client.whenReady();
    return client;
  }
  const { Engine: EngineClass } = await import('../../../engine/src/engine');
  return EngineClass.open({ ...options, log });
}

/**
 * One untimed edit and save per language (`--warm-edits`): the timed edits then find every
 * grammar loaded, its code compiled, and the save path run once; `--warm-updates`: the updates
 * only (grammars loaded), the save path left cold.
 */
async function warmEdits(engine: Probed, root: string, code: string[], save: boolean): Promise<void> {
  const byExt = new Map<string, string>();
  for (const f of code) if (!byExt.has(path.extname(f))) byExt.set(path.extname(f), f);
  for (const f of byExt.values()) {
    fs.appendFileSync(path.join(root, f), '\nexport const warmEdit = 0;\n');
    await engine.updateFile(f);
    if (save) await engine.flush();
  }
  await new Promise((res) => setTimeout(res, 3000));
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const get = (n: string) => { const i = argv.indexOf(`--${n}`); return i >= 0 ? argv[i + 1] : undefined; };
  const dir = get('dir');
  if (!dir) throw new Error('--dir DIR is required (the repository and index are kept there)');
  const files = Number(get('files') ?? 20_000), edits = Number(get('edits') ?? 20), seed = Number(get('seed') ?? 1);
  const dense = !argv.includes('--no-dense');
  const profOut = get('prof');
  const root = path.join(dir, 'repo'), indexDir = path.join(dir, 'index');
  const code = codeFiles(dir, root, files, seed);
  const t = performance.now();
  const log = (s: string) => console.error(`[firstQuery] ${s}`);
  const worker = argv.includes('--worker');
  const engine = await openProbed(worker, get('worker-exec'), { root, indexDir, dense }, log);
  const stats = await engine.indexAll();
  console.error(`[firstQuery] open + indexAll ${((performance.now() - t) / 1000).toFixed(1)} s: ${stats.files} files, ${stats.chunks} chunks`);
  const r = prng(seed * 13 + 5);
  // As many queries as run.ts runs before its edits: the search's code is optimized for an index with no
  // updates by then, which is what the first update's query runs into.
  const warm = Number(get('warm') ?? 500);
  for (let q = 0; q < warm; q++) await engine.retrieve(editorStateAt(root, code[Math.floor(r() * code.length)], r), { k: 10 });
  if (argv.includes('--warm-edits') || argv.includes('--warm-updates')) await warmEdits(engine, root, code, argv.includes('--warm-edits'));
  const { rows, profiles, windows } = await timeEdits(engine, { root, code, r, edits, worker, profile: profOut !== undefined });
  if (worker && get('worker-exec')) {
    // The profile is written when the process exits by itself: the exec script is expected to
    // preload a SIGUSR2 handler that calls process.exit.
    process.kill((engine as EngineClient).enginePid!, 'SIGUSR2');
    await new Promise((r) => setTimeout(r, 3000));
  }
  await engine.close();
  const col = (k: keyof (typeof rows)[number]) => {
    const v = rows.map((x) => x[k]).sort((a, b) => a - b);
    return { p50: percentile(v, 50), max: v[v.length - 1] };
  };
  const out: Record<string, unknown> = { files: stats.files, chunks: stats.chunks, edits, firstQueryNoSave: col('noSave'), sameQueryAgain: col('noSaveAgain'), firstQueryDuringSave: col('duringSave'), maxDuringSave: col('duringSaveMax'), duringSaveAgain: col('duringSaveAgain'), updateFile: col('update') };
  if (profOut) {
    fs.writeFileSync(profOut, JSON.stringify(profiles[profiles.length - 1]));
    out.firstQuerySelfMsTop = selfTimes(profiles).slice(0, 25).map(([f, ms]) => `${(ms / profiles.length).toFixed(2)} ms/query ${f}`);
  }
  if (worker) out.queryWindowsUs = windows;
  console.log(JSON.stringify(out, null, 1));
}

interface EditRow { noSave: number; noSaveAgain: number; duringSave: number; duringSaveMax: number; duringSaveAgain: number; update: number }

/** The timed edits: per edit, the first query during a save and after an update without one, each again. */
async function timeEdits(engine: Probed, o: { root: string; code: string[]; r: () => number; edits: number; worker: boolean; profile: boolean }): Promise<{ rows: EditRow[]; profiles: Profile[]; windows: Array<[number, number, number]> }> {
  const { root, code, r, edits, worker } = o;
  const session = new inspector.Session();
  session.connect();
  await post(session, 'Profiler.enable');
  await post(session, 'Profiler.setSamplingInterval', { interval: 100 });
  const profiles: Profile[] = [];
  const windows: Array<[number, number, number]> = [];
  const timeQuery = async (state: ReturnType<typeof editorStateAt>, profile = false) => {
    if (profile && !worker) await post(session, 'Profiler.start');
    const q0 = performance.now(), h0 = process.hrtime.bigint();
    await engine.retrieve(state, { k: 10 });
    const ms = performance.now() - q0;
    // The query's span on the monotonic clock (µs), which a worker's --cpu-prof timestamps share.
    if (worker) windows.push([Number(h0 / 1000n), Number(process.hrtime.bigint() / 1000n), ms]);
    if (profile && !worker) profiles.push((await post<{ profile: Profile }>(session, 'Profiler.stop')).profile);
    return ms;
  };
  const rows: EditRow[] = [];
  for (let i = 0; i < edits; i++) {
    // (1) a save, as run.ts's saveOneEdit: edit, update, then queries back to back from before the
    // flush is sent until it is done (the first edit's save also starts the writer thread), then
    // the same query again.
    let rel = code[Math.floor(r() * code.length)];
    fs.appendFileSync(path.join(root, rel), `\nexport const editedForProbe${i}a = ${i};\n`);
    const t = performance.now();
    await engine.updateFile(rel);
    const update = performance.now() - t;
    const state = editorStateAt(root, code[Math.floor(r() * code.length)], r);
    let saving = true;
    const times: number[] = [];
    const querying = (async () => {
      while (saving) times.push(await timeQuery(state, o.profile && times.length === 0));
    })();
    await engine.flush();
    saving = false;
    await querying;
    const duringSave = times[0], duringSaveMax = Math.max(...times);
    const duringSaveAgain = await timeQuery(state);
    // (2) no save: edit, update, first query, same query again (the save after it is not timed).
    rel = code[Math.floor(r() * code.length)];
    fs.appendFileSync(path.join(root, rel), `\nexport const editedForProbe${i}b = ${i};\n`);
    await engine.updateFile(rel);
    const noSave = await timeQuery(state);
    const noSaveAgain = await timeQuery(state);
    await engine.flush();
    rows.push({ noSave, noSaveAgain, duringSave, duringSaveMax, duringSaveAgain, update });
    console.error(`[firstQuery] edit ${i}: update ${update.toFixed(1)} ms; first query during a save ${duringSave.toFixed(1)} (max of ${times.length} ${duringSaveMax.toFixed(1)}; again ${duringSaveAgain.toFixed(1)}); first query after an update without a save ${noSave.toFixed(1)} (again ${noSaveAgain.toFixed(1)})`);
  }
  return { rows, profiles, windows };
}

main().catch((e) => { console.error(e); process.exit(1); });
