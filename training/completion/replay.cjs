// Replays tasks captured by capture.cjs through the compiled built-in completion (out/) and scores
// protocol E as the bench does (EM, ES, offered, precision per subset and repository), in seconds.
// node training/completion/replay.cjs CAPTURE.jsonl [--half a|b] [--kind line|api] [--minconf X] [--minev X] [--dump OUT.jsonl]
//   [--show N [--filter right|wrong|abstain]]   (prints context, target, offer and alternatives per task)
// The latency it prints is the completion alone (no retrieval), not the bench's keystroke-to-items.
const fs = require('fs'), path = require('path');
const root = path.resolve(__dirname, '../..');
const args = process.argv.slice(2);
const get = (n) => { const i = args.indexOf('--' + n); return i >= 0 ? args[i + 1] : undefined; };
const builtin = require(path.join(root, 'out/engine/src/complete/builtin'));
const { scoreCompletion, completionForTarget } = require(path.join(root, 'out/test/bench/protocols'));
const file = args[0];
const half = get('half'); // 'a' | 'b': repos by index parity
const show = Number(get('show') ?? 0);
const filter = get('filter'); // 'miss' | 'wrong' | 'abstain' | 'right'
const kindOnly = get('kind');
const dump = get('dump') ? fs.createWriteStream(get('dump')) : undefined; // per-task outcome, one JSON line each
const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const files = {}, ridf = {};
for (const l of lines) if (l.repoFiles) { files[l.repoFiles] = l.files; ridf[l.repoFiles] = l.idf; }
const own = (o, k) => (o && Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);
const tasks = lines.filter((l) => l.id);
const repos = [...new Set(tasks.map((t) => t.repo))];
const acc = {};
const add = (g, s, offered) => { const a = (acc[g] ??= { n: 0, em: 0, es: 0, off: 0, offEm: 0 }); a.n++; a.em += s.em; a.es += s.es; if (offered) { a.off++; a.offEm += s.em; } };
let shown = 0, t0 = Date.now(); const ms = [];
for (const t of tasks) {
  const ri = repos.indexOf(t.repo);
  if (half === 'a' && ri % 2) continue;
  if (half === 'b' && !(ri % 2)) continue;
  if (kindOnly && t.kind !== kindOnly) continue;
  const leftLines = t.left.split('\n'); leftLines.pop();
  const sources = t.sources.map((s) => ({ file: s.file, lines: s.self ? leftLines.slice(0, s.n) : files[t.repo][s.file], from: s.from, to: s.to, ...(s.limit !== undefined ? { limit: s.limit } : {}) }));
  const idf = (tok) => own(t.idf, tok) ?? own(ridf[t.repo], tok) ?? 0;
  const state = { file: t.file, language: t.language, prefix: t.left, line: leftLines.length };
  const a0 = performance.now();
  const r = builtin.completeFromSources(state, sources, { idf, ...(get('minconf') ? { minConfidence: Number(get('minconf')) } : {}), ...(get('minev') ? { minEvidence: Number(get('minev')) } : {}) });
  ms.push(performance.now() - a0);
  const text = r?.text ?? '';
  const s = scoreCompletion(completionForTarget(text, t.target), t.target);
  const offered = text.trim().length > 0;
  const groups = t.kind === 'api' ? ['api'] : ['all', t.language.startsWith('typescript') ? 'typescript' : 'python'];
  for (const g of groups) add(g, s, offered);
  add('repo:' + t.repo + (t.kind === 'api' ? ':api' : ''), s, offered);
  const cat = !offered ? 'abstain' : s.em ? 'right' : 'wrong';
  dump?.write(JSON.stringify({ id: t.id, kind: t.kind, cat, offer: text.split('\n')[0], target: t.target, confidence: r?.confidence, evidence: r?.evidence }) + '\n');
  if (shown < show && (!filter || filter === cat) && t.kind === 'line') {
    shown++;
    const ctx = leftLines.slice(-6).join('\n');
    console.log(`==== ${t.id} [${cat}] evidence=${r?.evidence} conf=${r?.confidence}${r?.abstained ? ' abstained: ' + r.abstained : ''}\n${ctx}\n---- target: ${JSON.stringify(t.target)}\n---- offer : ${JSON.stringify(text.split('\n')[0])}`);
    for (const x of r?.alternatives ?? []) console.log(`---- alt   : ${JSON.stringify(x.text.split('\n')[0])} ev=${x.evidence} conf=${x.confidence}`);
    if (r?.debug) for (const d of r.debug) console.log('     cand', JSON.stringify(d));
  }
}
ms.sort((a, b) => a - b);
const f = (x) => x.toFixed(3);
for (const [g, a] of Object.entries(acc)) console.log(`${g.padEnd(44)} n=${a.n} EM ${f(a.em / a.n)} ES ${f(a.es / a.n)} offered ${f(a.off / a.n)} prec ${f(a.offEm / Math.max(1, a.off))}`);
console.log(`replay ms p50 ${ms[Math.floor(ms.length * 0.5)].toFixed(2)} p95 ${ms[Math.floor(ms.length * 0.95)].toFixed(2)} total ${(Date.now() - t0) / 1000}s`);
