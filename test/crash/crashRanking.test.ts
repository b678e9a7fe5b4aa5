// NOT in the unit suite yet (test/crash/, run it with `npx mocha out/test/crash/crashRanking.test.js`):
// on this branch 1 run in 2 or so still ends a round with the same files, hashes and chunk count as
// a clean build but other bm25/recent/dense scores; not yet diagnosed (see the branch's report).
// Crash safety of every signal: an engine process updating files one by one while they are edited
// is killed with SIGKILL; the next engine catches up with the workspace, and its rankings — the
// fused one and each signal's own list, dense included — must equal a clean build's of the same
// tree. A vectors folder that is not the manifest's (older vectors committed separately from the
// tables) would keep stale dense ranks through every later catch-up.
import * as assert from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Engine } from '../../engine/src/engine';
import { Bm25Index } from '../../engine/src/lexical/bm25';
import { SIGNALS } from '../../engine/src/retrieve/registry';
import { DEFAULT_WEIGHTS } from '../../engine/src/retrieve/weights';
import type { EditorState } from '../../engine/src/types';
import { prng } from '../bench/scale/generate';

const ENGINE_MODULE = path.resolve(__dirname, '../../engine/src/engine.js');
/** Every optional field filled, so that every signal has something to rank. */
const TUNING = { allFields: true };

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
    const scores = list?.scores ?? (list && list.ids.every((id) => lexicalScores!.has(id)) ? lexicalScores : undefined);
    if (list) lastLists.set(s.name, list.ids.map((id) => { const d = ctx.index.docs.get(id)!; return { key: `${d.file}:${d.startLine}-${d.endLine}`, score: scores?.get(id) }; }));
    lexicalScores = undefined;
    return list;
  };
}

/**
 * A list made comparable across indexes whose chunk ids differ: by score, equal scores by
 * location (ties go to the lower id, which a clean build numbers differently), the entries tied
 * with the last one dropped (which of them made the cut is the same id tie-break). A list without
 * scores (the ranks come from elsewhere) compares as a set.
 */
function comparable(list: Array<{ key: string; score?: number }>): string[] {
  if (list.some((e) => e.score === undefined)) return list.map((e) => e.key).sort();
  const sorted = list.map((e) => ({ key: e.key, score: Number(e.score!.toFixed(5)) })).sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : 1));
  const last = sorted[sorted.length - 1]?.score;
  return sorted.filter((e) => e.score !== last || sorted.every((x) => x.score === last)).map((e) => `${e.key} ${e.score}`);
}

const SCORED = new Set(['bm25', 'recent', 'dense', 'docField', 'normalized']);

/** Every scored signal's own list (dense included), as file ranges and scores. */
async function rankings(engine: Engine, asked: ReturnType<typeof queries>): Promise<Record<string, string[]>> {
  const every = Object.fromEntries(SIGNALS.map((s) => [s.name, 1]));
  const out: Record<string, string[]> = {};
  for (const [i, { q, hypothetical }] of asked.entries()) {
    lastLists.clear();
    lastLists.clear();
    await engine.retrieve(q, { k: 12, hypothetical: hypothetical ? { text: hypothetical, weight: 1 } : undefined }, { ...DEFAULT_WEIGHTS, ...every });
    // Every signal that ranks by a score (bm25, recent, dense, the lexical fields). The others
    // (symbol, intent, next, expand, hyde: orders, feedback and fusions of lists whose ties go to
    // the lower id) and so the fused ranking differ between any two builds that number chunks
    // differently, crash or not; what they rank from is what the scored lists check.
    for (const s of SIGNALS) {
      const list = lastLists.get(s.name) ?? [];
      if (SCORED.has(s.name)) out[`q${i} ${s.name}`] = comparable(list);
    }
  }
  return out;
}

describe('crash safety of every signal (SIGKILL during incremental updates while files are edited)', function () {
  this.timeout(300_000);
  let work: string;
  beforeEach(() => (work = fs.mkdtempSync(path.join(os.tmpdir(), 'rr-crash-rank-'))));
  afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

  it('10 kills, each followed by a catch-up whose every scored signal (dense included) ranks as a clean build of the tree does', async () => {
    const root = path.join(work, 'repo');
    const files = writeRepo(root, 48);
    const asked = queries(root, files);
    const indexDir = path.join(work, 'index');
    const r = prng(506);
    const rebuilt: string[] = [];
    let denseCompared = 0;
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
      await reopened.close();
      const cleanDir = path.join(work, `clean-${round}`);
      const clean = await Engine.open({ root, indexDir: cleanDir }, TUNING);
      await clean.indexAll();
      const expected = await rankings(clean, asked);
      await clean.close();
      fs.rmSync(cleanDir, { recursive: true, force: true });
      const differ = Object.keys(expected).filter((key) => JSON.stringify(got[key]) !== JSON.stringify(expected[key]));
      assert.deepStrictEqual(Object.fromEntries(differ.map((k) => [k, got[k]])), Object.fromEntries(differ.map((k) => [k, expected[k]])), `round ${round}: ${differ.join(', ')} differ from a clean build`);
      denseCompared += Object.entries(expected).filter(([k, v]) => / dense$/.test(k) && v.length > 0).length;
    }
    assert.ok(denseCompared >= 10 * 4, `the dense signal answered every query (${denseCompared})`);
    for (const m of rebuilt) assert.match(m, /cannot be used \(.+\); rebuilding it/);
    console.log(`      10 kills; rebuilt after ${rebuilt.length}: ${rebuilt.join(' | ')}`);
  });
});
