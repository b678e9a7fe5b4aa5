// Captures, per protocol E task of a split, the sources and IDF the built-in completion sees, so that
// replay.cjs and dump-rank.cjs can rerun the completion offline (seconds instead of a bench run).
// node training/completion/capture.cjs SPLIT_DIR OUT.jsonl [repo,repo]   (needs `npm run compile`)
const fs = require('fs'), os = require('os'), path = require('path');
const root = path.resolve(__dirname, '../..');
const { Engine } = require(path.join(root, 'out/engine/src/engine'));
const builtin = require(path.join(root, 'out/engine/src/complete/builtin'));
const split = require(path.join(root, 'out/test/bench/split'));
const { apiLeftContext } = require(path.join(root, 'out/test/bench/protocols'));
const [splitDir, outFile, reposArg] = process.argv.slice(2);
const TOKEN = /[A-Za-z_$][A-Za-z0-9_$]*|\d+|[^\sA-Za-z0-9_$]/g;
let captured;
const orig = builtin.completeFromSources;
builtin.completeFromSources = (state, sources, opts) => { captured = { sources, opts }; return orig(state, sources, opts); };
(async () => {
  const tasks = split.loadTasks(splitDir);
  let api = [];
  if (fs.existsSync(path.join(splitDir, 'tasks_api.jsonl'))) api = fs.readFileSync(path.join(splitDir, 'tasks_api.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => ({ ...JSON.parse(l), kind: 'api' }));
  const out = fs.createWriteStream(outFile);
  const repos = reposArg ? reposArg.split(',') : [...new Set(tasks.map((t) => t.repo))];
  for (const repoName of repos) {
    const rt = tasks.filter((t) => t.repo === repoName).map((t) => ({ ...t, kind: 'line' }));
    const lang = split.languageFamily(rt[0].language);
    const repo = split.loadRepo(splitDir, repoName, lang);
    const indexDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wtc-cap-'));
    const t0 = Date.now();
    const engine = await Engine.open({ root: repo.root, indexDir, dense: false, extensions: split.LANGUAGE_EXTENSIONS[repo.language] }, {});
    await engine.indexAll();
    console.log(repoName, 'indexed', (Date.now() - t0) / 1000);
    const files = {};
    const all = [...rt, ...api.filter((t) => t.repo === repoName)];
    for (const task of all) {
      const left = task.left_context ?? apiLeftContext(repo.byPath.get(task.file).lines, task.cursor.line);
      await engine.updateFile(task.file, left);
      captured = undefined;
      const state = { file: task.file, language: task.language, prefix: left, line: task.cursor.line };
      const t1 = performance.now();
      const r = await engine.complete(state);
      const ms = performance.now() - t1;
      await engine.updateFile(task.file);
      const srcs = [];
      const idf = {};
      if (captured) {
        for (const s of captured.sources) {
          if (s.file === task.file) srcs.push({ file: s.file, self: true, n: s.lines.length, from: s.from, to: s.to, limit: s.limit });
          else { files[s.file] ??= s.lines; srcs.push({ file: s.file, from: s.from, to: s.to, limit: s.limit }); }
        }
        const pl = left.split('\n');
        const toks = new Set();
        for (const l of pl.slice(-60)) for (const t of l.match(TOKEN) ?? []) toks.add(t);
        for (const t of toks) idf[t] = captured.opts.idf(t);
      }
      out.write(JSON.stringify({ id: task.id, kind: task.kind, repo: repoName, file: task.file, language: task.language, left, target: task.target, ms, text: r?.text ?? '', sources: srcs, idf }) + '\n');
    }
    const ridf = {};
    let lastIdf; captured = undefined; await engine.complete({ file: '__x.py', language: 'python', prefix: 'import os\nimport sys\n', line: 2 });
    lastIdf = captured?.opts.idf;
    for (const f of repo.files) for (const l of f.lines) for (const t of l.match(TOKEN) ?? []) if (!(t in ridf)) ridf[t] = lastIdf ? lastIdf(t) : 0;
    out.write(JSON.stringify({ repoFiles: repoName, files, idf: ridf }) + '\n');
    await engine.close();
    fs.rmSync(indexDir, { recursive: true, force: true });
  }
  out.end();
})();
