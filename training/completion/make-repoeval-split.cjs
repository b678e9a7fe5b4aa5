// Writes line-completion tasks over the held-out projects' repositories chosen with the DEV benchmark's
// own rules (../shared/bench/README.md, "Sources and how the tasks were chosen"), so that choices made on
// it transfer to DEV. make-validation-split.py's tasks differ: any line with a non-blank line before it,
// comments and repeated targets included (a closer `}` or `return x` there may occur dozens of times).
// The rules applied here, per repository:
//   candidates: code lines (not blank, not a comment: `#` in Python; `//` and `/* … */` blocks in
//   TypeScript), not line 0, previous line not blank, not in a `.d.ts` file;
//   TypeScript only: at least 5 p50k_base tokens, at least 8 characters, not only brackets/punctuation,
//   at most 300 characters (Python targets are RepoEval's, which had no such filter);
//   all candidates of the repository shuffled with seed `20250717-<repo>`; duplicate target strings skipped;
//   prefix = the last 1,000 p50k_base tokens before the line, rounded out to whole lines.
// And, for the Python repositories, API-level tasks like DEV's tasks_api.jsonl (RepoEval's API level: the
// statement that calls a function or class the repository defines in another file): candidates are code
// lines (not blank, not a comment, not line 0) calling such a name, the target runs to the statement's
// end (brackets balanced, at most 20 lines); shuffled with seed `20250717-api-<repo>`, unique targets.
// node training/completion/make-repoeval-split.cjs [--repos DIR] [--out DIR] [--tasks N]
//   defaults: --repos ~/.cache/reporecall-heldout/validation/repos (written by make-validation-split.py
//   --heldout, training/README.md "Validation split"), --out ~/.cache/reporecall-heldout/repoeval, --tasks 200.
const fs = require('fs'), os = require('os'), path = require('path');
const { getEncoding } = require('js-tiktoken');
const args = process.argv.slice(2);
const get = (n, d) => { const i = args.indexOf('--' + n); return i >= 0 ? args[i + 1] : d; };
const reposDir = path.resolve(get('repos', path.join(os.homedir(), '.cache/reporecall-heldout/validation/repos')));
const outDir = path.resolve(get('out', path.join(os.homedir(), '.cache/reporecall-heldout/repoeval')));
const perRepo = Number(get('tasks', 200));
const enc = getEncoding('p50k_base');
const LANG = { py: 'python', ts: 'typescript', tsx: 'typescriptreact', mts: 'typescript', cts: 'typescript' };

/** The benchmark's line-splitting rule. */
function splitLines(text) {
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/** Mulberry32: a small seeded generator (the shuffle must not depend on the platform). */
function rng(seedText) {
  let h = 1779033703 ^ seedText.length;
  for (let i = 0; i < seedText.length; i++) { h = Math.imul(h ^ seedText.charCodeAt(i), 3432918353); h = (h << 13) | (h >>> 19); }
  let a = h >>> 0;
  return () => { a = (a + 0x6d2b79f5) >>> 0; let t = a; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
}

function walk(dir, rel = '') {
  const out = [];
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const r = rel ? rel + '/' + e.name : e.name;
    if (e.isDirectory()) out.push(...walk(dir, r));
    else if (LANG[e.name.split('.').pop()]) out.push(r);
  }
  return out;
}

/** Indices of the lines that are comments (TypeScript: `//` lines and every line of a `/* … *\/` block that holds no code after it). */
function commentLines(lines, python) {
  const c = new Set();
  let inBlock = false;
  lines.forEach((l, i) => {
    const t = l.trim();
    if (python) { if (t.startsWith('#')) c.add(i); return; }
    if (inBlock) { c.add(i); if (t.includes('*/')) inBlock = false; return; }
    if (t.startsWith('//')) c.add(i);
    else if (t.startsWith('/*')) { c.add(i); if (!t.includes('*/', 2)) inBlock = true; }
  });
  return c;
}

/** Lines L.. to the end of the statement that starts there (brackets balanced), or undefined past MAX. */
function statementEnd(lines, L) {
  let depth = 0;
  for (let i = L; i < Math.min(lines.length, L + 20); i++) {
    const code = lines[i].replace(/(['"])(?:\\.|(?!\1).)*\1/g, '""').replace(/#.*$/, '');
    for (const ch of code) { if ('([{'.includes(ch)) depth++; else if (')]}'.includes(ch)) depth--; }
    if (depth <= 0 && !/\\$/.test(code)) return i;
  }
  return undefined;
}

const prefixStart = (lines, L) => {
  let s = L, tokens = 0;
  while (s > 0) {
    const k = enc.encode(lines[s - 1] + '\n').length;
    if (tokens + k > 1000) break;
    tokens += k;
    s--;
  }
  return s;
};

const tasks = [], apiTasks = [];
for (const repo of fs.readdirSync(reposDir).sort()) {
  const root = path.join(reposDir, repo);
  const files = walk(root);
  const cands = [];
  const fileLines = new Map();
  for (const file of files) {
    if (file.endsWith('.d.ts')) continue;
    const lines = splitLines(fs.readFileSync(path.join(root, file), 'utf8'));
    fileLines.set(file, lines);
    const python = file.endsWith('.py');
    const comments = commentLines(lines, python);
    for (let L = 1; L < lines.length; L++) {
      const t = lines[L];
      if (!t.trim() || !lines[L - 1].trim() || comments.has(L)) continue;
      if (!python && (t.trim().length < 8 || t.length > 300 || !/[A-Za-z0-9_$]/.test(t) || enc.encode(t).length < 5)) continue;
      cands.push({ file, L });
    }
  }
  const rand = rng('20250717-' + repo);
  for (let i = cands.length - 1; i > 0; i--) { const j = Math.floor(rand() * (i + 1)); [cands[i], cands[j]] = [cands[j], cands[i]]; }
  const seen = new Set();
  let n = 0;
  for (const { file, L } of cands) {
    if (n >= perRepo) break;
    const lines = fileLines.get(file);
    if (seen.has(lines[L])) continue;
    seen.add(lines[L]);
    const s = prefixStart(lines, L);
    const language = LANG[file.split('.').pop()];
    const nLines = lines.length;
    tasks.push({
      id: `repoeval-heldout/${repo}/${n}`, repo, file, cursor: { line: L, character: 0 }, prefix_lines: lines.slice(s, L), target: lines[L], language,
      context_start_line: s, target_end_line: L, left_context: lines.slice(0, L).join('\n') + '\n', right_context: null,
      positive_fragment: { file, start_line: L, end_line: Math.min(L + 19, nLines - 1) },
      positive_fragment_grid: { file, start_line: 20 * Math.floor(L / 20), end_line: Math.min(20 * Math.floor(L / 20) + 19, nLines - 1) },
      file_line_count: nLines, source: 'reporecall-heldout-repoeval-rules',
    });
    n++;
  }
  console.log(`${repo}: ${files.length} files, ${cands.length} candidate lines, ${n} tasks`);
  if (!files.some((f) => f.endsWith('.py'))) continue;
  // API-level tasks: a call to a function or class another file of the repository defines.
  const definedIn = new Map();
  for (const [file, lines] of fileLines) for (const l of lines) { const m = l.match(/^\s*(?:def|class)\s+([A-Za-z_]\w*)/); if (m && !m[1].startsWith('__')) (definedIn.get(m[1]) ?? definedIn.set(m[1], new Set()).get(m[1])).add(file); }
  const apiCands = [];
  for (const [file, lines] of fileLines) {
    const comments = commentLines(lines, true);
    for (let L = 1; L < lines.length; L++) {
      const t = lines[L];
      if (!t.trim() || comments.has(L) || /^\s*(def|class)\s/.test(t)) continue;
      const calls = [...t.matchAll(/([A-Za-z_]\w*)\s*\(/g)].map((m) => m[1]);
      if (!calls.some((c) => [...(definedIn.get(c) ?? [])].some((f) => f !== file))) continue;
      const end = statementEnd(lines, L);
      if (end !== undefined) apiCands.push({ file, L, end });
    }
  }
  const randApi = rng('20250717-api-' + repo);
  for (let i = apiCands.length - 1; i > 0; i--) { const j = Math.floor(randApi() * (i + 1)); [apiCands[i], apiCands[j]] = [apiCands[j], apiCands[i]]; }
  const seenApi = new Set();
  let na = 0;
  for (const { file, L, end } of apiCands) {
    if (na >= perRepo) break;
    const lines = fileLines.get(file);
    const target = lines.slice(L, end + 1).join('\n');
    if (seenApi.has(target)) continue;
    seenApi.add(target);
    const s = prefixStart(lines, L);
    apiTasks.push({
      id: `repoeval-heldout-api/${repo}/${na}`, repo, file, cursor: { line: L, character: 0 }, prefix_lines: lines.slice(s, L), target, language: 'python',
      context_start_line: s, target_end_line: end, left_context: null, right_context: null,
      positive_fragment: { file, start_line: L, end_line: Math.min(L + 19, lines.length - 1) },
      positive_fragment_grid: { file, start_line: 20 * Math.floor(L / 20), end_line: Math.min(20 * Math.floor(L / 20) + 19, lines.length - 1) },
      file_line_count: lines.length, source: 'reporecall-heldout-repoeval-rules-api',
    });
    na++;
  }
  console.log(`${repo}: ${apiCands.length} API candidate lines, ${na} API tasks`);
}
fs.mkdirSync(outDir, { recursive: true });
const link = path.join(outDir, 'repos');
if (!fs.existsSync(link)) fs.symlinkSync(reposDir, link);
fs.writeFileSync(path.join(outDir, 'tasks.jsonl'), tasks.map((t) => JSON.stringify(t)).join('\n') + '\n');
fs.writeFileSync(path.join(outDir, 'tasks_api.jsonl'), apiTasks.map((t) => JSON.stringify(t)).join('\n') + '\n');
console.log(`wrote ${tasks.length} tasks and ${apiTasks.length} API tasks to ${outDir}`);
