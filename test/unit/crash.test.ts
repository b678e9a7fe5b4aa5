// Crash safety: a child process indexing a workspace is killed with SIGKILL at random moments
// (while parsing, embedding or writing the index), with the workspace changing between runs. After
// every kill the index must load or be rebuilt with a message; after a final indexAll it must hold
// every file exactly once, with chunks inside their files, and equal a clean full build.
import * as assert from 'assert';
import { spawn } from 'child_process';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { Engine } from '../../engine/src/engine';
import { committedFiles, readCommittedTables } from '../../engine/src/index/indexStore';
import { generateRepo, prng } from '../bench/scale/generate';
import { tempDir } from './tempDir';

const ENGINE_MODULE = path.resolve(__dirname, '../../engine/src/engine.js');

/** The index's file table and chunk records as its commit holds them (tables base + delta segments), in plain objects. */
interface ChunksJson {
  files: Record<string, { chunkIds: number[]; hash: string }>;
  chunks: Array<{ id: number; file: string; startLine: number; endLine: number; kind: string; name?: string }>;
}

interface ChildRun {
  killed: boolean;
  /** The child's IndexStats when it finished. */
  stats?: { files: number; changedFiles: number; chunks: number };
  ms: number;
}

/** Runs indexAll in a child process; kills it with SIGKILL after `killAfterMs` unless it finished. */
/**
 * `killAfterMs`: a delay, or 'first-checkpoint' to kill as soon as the index directory holds a
 * saved manifest (the first checkpoint of a cold build), whatever the machine's speed.
 */
function runChild(root: string, indexDir: string, dense: boolean, killAfterMs?: number | 'first-checkpoint', checkpointMs?: number): Promise<ChildRun> {
  const script = `
    const { Engine } = require(${JSON.stringify(ENGINE_MODULE)});
    (async () => {
      const engine = await Engine.open({ root: ${JSON.stringify(root)}, indexDir: ${JSON.stringify(indexDir)}, dense: ${dense} }, { seams: { checkpointMs: ${checkpointMs ?? 'undefined'} } });
      const stats = await engine.indexAll();
      await engine.close();
      process.stdout.write(JSON.stringify(stats));
    })().catch((e) => { console.error(e); process.exit(3); });`;
  const t0 = Date.now();
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  child.stderr.on('data', (d: Buffer) => (err += d));
  const timer = typeof killAfterMs === 'number' ? setTimeout(() => child.kill('SIGKILL'), killAfterMs) : undefined;
  const poll = killAfterMs === 'first-checkpoint'
    ? setInterval(() => { if (fs.existsSync(path.join(indexDir, 'manifest.json'))) child.kill('SIGKILL'); }, 5)
    : undefined;
  return new Promise((resolve, reject) => {
    child.on('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (poll) clearInterval(poll);
      const ms = Date.now() - t0;
      if (signal === 'SIGKILL') return resolve({ killed: true, ms });
      if (code !== 0) return reject(new Error(`indexing child exited with ${code}: ${err}`));
      resolve({ killed: false, stats: JSON.parse(out), ms });
    });
  });
}

function readChunks(indexDir: string): ChunksJson {
  const t = readCommittedTables(indexDir);
  const files: ChunksJson['files'] = {};
  for (const rel of t.files.relPaths()) files[rel] = { chunkIds: t.chunks.idsOfFile(rel), hash: t.files.get(rel)!.hash };
  return { files, chunks: [...t.chunks.all()] };
}

/** Per file: its chunk ranges, kinds and names — what a build must agree on (ids may differ). */
function layout(data: ChunksJson): Record<string, string[]> {
  const byId = new Map(data.chunks.map((c) => [c.id, c]));
  const out: Record<string, string[]> = {};
  for (const [file, f] of Object.entries(data.files)) {
    out[file] = f.chunkIds.map((id) => byId.get(id)!).map((c) => `${c.startLine}-${c.endLine}:${c.kind}:${c.name ?? ''}`).sort();
  }
  return out;
}

/** Index invariants: every chunk belongs to exactly one file entry and lies inside that file. */
/** Returns how many file entries match the workspace's current content. */
function checkConsistent(root: string, data: ChunksJson): number {
  const owner = new Map<number, string>();
  for (const [file, f] of Object.entries(data.files)) {
    for (const id of f.chunkIds) {
      assert.ok(!owner.has(id), `chunk ${id} listed by ${owner.get(id)} and ${file}`);
      owner.set(id, file);
    }
  }
  assert.strictEqual(owner.size, data.chunks.length, 'every chunk record is listed by exactly one file');
  const unchanged = new Map<string, string>();
  for (const [file, f] of Object.entries(data.files)) {
    // An index loaded after a kill may predate edits: ranges are checked against the text it was built from.
    const abs = path.join(root, file);
    const text = fs.existsSync(abs) ? fs.readFileSync(abs, 'utf8') : undefined;
    if (text !== undefined && createHash('sha1').update(text).digest('hex') === f.hash) unchanged.set(file, text);
  }
  for (const c of data.chunks) {
    assert.strictEqual(owner.get(c.id), c.file, `chunk ${c.id} belongs to ${c.file}`);
    const text = unchanged.get(c.file);
    if (text === undefined) continue;
    const lines = text.split('\n');
    const count = lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
    assert.ok(c.startLine >= 0 && c.startLine <= c.endLine && c.endLine < count, `${c.file}: chunk ${c.startLine}-${c.endLine} outside its ${count} lines`);
  }
  return unchanged.size;
}

async function retrievalFingerprint(root: string, indexDir: string, dense: boolean): Promise<string[]> {
  const engine = await Engine.open({ root, indexDir, dense });
  try {
    const out: string[] = [];
    for (const q of ['compute order total', 'cache entries capacity', 'validate session token', 'merge snapshot region']) {
      const hits = await engine.retrieve(q, { k: 8 });
      out.push(hits.map((h) => `${h.file}:${h.startLine}-${h.endLine}:${h.score.toFixed(5)}`).join(' | '));
    }
    return out;
  } finally {
    await engine.close();
  }
}

/** Changes the workspace between runs: edits and deletes a share of the files, adds one. */
function churn(root: string, r: () => number, files: string[], round: number): void {
  for (let k = 0; k < files.length * 0.3; k++) {
    const rel = files[Math.floor(r() * files.length)];
    const abs = path.join(root, rel);
    if (!fs.existsSync(abs)) continue;
    if (r() < 0.2) fs.rmSync(abs);
    else fs.appendFileSync(abs, `\n// edited in round ${round}\n`);
  }
  fs.writeFileSync(path.join(root, `src/added_${round}.ts`), `export function addedInRound${round}(x: number): number {\n  return x * ${round};\n}\n`);
}

interface CrashSummary {
  kills: number;
  finished: number;
  /** After a kill: the index loaded (with this many files), was missing, or was rebuilt with a message. */
  outcomes: Record<'loaded' | 'missing' | 'rebuilt', number>;
  messages: string[];
}

async function crashLoop(root: string, indexDir: string, dense: boolean, iterations: number, seed: number, edits: boolean): Promise<CrashSummary> {
  const r = prng(seed);
  const files = fs.readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name)));
  // One uninterrupted cold run sets the time scale of the kills.
  const scratch = tempDir('rr-crash-time-');
  const full = await runChild(root, scratch, dense);
  fs.rmSync(scratch, { recursive: true, force: true });
  const summary: CrashSummary = { kills: 0, finished: 0, outcomes: { loaded: 0, missing: 0, rebuilt: 0 }, messages: [] };
  let lastFinished = false;
  let incrementalMs = full.ms * 0.6;
  // Kills are timed from the cold run; on a loaded machine a run can finish before its kill, so
  // runs continue until `iterations` kills happened (bounded), and the assertion below cannot pass
  // on a loop that killed nothing.
  for (let i = 0; summary.kills < iterations && i < iterations * 3; i++) {
    // After a finished run there is nothing left to do: give the next run real work, over an existing index.
    if (edits && i > 0 && lastFinished) churn(root, r, files, i);
    // Without edits a finished index leaves the next run nothing to do: start that one cold again.
    if (!edits && lastFinished) fs.rmSync(indexDir, { recursive: true, force: true });
    // Runs over an existing index are shorter: their kill window follows the last one that finished.
    const expectMs = fs.existsSync(path.join(indexDir, 'manifest.json')) ? incrementalMs : full.ms;
    // Half the kills anywhere in the run, half near its end, where the index is written.
    const delay = i % 2 === 0 ? r() * expectMs : expectMs * (0.8 + r() * 0.25);
    // Every fifth run is let finish, so later kills also hit runs over an existing index (and its save).
    const run = await runChild(root, indexDir, dense, i % 5 === 4 ? undefined : Math.round(delay));
    if (run.killed) summary.kills++;
    else summary.finished++;
    if (!run.killed && expectMs === incrementalMs) incrementalMs = run.ms;
    lastFinished = !run.killed;
    const logs: string[] = [];
    const engine = await Engine.open({ root, indexDir, dense, log: (l) => logs.push(l) });
    await engine.close();
    const rebuilt = logs.find((l) => /cannot be used/.test(l));
    if (rebuilt) {
      summary.outcomes.rebuilt++;
      summary.messages.push(rebuilt);
    } else if (logs.some((l) => /^index loaded/.test(l))) {
      summary.outcomes.loaded++;
      checkConsistent(root, readChunks(indexDir));
    } else summary.outcomes.missing++;
  }
  return summary;
}

describe('crash safety (SIGKILL during indexing)', function () {
  this.timeout(600_000);
  let work: string;
  beforeEach(() => (work = tempDir('rr-crash-')));
  afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

  async function killThenVerify(dense: boolean, files: number, iterations: number, seed: number, edits: boolean): Promise<CrashSummary> {
    const root = path.join(work, 'repo');
    generateRepo(root, { files, seed });
    const indexDir = path.join(work, 'index');
    const summary = await crashLoop(root, indexDir, dense, iterations, seed, edits);
    assert.strictEqual(summary.kills, iterations, `every planned kill happened: ${JSON.stringify(summary)}`);
    for (const m of summary.messages) assert.match(m, /cannot be used \(.+\); rebuilding it/);

    // Finish the interrupted index in this process, then compare with a clean build.
    const engine = await Engine.open({ root, indexDir, dense });
    const stats = await engine.indexAll();
    await engine.close();
    const resumed = readChunks(indexDir);
    assert.strictEqual(checkConsistent(root, resumed), Object.keys(resumed.files).length, 'after indexAll every entry matches its file');

    const cleanDir = path.join(work, 'clean');
    const clean = await Engine.open({ root, indexDir: cleanDir, dense });
    const cleanStats = await clean.indexAll();
    await clean.close();
    assert.strictEqual(stats.files, cleanStats.files);
    assert.strictEqual(stats.chunks, cleanStats.chunks);
    assert.deepStrictEqual(layout(resumed), layout(readChunks(cleanDir)));
    // Rankings are compared only without edits: an incremental update after edits and deletes does
    // not re-enrich the callers of changed files, so its BM25 scores drift from a clean build's even
    // without any crash (reported to the engine's owner; see the report of this test's commit).
    if (!edits) assert.deepStrictEqual(await retrievalFingerprint(root, indexDir, dense), await retrievalFingerprint(root, cleanDir, dense));
    return summary;
  }

  it('lexical-only index, workspace edited between runs: 20 random kills, then every file is indexed once with a clean build\'s chunks', async () => {
    const summary = await killThenVerify(false, 300, 20, 101, true);
    console.log(`      kills ${summary.kills}, finished ${summary.finished}, after a kill: ${JSON.stringify(summary.outcomes)}`);
  });

  it('dense index: 6 random kills, then it equals a clean build, rankings included', async () => {
    const summary = await killThenVerify(true, 200, 6, 202, false);
    console.log(`      kills ${summary.kills}, finished ${summary.finished}, after a kill: ${JSON.stringify(summary.outcomes)}`);
  });

  it('killed during single-file saves and the background merges they start: every kill leaves a loadable, consistent index', async () => {
    const root = path.join(work, 'repo');
    generateRepo(root, { files: 120, seed: 404 });
    const indexDir = path.join(work, 'index');
    const files = fs.readdirSync(path.join(root, 'src'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith('.ts'))
      .map((e) => path.relative(root, path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name)));
    // A low merge minimum: nearly every save starts a background merge (slices yield every 20 ms).
    const script = (seed: number) => `
      const fs = require('fs'), path = require('path');
      const { Engine } = require(${JSON.stringify(ENGINE_MODULE)});
      (async () => {
        const engine = await Engine.open({ root: ${JSON.stringify(root)}, indexDir: ${JSON.stringify(indexDir)}, dense: false }, { seams: { lexicalMergeMinDocs: 6 } });
        await engine.indexAll();
        const files = ${JSON.stringify(files)};
        let s = ${seed};
        const r = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296);
        for (let i = 0; i < 400; i++) {
          const rel = files[Math.floor(r() * files.length)];
          fs.appendFileSync(path.join(${JSON.stringify(root)}, rel), '\\nexport function merged' + ${seed} + '_' + i + '(x: number): number { return x + ' + i + '; }\\n');
          await engine.updateFile(rel);
          await engine.flush();
          await new Promise((res) => setTimeout(res, 2));
        }
        process.stdout.write('done');
      })().catch((e) => { console.error(e); process.exit(3); });`;
    const r = prng(405);
    let kills = 0, loaded = 0;
    const lexicalBases = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const child = spawn(process.execPath, ['-e', script(i + 1)], { stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d));
      // Past the cold build (the first run) or the load, into the saves and merges.
      const delay = (i === 0 ? 2500 : 600) + r() * 1500;
      const timer = setTimeout(() => child.kill('SIGKILL'), delay);
      const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, sig) => resolve(sig)));
      clearTimeout(timer);
      if (signal !== 'SIGKILL') assert.fail(`the child finished before its kill at ${Math.round(delay)} ms: ${err}`);
      kills++;
      const logs: string[] = [];
      const engine = await Engine.open({ root, indexDir, dense: false, log: (l) => logs.push(l) });
      await engine.close();
      const rebuilt = logs.find((l) => /cannot be used/.test(l));
      assert.ok(!rebuilt, `a kill during saves and merges lost the index: ${rebuilt}`);
      if (logs.some((l) => /^index loaded/.test(l))) {
        loaded++;
        checkConsistent(root, readChunks(indexDir));
        lexicalBases.add(committedFiles(indexDir).bases.lexical);
      }
    }
    assert.strictEqual(kills, 8);
    assert.strictEqual(loaded, kills, 'every kill left an index that loads');
    assert.ok(lexicalBases.size >= 3, `merges were committed between kills: ${[...lexicalBases].join(' ')}`);
    // The workspace's final state, indexed from there, equals a clean build of it.
    const engine = await Engine.open({ root, indexDir, dense: false });
    await engine.indexAll();
    await engine.close();
    const cleanDir = path.join(work, 'clean');
    const clean = await Engine.open({ root, indexDir: cleanDir, dense: false });
    await clean.indexAll();
    await clean.close();
    assert.deepStrictEqual(layout(readChunks(indexDir)), layout(readChunks(cleanDir)));
    console.log(`      kills ${kills}, loaded ${loaded}, lexical bases seen after kills: ${[...lexicalBases].join(' ')}`);
  });

  it('after a kill late in a cold build, the next run resumes from the last checkpoint', async () => {
    const root = path.join(work, 'repo');
    generateRepo(root, { files: 300, seed: 303 });
    const indexDir = path.join(work, 'index');
    // Checkpoints every 50 ms (30 s in the product) so that a short test build has several; the
    // child is killed as soon as the first one is on disk.
    const full = await runChild(root, path.join(work, 'timing'), false, undefined, 50);
    const killed = await runChild(root, indexDir, false, 'first-checkpoint', 50);
    assert.ok(killed.killed, 'the build was killed after its first checkpoint, before it finished');
    const next = await runChild(root, indexDir, false, undefined, 50);
    console.log(`      cold run ${full.ms} ms; after a kill at the first checkpoint: ${next.stats!.changedFiles} of ${next.stats!.files} files re-parsed`);
    assert.strictEqual(next.stats!.files, full.stats!.files);
    assert.ok(next.stats!.changedFiles < next.stats!.files, 'files saved at a checkpoint were not parsed again');
  });
});
