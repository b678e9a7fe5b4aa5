// Protocol A of /work/shared/bench/README.md (cursor-aligned 20-line fragments, query = prefix_lines,
// exclusion of task-file fragments overlapping the query window, MRR@10), for BM25, for dense models
// (any dir with model.onnx or onnx/model.onnx + tokenizer.json) and for BM25 + dense score fusion.
// Usage: node training/evaluate-protocol-a.mjs [--bench DIR] [--limit N] [--query-tokens 256]
//          [--doc-tokens 256] [--fusion 0.3,0.5] [--json OUT] NAME=MODEL_DIR ...
// A model with a `query_embedding` output is evaluated twice: NAME (sentence_embedding on both sides)
// and NAME+qhead (query_embedding for the query). Queries keep their LAST query-tokens tokens,
// fragments their FIRST doc-tokens tokens, for every model alike.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import ort from './ort.mjs';

const require = createRequire(path.join(process.cwd(), 'package.json'));
const { Tokenizer } = require('@huggingface/tokenizers');

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); if (i < 0) return dflt; const v = args[i + 1]; args.splice(i, 2); return v; };
const benchDir = opt('--bench', '/work/shared/bench');
const limit = Number(opt('--limit', '0'));
const queryTokens = Number(opt('--query-tokens', '256'));
const docTokens = Number(opt('--doc-tokens', '256'));
const fusionWeights = opt('--fusion', '0.35,0.5,0.65,0.8').split(',').map(Number);
const jsonOut = opt('--json', '');
const models = args.map((a) => { const [name, dir] = a.split('='); return { name, dir }; });
const FRAG = 20;

// ---------- data ----------
function splitLines(content) {
  const lines = content.split('\n');
  if (content.endsWith('\n')) lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}
function walk(dir, rel = '') {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...walk(path.join(dir, e.name), r)); else out.push(r);
  }
  return out;
}
let tasks = fs.readFileSync(path.join(benchDir, 'tasks.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
if (limit) { // a deterministic, repository-balanced subset
  const byRepo = new Map();
  for (const t of tasks) { if (!byRepo.has(t.repo)) byRepo.set(t.repo, []); byRepo.get(t.repo).push(t); }
  const per = Math.ceil(limit / byRepo.size);
  tasks = [...byRepo.values()].flatMap((ts) => ts.filter((_, i) => i % Math.max(1, Math.floor(ts.length / per)) === 0).slice(0, per));
}

// ---------- BM25 (Okapi k1=1.2 b=0.75, identifier/number tokens lower-cased, IDF over file-aligned fragments) ----------
const termsOf = (text) => (text.match(/[A-Za-z_][A-Za-z0-9_]*|[0-9]+/g) || []).map((t) => t.toLowerCase());
function tf(terms) { const m = new Map(); for (const t of terms) m.set(t, (m.get(t) || 0) + 1); return m; }

// ---------- dense ----------
async function loadModel({ name, dir }) {
  const onnxPath = fs.existsSync(path.join(dir, 'model.onnx')) ? path.join(dir, 'model.onnx') : path.join(dir, 'onnx', 'model.onnx');
  const so = { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' };
  const session = await ort.InferenceSession.create(onnxPath, so);
  const tokJson = JSON.parse(fs.readFileSync(path.join(dir, 'tokenizer.json'), 'utf8'));
  const cfgPath = path.join(dir, 'tokenizer_config.json');
  const tokenizer = new Tokenizer(tokJson, fs.existsSync(cfgPath) ? JSON.parse(fs.readFileSync(cfgPath, 'utf8')) : {});
  return { name, session, tokenizer, hasQuery: session.outputNames.includes('query_embedding'), cache: new Map() };
}
async function embedBatch(model, texts, { query }) {
  const enc = texts.map((t) => {
    let ids = model.tokenizer.encode(t, { add_special_tokens: false }).ids;
    if (query && ids.length > queryTokens) ids = ids.slice(ids.length - queryTokens);
    if (!query && ids.length > docTokens) ids = ids.slice(0, docTokens);
    return ids.length ? ids : [0];
  });
  const L = Math.max(...enc.map((e) => e.length));
  const ids = new BigInt64Array(enc.length * L), mask = new BigInt64Array(enc.length * L);
  enc.forEach((e, i) => e.forEach((v, j) => { ids[i * L + j] = BigInt(v); mask[i * L + j] = 1n; }));
  const out = await model.session.run({ input_ids: new ort.Tensor('int64', ids, [enc.length, L]), attention_mask: new ort.Tensor('int64', mask, [enc.length, L]) });
  const res = { doc: out.sentence_embedding };
  if (model.hasQuery) res.query = out.query_embedding;
  return res;
}
const rows = (t) => { const [n, d] = t.dims; return Array.from({ length: n }, (_, i) => t.data.subarray(i * d, (i + 1) * d)); };
async function embedDocs(model, texts) {
  const todo = [...new Set(texts.filter((t) => !model.cache.has(t)))].sort((a, b) => a.length - b.length);
  for (let i = 0; i < todo.length; i += 64) {
    const batch = todo.slice(i, i + 64);
    rows((await embedBatch(model, batch, { query: false })).doc).forEach((v, k) => model.cache.set(batch[k], Float32Array.from(v)));
  }
}
const dot = (a, b) => { let s = 0; for (let i = 0; i < a.length; i++) s += a[i] * b[i]; return s; };

// ---------- evaluation ----------
const loaded = [];
for (const m of models) loaded.push(await loadModel(m));
const systems = ['bm25'];
for (const m of loaded) {
  systems.push(m.name); if (m.hasQuery) systems.push(`${m.name}+qhead`);
}
const denseSystems = systems.slice(1);
for (const s of denseSystems) for (const w of fusionWeights) systems.push(`bm25+${s}@${w}`);
const ranks = Object.fromEntries(systems.map((s) => [s, []]));
const t0 = Date.now();

const byRepo = new Map();
for (const t of tasks) { if (!byRepo.has(t.repo)) byRepo.set(t.repo, []); byRepo.get(t.repo).push(t); }
for (const [repo, repoTasks] of byRepo) {
  const root = path.join(benchDir, 'repos', repo);
  const files = new Map(walk(root).map((f) => [f, splitLines(fs.readFileSync(path.join(root, f), 'utf8'))]));
  // grid fragments of every file (the corpus for non-task files; also the IDF statistics)
  const grid = [];
  for (const [file, lines] of files) for (let s = 0; s < lines.length; s += FRAG) {
    const e = Math.min(s + FRAG, lines.length) - 1;
    grid.push({ file, start: s, end: e, text: lines.slice(s, e + 1).join('\n') });
  }
  const df = new Map();
  let totalLen = 0;
  for (const g of grid) { g.terms = tf(termsOf(g.text)); g.len = [...g.terms.values()].reduce((a, b) => a + b, 0); totalLen += g.len; for (const t of g.terms.keys()) df.set(t, (df.get(t) || 0) + 1); }
  const N = grid.length, avgdl = totalLen / N;
  const idf = (t) => { const n = df.get(t) || 0; return Math.log(1 + (N - n + 0.5) / (n + 0.5)); };
  const bm25 = (qtf, frag) => { let s = 0; for (const [t, qc] of qtf) { const f = frag.terms.get(t); if (!f) continue; s += idf(t) * (f * 2.2) / (f + 1.2 * (0.25 + 0.75 * frag.len / avgdl)); } return s; };
  for (const m of loaded) await embedDocs(m, grid.map((g) => g.text));

  for (const task of repoTasks) {
    const lines = files.get(task.file);
    const L = task.cursor.line, n = lines.length, cs = task.context_start_line;
    const cands = grid.filter((g) => g.file !== task.file);
    for (let s = L - FRAG * Math.ceil(L / FRAG); s < n; s += FRAG) {
      const a = Math.max(0, s), e = Math.min(s + FRAG - 1, n - 1);
      if (e < a) continue;
      if (e <= L - 1 && e >= cs) continue; // overlaps the query window: excluded
      const text = lines.slice(a, e + 1).join('\n');
      const terms = tf(termsOf(text));
      cands.push({ file: task.file, start: a, end: e, text, terms, len: [...terms.values()].reduce((x, y) => x + y, 0), positive: a === L });
    }
    const query = task.prefix_lines.join('\n');
    const qtf = tf(termsOf(query));
    const scores = { bm25: cands.map((c) => bm25(qtf, c)) };
    for (const m of loaded) {
      await embedDocs(m, cands.map((c) => c.text));
      const qv = await embedBatch(m, [query], { query: true });
      const qd = rows(qv.doc)[0];
      scores[m.name] = cands.map((c) => dot(qd, m.cache.get(c.text)));
      if (m.hasQuery) { const qq = rows(qv.query)[0]; scores[`${m.name}+qhead`] = cands.map((c) => dot(qq, m.cache.get(c.text))); }
    }
    const norm = (arr) => { let lo = Infinity, hi = -Infinity; for (const v of arr) { if (v < lo) lo = v; if (v > hi) hi = v; } return arr.map((v) => (hi > lo ? (v - lo) / (hi - lo) : 0)); };
    const nb = norm(scores.bm25);
    for (const s of denseSystems) { const nd = norm(scores[s]); for (const w of fusionWeights) scores[`bm25+${s}@${w}`] = nb.map((v, i) => (1 - w) * v + w * nd[i]); }
    for (const s of systems) {
      const order = scores[s].map((v, i) => [v, i]).sort((x, y) => y[0] - x[0]).slice(0, 10);
      const r = order.findIndex(([, i]) => cands[i].positive);
      ranks[s].push({ repo, lang: task.language === 'python' ? 'python' : 'typescript', r: r < 0 ? Infinity : r + 1 });
    }
  }
  console.error(`${repo}: ${repoTasks.length} tasks, ${grid.length} grid fragments (${((Date.now() - t0) / 1000).toFixed(0)}s)`);
}

function metrics(list) {
  const m = { n: list.length };
  for (const k of [1, 3, 5, 10]) m[`R@${k}`] = list.filter((x) => x.r <= k).length / list.length;
  m['MRR@10'] = list.reduce((s, x) => s + (x.r <= 10 ? 1 / x.r : 0), 0) / list.length;
  return m;
}
const report = {};
for (const s of systems) {
  const list = ranks[s];
  report[s] = { all: metrics(list), python: metrics(list.filter((x) => x.lang === 'python')), typescript: metrics(list.filter((x) => x.lang === 'typescript')) };
  for (const repo of byRepo.keys()) report[s][repo] = metrics(list.filter((x) => x.repo === repo));
}
const f = (v) => v.toFixed(3);
console.log(`protocol A, ${tasks.length} tasks; query = prefix_lines (last ${queryTokens} tokens for dense), fragments first ${docTokens} tokens`);
console.log(['system'.padEnd(40), 'MRR@10', 'R@1', 'R@5', 'R@10', 'py MRR', 'ts MRR'].join('\t'));
for (const s of systems) { const r = report[s]; console.log([s.padEnd(40), f(r.all['MRR@10']), f(r.all['R@1']), f(r.all['R@5']), f(r.all['R@10']), f(r.python['MRR@10']), f(r.typescript['MRR@10'])].join('\t')); }
if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(report, null, 1));
