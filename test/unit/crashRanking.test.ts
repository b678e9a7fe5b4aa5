// Crash safety of every signal: an engine process updating files one by one while they are edited
// is killed with SIGKILL (a kill mid-write leaves the file it was writing empty or cut short); the
// next engine catches up with the workspace, and every signal's own list — dense included — must
// rank as a clean build of the same tree does, under the rule of sameRanking (chunk ids differ
// between the two). The vectors themselves must be a clean build's, up to batch numerics. A
// vectors folder that is not the manifest's would keep stale dense ranks through every later
// catch-up; a callee emptied by a kill, callers enriched with its old signatures (both fixed).
// When a round differs, the index statistics of both sides are printed.
import * as assert from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { Engine } from '../../engine/src/engine';
import { Bm25Index } from '../../engine/src/lexical/bm25';
import { SIGNALS } from '../../engine/src/retrieve/registry';
import { DEFAULT_WEIGHTS } from '../../engine/src/retrieve/weights';
import type { EditorState } from '../../engine/src/types';
import { prng } from '../bench/scale/generate';
import { sha1 } from '../../engine/src/index/indexStore';
import { lexicalTerms } from '../../engine/src/lexical/tokenize';
import type { WorkspaceIndex } from '../../engine/src/indexer/workspaceIndex';
import { tempDir } from './tempDir';

const ENGINE_MODULE = path.resolve(__dirname, '../../engine/src/engine.js');
/** Every optional field filled, so that every signal has something to rank. */
const TUNING = { retrieval: { allFields: true } };

/**
 * Rewrites one comment line inside a file (same line count, signatures untouched: the callers'
 * enrichment stays valid, so an incremental update can equal a clean build). Also run in the child.
 */
function editComment(abs: string, r: () => number, tag: string): boolean {
  const lines = fs.readFileSync(abs, 'utf8').split('\n');
  const comments = lines.map((l, i) => (/^\s+(#|\/\/) /.test(l) ? i : -1)).filter((i) => i >= 0);
  if (!comments.length) return false;
  const at = comments[Math.floor(r() * comments.length)];
  const words = ['quarantine', 'telescope', 'watermark', 'harvest', 'lantern', 'mosaic', 'orchard', 'glacier'];
  const lead = /^(\s+(?:#|\/\/) )/.exec(lines[at])![1];
  lines[at] = `${lead}revised ${tag}: ${words[Math.floor(r() * words.length)]} ${words[Math.floor(r() * words.length)]} checkpoint`;
  fs.writeFileSync(abs, lines.join('\n'));
  return true;
}

/** The child: catches up, says so, then edits files and updates them one by one, saving now and then, until killed. */
function childScript(root: string, indexDir: string, files: string[], seed: number): string {
  return `
    const fs = require('fs'), path = require('path');
    const { Engine } = require(${JSON.stringify(ENGINE_MODULE)});
    const prng = ${prng.toString()};
    const editComment = ${editComment.toString()};
    (async () => {
      const engine = await Engine.open({ root: ${JSON.stringify(root)}, indexDir: ${JSON.stringify(indexDir)} }, ${JSON.stringify(TUNING)});
      await engine.indexAll();
      process.stdout.write('ready\\n');
      const files = ${JSON.stringify(files)};
      const r = prng(${seed});
      for (let i = 0; i < 100000; i++) {
        const rel = files[Math.floor(r() * files.length)];
        if (!editComment(path.join(${JSON.stringify(root)}, rel), r, 's${seed}e' + i)) continue;
        // Some edits reach the engine at once, some only on disk (a later scan finds them).
        if (r() < 0.8) await engine.updateFile(rel);
        if (r() < 0.3) await engine.flush();
      }
    })().catch((e) => { console.error(e); process.exit(3); });`;
}

/** Runs the child and kills it `killAfterMs` after it caught up. */
async function runAndKill(root: string, indexDir: string, files: string[], seed: number, killAfterMs: number): Promise<void> {
  const child = spawn(process.execPath, ['-e', childScript(root, indexDir, files, seed)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d));
  let timer: NodeJS.Timeout | undefined;
  child.stdout.on('data', (d: Buffer) => {
    if (!timer && d.toString().includes('ready')) timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  });
  const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, sig) => resolve(sig)));
  if (timer) clearTimeout(timer);
  if (signal !== 'SIGKILL') assert.fail(`the editing child ended by itself: ${err}`);
}

/**
 * A workspace whose every function name is unique: a chunk's enrichment (its callees' signatures)
 * then does not depend on the order definitions were indexed in, which an incremental update
 * changes (the scale generator's repeated names make a clean build differ from an updated index
 * even without a crash).
 */
function writeRepo(root: string, files: number): string[] {
  const verbs = ['merge', 'validate', 'compute', 'refresh', 'encode', 'prune', 'schedule', 'resolve'];
  const nouns = ['ledger', 'session', 'invoice', 'region', 'snapshot', 'token', 'cart', 'policy', 'batch', 'cache', 'order', 'tenant'];
  const name = (f: number, j: number) => `${verbs[(f + j) % verbs.length]}_${nouns[(f * 3 + j) % nouns.length]}_${f}_${j}`;
  // Comment words vary per function, so that few chunks tie in any signal (ties go to the lower id, which differs between builds).
  const r = prng(files);
  const extra = ['amber', 'beacon', 'cobalt', 'dune', 'ember', 'fjord', 'garnet', 'heron', 'iris', 'jasper', 'kelp', 'lichen', 'maple', 'nectar', 'onyx', 'pebble', 'quartz', 'raven', 'sable', 'thistle', 'umber', 'violet', 'willow', 'yarrow', 'zinnia'];
  const words = (n: number) => Array.from({ length: n }, () => extra[Math.floor(r() * extra.length)]).join(' ');
  const rels: string[] = [];
  for (let f = 0; f < files; f++) {
    const py = f % 2 === 0;
    const rel = `${py ? 'py' : 'ts'}/${nouns[f % nouns.length]}/mod${f}.${py ? 'py' : 'ts'}`;
    const fns = [0, 1, 2, 3].map((j) => {
      const callee = name((f + 1 + j) % files, (j + 1) % 4);
      const [a, b] = [nouns[(f + j) % nouns.length], nouns[(f + 2 * j + 1) % nouns.length]];
      return py
        ? `def ${name(f, j)}(${a}_list):\n    # Keeps the ${a} entries of each ${b}, ${words(3)} first.\n    total = ${callee}(${a}_list)\n    # Drops a ${b} that has no ${a} ${words(2)} left.\n    return total + ${f * 10 + j}\n`
        : `export function ${name(f, j)}(${a}List: number): number {\n  // Keeps the ${a} entries of each ${b}, ${words(3)} first.\n  const total = ${callee}(${a}List);\n  // Drops a ${b} that has no ${a} ${words(2)} left.\n  return total + ${f * 10 + j};\n}\n`;
    });
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), fns.join('\n'));
    rels.push(rel);
  }
  return rels;
}

/** Queries as the editor and a free-text search ask them. */
function queries(root: string, files: string[]): Array<{ q: EditorState | string; hypothetical?: string }> {
  const file = files[0];
  const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n').slice(0, 14);
  const editor: EditorState = { file, prefix: lines.join('\n') + '\n', line: lines.length, recentFiles: files.slice(1, 4) };
  return [
    { q: 'revised checkpoint telescope harvest' },
    { q: 'merge the ledger entries of each region' },
    { q: 'validate session token cache' },
    { q: editor, hypothetical: '    total = merge_ledger_0_0(ledger_list)\n    return total' },
  ];
}

/**
 * Each signal's own list from the last search in this process, captured around the signals'
 * `rank`, with the scores behind it: the list's own, or those of the BM25 searches it ran (the
 * lexical fields' signals return ids only).
 */
/** Signals whose order is not that of the scores seen: orders of definitions or of another list, RRFs of two lists. */
const RANK_ONLY = new Set(['symbol', 'next', 'intent', 'hyde']);
const lastLists = new Map<string, Array<{ key: string; score?: number }>>();
let lexicalScores: Map<number, number> | undefined;
const search = Bm25Index.prototype.search;
Bm25Index.prototype.search = function (this: Bm25Index, ...args: Parameters<typeof search>) {
  const found = search.apply(this, args);
  for (const x of found) lexicalScores?.set(x.id, Math.max(x.score, lexicalScores.get(x.id) ?? -Infinity));
  return found;
};
for (const s of SIGNALS) {
  const rank = s.rank.bind(s);
  (s as { rank: typeof s.rank }).rank = (ctx) => {
    lexicalScores = new Map();
    const list = rank(ctx);
    const scores = RANK_ONLY.has(s.name) ? undefined : list?.scores ?? (list && list.ids.every((id) => lexicalScores!.has(id)) ? lexicalScores : undefined);
    if (list) lastLists.set(s.name, list.ids.map((id) => { const d = ctx.index.docs.get(id)!; return { key: `${d.file}:${d.startLine}-${d.endLine}`, score: scores?.get(id) }; }));
    lexicalScores = undefined;
    return list;
  };
}

/** A ranked list as file ranges; `score` absent for a signal that returns ranks only. */
type Entry = { key: string; score?: number };

/**
 * How two rankings of the same tree are compared when chunk ids differ (an updated index numbers
 * chunks otherwise than a clean build, and every list breaks equal scores by the lower id):
 * - a scored list is cut into tie groups (consecutive entries of equal score); both lists must
 *   have the same groups in the same order, each with the same score and the same members as a
 *   set. The last group is compared by score and size only: which of its tied members made the
 *   list's cut is the id tie-break itself.
 * - dense scores come from embeddings computed in batches, and ONNX Runtime's results depend on a
 *   text's batch mates (measured: up to 1.6e-7 per component alone against in a batch, 4.5e-8
 *   even with no padding). After int8 quantization (vector/int8Kernel.ts) the scale differs in
 *   the 7th digit and, when a component sits at a rounding boundary, that component by one step
 *   of ~0.0014-0.0018, which moves a cosine by that times the query's component (seen: up to
 *   2.1e-4; bounded by the step itself, the query being of unit length). Hence DENSE_TOLERANCE,
 *   and the vectors themselves are checked apart (vectorDiffs: within one step of a clean build's).
 *   So the dense list is compared chunk by chunk: each chunk's score within DENSE_TOLERANCE of
 *   the clean build's, the same members except within 2 * DENSE_TOLERANCE of the cut (both lists
 *   being ordered by score, the order then agrees but for entries that close).
 *   A stale vector (another text's) differs in most components by up to ~28 steps.
 * - a list of ranks only (symbol: definers in the order of the query's identifiers) is compared as
 *   a set of members.
 * - five results depend on chunk ids beyond the order inside tie groups, and are not compared:
 *   `expand` searches with the lines that follow the best `recent` hit, so when that hit is tied
 *   the id tie-break picks the query (it is compared when the best `recent` score is alone);
 *   `next` takes the successors of the first 20 `recent` hits, so which of a tie group straddling
 *   that cut are taken is the id tie-break; `intent` and `hyde` are RRFs of two lists (BM25 and
 *   BM25, BM25 and dense) cut at the depth, and a chunk's rank inside a tie group of either list is
 *   its id's, so its RRF score and whether it makes the cut move with ids; the fused ranking sums weight / (60 + rank) over the
 *   signals, and a chunk's rank inside a tie group is its id's, so its fused score (and so its
 *   place) moves with ids. Their inputs are compared above.
 */
function sameRanking(got: Entry[], expected: Entry[], tolerance: number): string | undefined {
  if (got.length !== expected.length) return `${got.length} entries, a clean build ${expected.length}`;
  if (expected.some((e) => e.score === undefined) || got.some((e) => e.score === undefined)) {
    const a = got.map((e) => e.key).sort(), b = expected.map((e) => e.key).sort();
    return JSON.stringify(a) === JSON.stringify(b) ? undefined : `members ${JSON.stringify(a.filter((k) => !b.includes(k)))} instead of ${JSON.stringify(b.filter((k) => !a.includes(k)))}`;
  }
  if (tolerance > 0) {
    const cut = Math.min(got[got.length - 1]?.score ?? Infinity, expected[expected.length - 1]?.score ?? Infinity);
    const nearCut = (e: Entry) => e.score! <= cut + 2 * tolerance;
    for (const e of expected) {
      const g = got.find((x) => x.key === e.key);
      if (!g && !nearCut(e)) return `${e.key} (${e.score}) missing`;
      if (g && Math.abs(g.score! - e.score!) > tolerance) return `${e.key} scores ${g.score} vs ${e.score}`;
    }
    const extra = got.find((g) => !expected.some((e) => e.key === g.key) && !nearCut(g));
    if (extra) return `${extra.key} (${extra.score}) not in a clean build's list`;
    if (got.some((g, i) => i > 0 && g.score! > got[i - 1].score!)) return 'not ordered by score';
    return undefined;
  }
  const groups = (list: Entry[]) => {
    const out: Entry[][] = [];
    for (const e of list) {
      const last = out[out.length - 1];
      if (last && last[0].score === e.score) last.push(e);
      else out.push([e]);
    }
    return out;
  };
  const a = groups(got), b = groups(expected);
  if (a.length !== b.length) return `${a.length} tie groups, a clean build ${b.length}: ${JSON.stringify(got)} vs ${JSON.stringify(expected)}`;
  for (let g = 0; g < a.length; g++) {
    const where = `tie group ${g} (of ${a.length})`;
    if (a[g].length !== b[g].length) return `${where}: ${JSON.stringify(a[g])} vs ${JSON.stringify(b[g])}`;
    const score = (x: Entry[]) => x[0].score!;
    if (score(a[g]) !== score(b[g])) return `${where}: score ${score(a[g])} vs ${score(b[g])} (${a[g].map((e) => e.key)} vs ${b[g].map((e) => e.key)})`;
    if (g === a.length - 1) break;
    const ka = a[g].map((e) => e.key).sort(), kb = b[g].map((e) => e.key).sort();
    if (JSON.stringify(ka) !== JSON.stringify(kb)) return `${where}, score ${score(b[g])}: ${JSON.stringify(ka)} vs ${JSON.stringify(kb)}`;
  }
  return undefined;
}

/** See sameRanking: dense scores agree to this, every other score exactly. */
const DENSE_TOLERANCE = 2e-3;
/** Results that depend on chunk ids (see sameRanking): not compared. */
const ID_DEPENDENT = / (next|intent|hyde|fused)$/;

/** What an index holds, to show why two rankings differ: stale files, and per field the BM25 statistics and the df of query words. */
function statistics(engine: Engine, root: string, words: string[]): Record<string, unknown> {
  const ws = (engine as unknown as { ws: WorkspaceIndex }).ws;
  const stale = ws.tables.files.relPaths().filter((rel) => ws.tables.files.get(rel)!.hash !== sha1(fs.readFileSync(path.join(root, rel), 'utf8')));
  const fields = Object.fromEntries(ws.index.lexicalFields.map((f, i) => {
    const raw = f as unknown as { liveDocs: number; totalLen: number };
    return [i, { live: raw.liveDocs, totalLen: raw.totalLen, idf: words.map((w) => `${w}=${f.idf(w).toFixed(5)}`).join(' ') }];
  }));
  const defs = ws.tables.files.relPaths().filter((rel) => ws.tables.defs.ofFile(rel).length !== 4).map((rel) => `${rel}: ${ws.tables.defs.ofFile(rel).length} definitions, ${fs.statSync(path.join(root, rel)).size} bytes`);
  return { files: ws.tables.files.count, defs, chunks: ws.tables.chunks.size, vectors: ws.index.vectors?.size, stale, fields };
}

/** Each chunk's int8 vector record (scale and components) by file range, while the index is flat. */
function vectorRecords(engine: Engine): Map<string, Buffer> {
  const ws = (engine as unknown as { ws: WorkspaceIndex }).ws;
  const pending = (ws.index.vectors as unknown as { pending: { ids(): number[]; records: Buffer; slotOf: Map<number, number> } } | undefined)?.pending;
  const out = new Map<string, Buffer>();
  const stride = 8 + (ws.index.vectors?.dim ?? 0);
  for (const id of pending?.ids() ?? []) {
    const d = ws.index.docs.get(id)!;
    const at = pending!.slotOf.get(id)! * stride;
    out.set(`${d.file}:${d.startLine}-${d.endLine}`, pending!.records.subarray(at + 4, at + stride));
  }
  return out;
}

/**
 * Chunks whose vectors are not the clean build's: missing, or further apart than batch numerics
 * take them (see sameRanking: the int8 scale within 1e-5 relative, each component within one step).
 * A stale vector — another text's — differs in most components, by many steps.
 */
function vectorDiffs(got: Map<string, Buffer>, clean: Map<string, Buffer>): { stale: string[]; flipped: number } {
  const stale: string[] = [];
  let flipped = 0;
  if (got.size !== clean.size) stale.push(`${got.size} vectors, a clean build ${clean.size}`);
  for (const [key, y] of clean) {
    const x = got.get(key);
    if (!x) { stale.push(`${key}: no vector`); continue; }
    const [sx, sy] = [x.readFloatLE(0), y.readFloatLE(0)];
    let n = 0, steps = 0;
    for (let i = 4; i < x.length; i++) if (x[i] !== y[i]) { n++; steps = Math.max(steps, Math.abs(((x[i] << 24) >> 24) - ((y[i] << 24) >> 24))); }
    if (n) flipped++;
    if (Math.abs(sx - sy) > 1e-5 * sy || steps > 1) stale.push(`${key}: scale ${sx} / ${sy}, ${n} components differ, by ${steps} steps at most`);
  }
  return { stale, flipped };
}

/** Every signal's own list (dense included) and the fused ranking, as file ranges and scores. */
async function rankings(engine: Engine, asked: ReturnType<typeof queries>): Promise<Record<string, Entry[]>> {
  const every = Object.fromEntries(SIGNALS.map((s) => [s.name, 1]));
  const out: Record<string, Entry[]> = {};
  for (const [i, { q, hypothetical }] of asked.entries()) {
    lastLists.clear();
    const hits = await engine.retrieve(q, { k: 12, hypothetical: hypothetical ? { text: hypothetical, weight: 1 } : undefined }, { ...DEFAULT_WEIGHTS, ...every });
    for (const s of SIGNALS) out[`q${i} ${s.name}`] = lastLists.get(s.name) ?? [];
    out[`q${i} fused`] = hits.map((h) => ({ key: `${h.file}:${h.startLine}-${h.endLine}`, score: h.score }));
  }
  return out;
}

describe('crash safety of every signal (SIGKILL during incremental updates while files are edited)', function () {
  this.timeout(300_000);
  let work: string;
  beforeEach(() => (work = tempDir('rr-crash-rank-')));
  afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

  it('10 kills, each followed by a catch-up whose every signal (dense included) ranks as a clean build of the tree does', async () => {
    const root = path.join(work, 'repo');
    const files = writeRepo(root, 48);
    const asked = queries(root, files);
    const indexDir = path.join(work, 'index');
    const r = prng(506);
    const rebuilt: string[] = [];
    let denseCompared = 0;
    let denseDelta = 0;
    let flippedVectors = 0;
    for (let round = 0; round < 10; round++) {
      await runAndKill(root, indexDir, files, round + 1, 150 + Math.round(r() * 1200));
      const logs: string[] = [];
      const catchUp = await Engine.open({ root, indexDir, log: (l) => logs.push(l) }, TUNING);
      await catchUp.indexAll();
      await catchUp.close();
      rebuilt.push(...logs.filter((l) => /cannot be used/.test(l)));
      // What the index on disk answers after the catch-up, against a clean build of the same tree.
      const reopened = await Engine.open({ root, indexDir }, TUNING);
      const got = await rankings(reopened, asked);
      const words = [...new Set(asked.flatMap(({ q }) => lexicalTerms(typeof q === 'string' ? q : q.prefix.split('\n').slice(-3).join('\n'))))];
      const gotStats = statistics(reopened, root, words);
      const gotVectors = vectorRecords(reopened);
      await reopened.close();
      const cleanDir = path.join(work, `clean-${round}`);
      const clean = await Engine.open({ root, indexDir: cleanDir }, TUNING);
      await clean.indexAll();
      const expected = await rankings(clean, asked);
      const cleanStats = statistics(clean, root, words);
      const vectors = vectorDiffs(gotVectors, vectorRecords(clean));
      await clean.close();
      fs.rmSync(cleanDir, { recursive: true, force: true });
      const recentTied = (key: string) => {
        const recent = expected[key.replace(/ expand$/, ' recent')];
        return recent.length > 1 && recent[0].score === recent[1].score;
      };
      const differ = Object.keys(expected).filter((key) => !ID_DEPENDENT.test(key) && !(/ expand$/.test(key) && recentTied(key))).flatMap((key) => {
        const why = sameRanking(got[key], expected[key], / dense$/.test(key) ? DENSE_TOLERANCE : 0);
        return why ? [`${key}: ${why}`] : [];
      });
      for (const [key, list] of Object.entries(expected)) if (/ dense$/.test(key)) for (const e of list) {
        const other = got[key].find((x) => x.key === e.key);
        if (other) denseDelta = Math.max(denseDelta, Math.abs(other.score! - e.score!));
      }
      flippedVectors += vectors.flipped;
      if (vectors.stale.length) differ.push(`vectors not the clean build's: ${vectors.stale.join('; ')}`);
      if (differ.length) console.log(JSON.stringify({ round, caughtUp: gotStats, clean: cleanStats, vectors, logs }, null, 1));
      assert.deepStrictEqual(differ, [], `round ${round}: rankings differ from a clean build`);
      denseCompared += Object.entries(expected).filter(([k, v]) => / dense$/.test(k) && v.length > 0).length;
    }
    assert.ok(denseCompared >= 10 * 4, `the dense signal answered every query (${denseCompared})`);
    for (const m of rebuilt) assert.match(m, /cannot be used \(.+\); rebuilding it/);
    console.log(`      largest dense score difference: ${denseDelta}; vectors one int8 step off a clean build's: ${flippedVectors}`);
    console.log(`      10 kills; rebuilt after ${rebuilt.length}: ${rebuilt.join(' | ')}`);
  });
});
