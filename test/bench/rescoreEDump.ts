// Scores an --e-dump file (E_suffix's suggestions, one JSON line each) again with today's
// unbound-name check (suffixMetrics.ts), so two runs made with different versions of the check, or
// a run of another tree, are compared under one metric. Prints per source and language the offered
// suggestions, the unbound-name rate and each offense.
// `node out/test/bench/rescoreEDump.js --split ../shared/bench-langs DUMP.jsonl [--source engine:builtin]`
import * as fs from 'fs';
import { languageFamily, loadRepo, loadTasks, type Repo } from './split';
import { repositoryDefinitions, rightContextOf, unboundNames } from './suffixMetrics';

interface DumpRow { task: string; repo: string; file: string; language: string; source: string; text: string; em: number; api: boolean }

function main(argv: string[]): void {
  const get = (name: string) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1] : undefined; };
  const split = get('split');
  const dump = argv.find((a, i) => a.endsWith('.jsonl') && !argv[i - 1]?.startsWith('--'));
  if (!split || !dump) throw new Error('usage: rescoreEDump --split DIR DUMP.jsonl [--source NAME]');
  const only = get('source');
  const rows = fs.readFileSync(dump, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as DumpRow).filter((r) => !r.api && (!only || r.source === only));
  const tasks = new Map(loadTasks(split, { repos: [...new Set(rows.map((r) => r.repo))] }).map((t) => [t.id, t]));
  const repos = new Map<string, { repo: Repo; defs: Set<string> }>();
  const tally = new Map<string, { offered: number; unbound: number; em: number }>();
  for (const r of rows) {
    const task = tasks.get(r.task);
    if (!task || !r.text.trim()) continue;
    let loaded = repos.get(r.repo);
    if (!loaded) {
      const repo = loadRepo(split, r.repo, languageFamily(task.language));
      repos.set(r.repo, (loaded = { repo, defs: repositoryDefinitions(repo) }));
    }
    const prefix = task.left_context ?? '';
    const suffix = rightContextOf(loaded.repo.byPath.get(task.file)!.lines, task);
    const names = unboundNames(r.text, prefix.slice(prefix.lastIndexOf('\n') + 1), prefix + suffix, loaded.defs, task.language);
    for (const key of [`${r.source} all`, `${r.source} ${languageFamily(task.language)}`]) {
      const t = tally.get(key) ?? { offered: 0, unbound: 0, em: 0 };
      t.offered++;
      t.unbound += names.length ? 1 : 0;
      t.em += r.em;
      tally.set(key, t);
    }
    if (names.length) console.log(`unbound ${r.source} ${r.task} ${r.file} [${names.join(', ')}] em=${r.em}: ${JSON.stringify(r.text.slice(0, 160))}`);
  }
  console.log('\n| source | subset | offered | EM among offered | unbound | rate |\n|---|---|---|---|---|---|');
  for (const [key, t] of [...tally].sort()) {
    const [source, subset] = key.split(' ');
    console.log(`| ${source} | ${subset} | ${t.offered} | ${t.em} | ${t.unbound} | ${(t.unbound / t.offered).toFixed(3)} |`);
  }
}

main(process.argv.slice(2));
