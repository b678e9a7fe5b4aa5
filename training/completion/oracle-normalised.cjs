// Oracle for issue 17's first scope point: how many line tasks would a candidate generator reach that matches
// the lines before the cursor on normalised structure anywhere in the repository (all other files in full, the
// current file's earlier lines) and adapts the copy's names to the user's through the matched context lines?
// Compared with the same generator copying verbatim (context lines equal as text), and with what main offers.
// node training/completion/oracle-normalised.cjs SPLIT_DIR [MAIN_DUMP.jsonl]   (needs `npm run compile`)
//   MAIN_DUMP: replay.cjs --dump of main's build (per-task right/wrong/abstain).
const fs = require('fs'), path = require('path');
const root = path.resolve(__dirname, '../..');
const split = require(path.join(root, 'out/test/bench/split'));
const { bindings, isName, isBlank, tokensOf } = require(path.join(root, 'out/engine/src/complete/lines'));
const [splitDir, mainDump] = process.argv.slice(2);
// ORACLE_CAPTURE=capture.jsonl: scan only the files main's retrieval gave each task (capture.cjs), not the whole repository.
const retrieved = new Map();
if (process.env.ORACLE_CAPTURE) for (const l of fs.readFileSync(process.env.ORACLE_CAPTURE, 'utf8').split('\n')) {
  if (!l.startsWith('{"id"')) continue;
  const d = JSON.parse(l); retrieved.set(d.id, new Set(d.sources.map((x) => x.file)));
}
const MAX_DEPTH = 4, MAX_POSITIONS = 5000;
const NAME = /[A-Za-z_$][\w$]*/g;

// Three ways to compare a line: as text, bound names as one placeholder (the engine's normalisation), every name as one.
const MODES = ['verbatim', 'bound', 'names'];
function keyOf(mode, toks, bound) {
  if (mode === 'verbatim') return toks.join(' ');
  return toks.map((t) => (isName(t) && (mode === 'names' || bound.has(t)) ? '_v' : t)).join(' ');
}

const tasks = split.loadTasks(splitDir);
const mainCat = new Map();
if (mainDump) for (const l of fs.readFileSync(mainDump, 'utf8').split('\n').filter(Boolean)) { const d = JSON.parse(l); if (d.kind === 'line') mainCat.set(d.id, d.cat); }
const res = {}; // mode:dmin -> { reach:Set, top:Set }
const rec = (k, kind, id) => ((res[k] ??= { reach: new Set(), top: new Set(), offered: new Set() })[kind].add(id));
const perTask = [];

for (const repoName of [...new Set(tasks.map((t) => t.repo))]) {
  const rt = tasks.filter((t) => t.repo === repoName);
  const repo = split.loadRepo(splitDir, repoName, split.languageFamily(rt[0].language));
  // Per file: non-blank line indices, tokens, bound names (the whole file's), and per mode an index key -> positions.
  const fileInfo = repo.files.map((f) => {
    const nb = []; for (let i = 0; i < f.lines.length; i++) if (!isBlank(f.lines[i])) nb.push(i);
    return { path: f.relPath, lines: f.lines, nb, toks: nb.map((i) => tokensOf(f.lines[i])), bound: bindings(f.content) };
  });
  // IDF over the repository's files (what the engine's BM25 field gives the aligner): evidence of a match.
  const df = new Map();
  for (const fi of fileInfo) for (const tk of new Set(fi.toks.flat())) df.set(tk, (df.get(tk) ?? 0) + 1);
  const idf = (tk) => Math.log(1 + fileInfo.length / (df.get(tk) ?? 1));
  const index = {};
  for (const mode of MODES) {
    const m = (index[mode] = new Map());
    fileInfo.forEach((fi, fidx) => fi.toks.forEach((tk, q) => {
      if (q + 1 >= fi.nb.length) return;
      const k = keyOf(mode, tk, fi.bound);
      let a = m.get(k); if (!a) m.set(k, (a = [])); a.push([fidx, q]);
    }));
  }
  for (const t of rt) {
    const prefixLines = t.left_context !== undefined ? t.left_context.split('\n') : null;
    const left = prefixLines ?? [];
    left.pop(); // the cursor's line (indentation only in these tasks)
    const userNb = []; for (let i = 0; i < left.length; i++) if (!isBlank(left[i])) userNb.push(i);
    const userToks = userNb.slice(-MAX_DEPTH).map((i) => tokensOf(left[i]));
    const userBound = bindings(left.slice(-80).join('\n'));
    // The current file's own earlier lines, as one more file (the repository's copy of it is left out).
    const self = { path: t.file, lines: left, nb: userNb, toks: userNb.map((i) => tokensOf(left[i])), bound: bindings(left.join('\n')) };
    const target = t.target.trim();
    const row = { id: t.id, main: mainCat.get(t.id) };
    for (const mode of MODES) {
      const uk = userToks.map((tk) => keyOf(mode, tk, userBound));
      const last = uk[uk.length - 1];
      const seen = retrieved.get(t.id);
      const positions = (index[mode].get(last) ?? []).filter(([fidx]) => fileInfo[fidx].path !== t.file && (!process.env.ORACLE_CAPTURE || seen?.has(fileInfo[fidx].path))).map(([fidx, q]) => [fileInfo[fidx], q]);
      self.toks.forEach((tk, q) => { if (q + 1 < self.nb.length && keyOf(mode, tk, self.bound) === last) positions.push([self, q]); });
      const cands = new Map(); // adapted text -> { votes, depth }
      for (const [fi, q] of positions.slice(0, MAX_POSITIONS)) {
        let depth = 0, evidence = 0, renamed = 0; const map = new Map(), inv = new Map(); let ok = true;
        while (depth < userToks.length && q - depth >= 0 && ok) {
          const u = userToks[userToks.length - 1 - depth], c = fi.toks[q - depth];
          if (keyOf(mode, c, fi.bound) !== uk[uk.length - 1 - depth]) break;
          // The alignment of a matched line: each copy name stands for one user name, one to one.
          const save = [...map.entries()]; const saveEv = evidence;
          for (let k = 0; k < u.length && ok; k++) {
            if (c[k] === u[k]) evidence += idf(c[k]);
            if (!isName(c[k]) || !isName(u[k])) continue;
            if ((map.has(c[k]) && map.get(c[k]) !== u[k]) || (inv.has(u[k]) && inv.get(u[k]) !== c[k])) ok = false;
            else { map.set(c[k], u[k]); inv.set(u[k], c[k]); }
          }
          if (!ok) { evidence = saveEv; if (depth > 0) { map.clear(); inv.clear(); for (const [a, b] of save) { map.set(a, b); inv.set(b, a); } ok = true; } break; }
          depth++;
        }
        if (!ok || depth === 0) continue;
        const next = fi.lines[fi.nb[q + 1]];
        const text = mode === 'verbatim' ? next.trim() : next.trim().replace(NAME, (n) => map.get(n) ?? n);
        for (const [a, b] of map) if (a !== b && next.includes(a)) renamed++;
        const c = cands.get(text) ?? { votes: 0, depth: 0, evidence: 0, renamed: 99 };
        c.votes++; c.depth = Math.max(c.depth, depth); c.evidence = Math.max(c.evidence, evidence); c.renamed = Math.min(c.renamed, renamed);
        cands.set(text, c);
      }
      for (const dmin of [1, 2]) {
        const list = [...cands.entries()].filter(([, c]) => c.depth >= dmin);
        if (!list.length) continue;
        const key = `${mode}:d${dmin}`;
        rec(key, 'offered', t.id);
        if (list.some(([x]) => x === target)) { rec(key, 'reach', t.id); row[key] = 1; }
        list.sort((a, b) => b[1].depth - a[1].depth || b[1].votes - a[1].votes);
        if (list[0][0] === target) { rec(key, 'top', t.id); row[key + ':top'] = 1; }
      }
      row[mode + ':positions'] = positions.length;
      const all = [...cands.entries()].sort((a, b) => b[1].depth - a[1].depth || b[1].votes - a[1].votes);
      if (all.length) {
        const total = all.reduce((x, [, c]) => x + c.votes, 0);
        const atDepth = all.filter(([, c]) => c.depth === all[0][1].depth).reduce((x, [, c]) => x + c.votes, 0);
        row[mode + ':best'] = { ok: all[0][0] === target ? 1 : 0, votes: all[0][1].votes, depth: all[0][1].depth, share: all[0][1].votes / total, shareAtDepth: all[0][1].votes / atDepth, evidence: all[0][1].evidence, renamed: all[0][1].renamed, n: all.length, rank: all.findIndex(([x]) => x === target) + 1, text: all[0][0] };
      }
    }
    perTask.push(row);
  }
  console.error(repoName, 'done');
}
const n = tasks.length;
const f = (x) => (x / n).toFixed(3);
const mainRight = new Set([...mainCat].filter(([, c]) => c === 'right').map(([id]) => id));
console.log(`line tasks ${n}; main right ${mainRight.size} (${f(mainRight.size)})`);
for (const [k, r] of Object.entries(res)) {
  const v = res[`verbatim:${k.split(':')[1]}`];
  const beyondV = [...r.reach].filter((id) => !v.reach.has(id)).length;
  const beyondMain = [...r.reach].filter((id) => !mainRight.has(id)).length;
  const topBeyondMain = [...r.top].filter((id) => !mainRight.has(id)).length;
  const topBeyondVTop = [...r.top].filter((id) => !v.top.has(id)).length;
  console.log(`${k.padEnd(14)} has-candidate ${f(r.offered.size)}  reach ${f(r.reach.size)} (beyond verbatim reach ${f(beyondV)}, beyond main right ${f(beyondMain)})  first ${f(r.top.size)} (beyond verbatim first ${f(topBeyondVTop)}, beyond main right ${f(topBeyondMain)})`);
}
if (process.env.ORACLE_DUMP) fs.writeFileSync(process.env.ORACLE_DUMP, perTask.map((r) => JSON.stringify(r)).join('\n') + '\n');
