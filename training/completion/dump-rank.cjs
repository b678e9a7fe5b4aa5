// Dumps, per line task, the ranked groups' features (rank.ts) and whether each first line is the target,
// for fit-rank.py. node training/completion/dump-rank.cjs CAPTURE.jsonl OUT.jsonl
const fs = require('fs'), path = require('path');
const root = path.resolve(__dirname, '../..');
const builtin = require(path.join(root, 'out/engine/src/complete/builtin'));
const rank = require(path.join(root, 'out/engine/src/complete/rank'));
const [capFile, outFile] = process.argv.slice(2);
const lines = fs.readFileSync(capFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const files = {}, ridf = {}; for (const l of lines) if (l.repoFiles) { files[l.repoFiles] = l.files; ridf[l.repoFiles] = l.idf; }
const out = fs.createWriteStream(outFile);
for (const t of lines.filter((l) => l.id && l.kind === 'line')) {
  const leftLines = t.left.split('\n'); leftLines.pop();
  const sources = t.sources.map((s) => ({ file: s.file, lines: s.self ? leftLines.slice(0, s.n) : files[t.repo][s.file], from: s.from, to: s.to, ...(s.limit !== undefined ? { limit: s.limit } : {}) }));
  const own = (o, k) => (o && Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);
  const idf = (x) => own(t.idf, x) ?? own(ridf[t.repo], x) ?? 0;
  let ranked = [];
  builtin.completeFromSources({ file: t.file, language: t.language, prefix: t.left, line: leftLines.length }, sources, { idf, minConfidence: 0, minEvidence: 0, explain: (r) => (ranked = r) });
  const target = t.target.trim();
  out.write(JSON.stringify({ id: t.id, repo: t.repo, groups: ranked.map((g) => ({ ...rank.groupFeatures(g, ranked), ok: g.first === target ? 1 : 0 })) }) + '\n');
}
out.end();
