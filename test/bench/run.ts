// `npm run bench -- --split DIR --out FILE.json [--limit N] [--systems a,b] [--repos r1,r2] [--protocols A,B,C,E,R,N]`
// Runs protocols A, B and C of the split's README for every system side by side, in one process,
// so ratios between systems are measured under the same machine load; R (resolution) and N
// (natural language → code, naturalLanguage/) after them, or alone with `--protocols R` / `N`.
import * as fs from 'fs';
import * as path from 'path';
import { loadRepo, loadTasks, languageFamily, splitLines, type Repo, type Task } from './split';
import { apiLeftContext, cursorAlignedFragments, excludedA, excludedB, gridFragments, percentile, rankMetrics, rankOfPositive, scoreContext, type RankMetrics } from './protocols';
import type { BenchSystem, FragmentDoc } from './systems/system';
import { createSystems, SYSTEM_NAMES, type SystemFactoryOptions } from './systems';
import { defaultModelDir } from '../../engine/src/modelPaths';
import { renderMarkdown } from './report';
import { hypothesisProvider } from './hyde';
import { renderR, runProtocolR } from './resolution/protocolR';
import { N_SYSTEMS, renderN, runProtocolN, type NResult } from './naturalLanguage/protocolN';
import { ProviderAcc, ProviderPath, renderProvider } from './provider';
import { repositoryDefinitions } from './suffixMetrics';
import {
  asFragmentSystem, C_BUDGET, completionResults, cutToBudget, docsFor, dumpCandidates, FEATURE_CANDIDATES, groupsOf, mean, openEDump, push, scoreCompletions, suffixCase,
  type CompletionAcc, type SystemAcc,
} from './taskScores';

interface Args {
  split: string;
  out: string;
  limit?: number;
  systems: string[];
  repos?: string[];
  factory: SystemFactoryOptions;
  /** --e-dump FILE: per E_suffix task and completion source, the suggestion, target and its scores (JSONL). */
  eDump?: string;
  /** --dump-context FILE: per protocol C task and system output, the context at 1,024 tokens and the new identifiers it holds (JSONL). */
  dumpContext?: string;
  /** --dump-features FILE: per protocol A task, each fragment system's fused candidates with their signals (JSONL). */
  dumpFeatures?: string;
  /** --only-e: protocol E alone (line and API tasks), without ranking for A, B and C. */
  onlyE: boolean;
  /** --budgets 512,1024,2048,4096: protocol C token budgets, each reported under C_budgets["N"]; C itself stays at 1,024. */
  budgets: number[];
  /** --protocols A,B,C,E,R,N (default all): `R` and/or `N` alone run without the ranking protocols. */
  protocols: Set<string>;
  /** --n-systems ripgrep,bm25,dense,engine (default all four): protocol N's systems. */
  nSystems: string[];
  /** --n-dump FILE: protocol N's tasks with each system's rank and first files (JSONL). */
  nDump?: string;
}

function parseArgs(argv: string[]): Args {
  const get = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const split = get('split') ?? path.resolve(__dirname, '../../../../shared/bench');
  const out = get('out') ?? path.resolve('.bench-out/bench.json');
  const limit = get('limit') ? Number(get('limit')) : undefined;
  const systems = (get('systems') ?? SYSTEM_NAMES.join(',')).split(',').filter(Boolean);
  const repos = get('repos')?.split(',').filter(Boolean);
  const flags = new Set(argv.filter((a) => a.startsWith('--') && !argv[argv.indexOf(a) + 1]?.match(/^[^-]/)));
  // --hyde oracle | --hyde-endpoint URL --hyde-model NAME [--hyde-budget MS] [--hyde-weights 0.5,1]: see hyde.ts.
  const hypothesis = hypothesisProvider(argv);
  const budgets = (get('budgets') ?? '1024').split(',').map(Number).filter((b) => Number.isInteger(b) && b > 0);
  return { split, out, limit, systems, repos, factory: { modelDir: get('model'), referenceModelDir: get('reference-model'), flags, argv, hypothesis }, dumpFeatures: get('dump-features'), dumpContext: get('dump-context'), eDump: get('e-dump'), onlyE: argv.includes('--only-e'), budgets,
    nSystems: (get('n-systems') ?? N_SYSTEMS.join(',')).split(',').filter(Boolean), nDump: get('n-dump'),
    protocols: new Set((get('protocols') ?? 'A,B,C,E,R,N').split(',').map((p) => p.trim().toUpperCase()).filter(Boolean)) };
}

/** API tasks (tasks_api.jsonl) with the left context the README derives: the file's first L lines. */
function loadApiTasks(args: Args): Task[] {
  if (!fs.existsSync(path.join(args.split, 'tasks_api.jsonl'))) return [];
  return loadTasks(args.split, { limit: args.limit, repos: args.repos, file: 'tasks_api.jsonl' });
}

/** Protocol R (resolution) over the split's repositories, its truth cached beside the output. */
async function protocolR(args: Args, repoNames: string[]): Promise<Record<string, Record<string, unknown>>> {
  console.log(`protocol R: ${repoNames.length} repos`);
  return runProtocolR(args.split, repoNames, path.join(path.dirname(args.out), 'R-truth'));
}

/** Protocol N over the split's repositories (at most --limit tasks in all, spread evenly). */
async function protocolN(args: Args, tasks: Task[]): Promise<NResult> {
  const repos = new Map(tasks.map((t) => [t.repo, languageFamily(t.language)]));
  console.log(`protocol N: ${repos.size} repos, systems ${args.nSystems.join(', ')}`);
  const cap = args.limit ? Math.max(1, Math.ceil(args.limit / repos.size)) : undefined;
  return runProtocolN({ split: args.split, repos, systems: args.nSystems, factory: args.factory, cap, dump: args.nDump });
}

/** One benchmark run: its arguments, tasks and systems, and what each system accumulates. */
interface Run {
  args: Args;
  tasks: Task[];
  apiTasks: Task[];
  systems: BenchSystem[];
  acc: Map<string, SystemAcc>;
  completionAcc: Map<string, CompletionAcc>;
  suffixAcc: Map<string, CompletionAcc>;
  repoStats: Record<string, Record<string, number>>;
  dump: number | undefined;
  dumpC: number | undefined;
  provider: ProviderPath | undefined;
  providerAcc: ProviderAcc;
}

/** A repository as every system indexes it: its files cut into grid fragments. */
interface RepoGrid {
  repo: Repo;
  gridByFile: Map<string, FragmentDoc[]>;
  byId: Map<number, FragmentDoc>;
  repoDefs: Set<string>;
  nextId: () => number;
}

const outputsOf = (s: BenchSystem) => s.outputs ?? [s.name];
/** A system's answer per output name. */
const perOutput = <T>(s: BenchSystem, r: T | Record<string, T>, isSingle: (x: unknown) => boolean): Map<string, T> =>
  isSingle(r) ? new Map([[s.name, r as T]]) : new Map(Object.entries(r as Record<string, T>));

/** Protocols R and N alone: no repository is indexed by the systems. */
async function runResolutionOnly(args: Args, tasks: Task[]): Promise<void> {
  const repoNames = [...new Set(tasks.map((t) => t.repo))];
  const result: Record<string, unknown> = { meta: { split: args.split, date: new Date().toISOString(), argv: process.argv.slice(2) } };
  if (args.protocols.has('R')) result.R = await protocolR(args, repoNames);
  if (args.protocols.has('N')) Object.assign(result, await protocolN(args, tasks));
  fs.mkdirSync(path.dirname(args.out), { recursive: true });
  fs.writeFileSync(args.out, JSON.stringify(result, null, 2));
  const md = (result.R ? renderR(result.R as never) : '') + (result.N ? renderN(result as unknown as NResult) : '');
  fs.writeFileSync(args.out.replace(/\.json$/, '') + '.md', md);
  console.log(md);
}

async function startRun(args: Args, tasks: Task[]): Promise<Run> {
  const apiTasks = loadApiTasks(args);
  const systems = await createSystems(args.systems, args.factory);
  const acc = new Map<string, SystemAcc>(systems.flatMap(outputsOf).map((name) => [name, {
    ranksA: new Map(), ranksB: new Map(), idRec: new Map(), newIdRec: new Map(), byBudget: new Map(), latA: [], latC: [], latCByGroup: new Map(), indexS: 0, perTask: {},
  }]));
  const dump = args.dumpFeatures ? fs.openSync(args.dumpFeatures, 'w') : undefined;
  if (args.eDump) openEDump(args.eDump);
  const dumpC = args.dumpContext ? fs.openSync(args.dumpContext, 'w') : undefined;
  // The Copilot context provider path (provider.ts): protocol C through the provider, with the engine's default model.
  const provider = args.protocols.has('C') && args.systems.includes('engine') && !args.onlyE && !process.argv.includes('--no-provider')
    ? new ProviderPath(args.factory.modelDir ?? defaultModelDir()) : undefined;
  return { args, tasks, apiTasks, systems, acc, completionAcc: new Map(), suffixAcc: new Map(), repoStats: {}, dump, dumpC, provider, providerAcc: new ProviderAcc() };
}

/** Every system indexes one repository, then answers its tasks (and its API tasks, protocol E). */
async function benchRepo(run: Run, repoName: string): Promise<void> {
  const { args, systems, acc, provider } = run;
  const repoTasks = run.tasks.filter((t) => t.repo === repoName);
  const repo: Repo = loadRepo(args.split, repoName, languageFamily(repoTasks[0].language));
  let idCounter = 0;
  const nextId = () => idCounter++;
  const gridByFile = new Map<string, FragmentDoc[]>();
  for (const f of repo.files) gridByFile.set(f.relPath, docsFor(f.relPath, f.lines, gridFragments(f.relPath, f.lines.length), nextId));
  const allGrid = [...gridByFile.values()].flat();
  const byId = new Map<number, FragmentDoc>(allGrid.map((d) => [d.id, d]));
  const repoDefs = args.protocols.has('E') ? repositoryDefinitions(repo) : new Set<string>();

  for (const sys of systems) {
    const t0 = performance.now();
    await sys.indexRepo(repo, allGrid);
    const s = (performance.now() - t0) / 1000;
    for (const o of outputsOf(sys)) acc.get(o)!.indexS += s;
    console.log(`  ${repoName}: ${sys.name} indexed ${allGrid.length} fragments in ${s.toFixed(1)} s`);
    if (sys.name === 'engine' && 'repoStats' in sys) run.repoStats[repoName] = (sys as unknown as { repoStats(): Record<string, number> }).repoStats();
  }
  if (provider) {
    await provider.open(repo);
    for (const task of repoTasks) {
      const inWindow = (h: { file: string; startLine: number; endLine: number }) => h.file === task.file && h.endLine >= task.context_start_line && h.startLine <= task.cursor.line - 1;
      run.providerAcc.add(await provider.task(task, inWindow, C_BUDGET), (snips) => scoreContext(task, cutToBudget(snips, C_BUDGET)).newIdRecall, task.id);
    }
    console.log(`  ${repoName}: provider path done`);
  }

  const grid: RepoGrid = { repo, gridByFile, byId, repoDefs, nextId };
  for (const task of repoTasks) await benchTask(run, grid, task);
  // Protocol E on the API tasks (multi-line targets), reported under `api` apart from the line
  // tasks; the latency percentiles stay those of the line tasks.
  const repoApi = args.protocols.has('E') ? run.apiTasks.filter((t) => t.repo === repoName) : [];
  for (const task of repoApi) {
    const fileLines = repo.byPath.get(task.file)!.lines;
    const t: Task = { ...task, left_context: task.left_context ?? apiLeftContext(fileLines, task.cursor.line) };
    for (const sys of systems) {
      if (!sys.complete) continue;
      await scoreCompletions(sys, t, ['api', `api:repo:${t.repo}`], run.completionAcc, false);
      await scoreCompletions(sys, t, ['api', `api:repo:${t.repo}`], run.suffixAcc, false, suffixCase(t, fileLines, repoDefs));
    }
  }
  console.log(`  ${repoName}: ${repoTasks.length} tasks${repoApi.length ? ` + ${repoApi.length} API tasks` : ''} done`);
}

/** One task for every system: protocols B, A, C and E in turn. */
async function benchTask(run: Run, grid: RepoGrid, task: Task): Promise<void> {
  const { args, acc } = run;
  const groups = groupsOf(task);
  const taskGrid = grid.gridByFile.get(task.file)!;
  const fileLines = grid.repo.byPath.get(task.file)!.lines;
  const aDocs = docsFor(task.file, fileLines, cursorAlignedFragments(task.file, fileLines.length, task.cursor.line), grid.nextId);
  const leftLines = splitLines(task.left_context);
  const cDocs = docsFor(task.file, leftLines, gridFragments(task.file, leftLines.length), grid.nextId);
  const local = new Map<number, FragmentDoc>([...aDocs, ...cDocs].map((d) => [d.id, d]));
  const lookup = (id: number) => grid.byId.get(id) ?? local.get(id)!;
  for (const sys of run.systems) {
    if (args.onlyE) {
      if (sys.complete) {
        await scoreCompletions(sys, task, groups, run.completionAcc, true);
        await scoreCompletions(sys, task, groups, run.suffixAcc, true, suffixCase(task, fileLines, grid.repoDefs));
      }
      continue;
    }
    const ranks = sys.ranksFragments !== false;
    // Protocol B: the corpus as indexed.
    const excludeB = (id: number) => excludedB(task, lookup(id));
    if (ranks) for (const [o, rb] of perOutput(sys, await sys.rank(task, 40, excludeB), Array.isArray)) {
      push(acc.get(o)!.ranksB, groups, rankOfPositive(rb.map(lookup), task, 'B'));
    }
    // Protocol A: the task file split at the cursor.
    await sys.removeDocs(taskGrid.map((d) => d.id));
    await sys.addDocs(aDocs);
    const excludeA = (id: number) => excludedA(task, lookup(id));
    if (ranks) await protocolA(run, sys, task, excludeA, lookup);
    await sys.removeDocs(aDocs.map((d) => d.id));
    await protocolC(run, sys, task, cDocs, excludeA, lookup);
    await sys.addDocs(taskGrid);
    // Protocol E: the built-in completion (leak-free state, like C); E_suffix: the same with the text after the cursor.
    if (sys.complete) {
      await scoreCompletions(sys, task, groups, run.completionAcc, true);
      await scoreCompletions(sys, task, groups, run.suffixAcc, true, suffixCase(task, fileLines, grid.repoDefs));
    }
  }
}

/** Protocol A for one system: the rank of the positive among the fragments of the file split at the cursor. */
async function protocolA(run: Run, sys: BenchSystem, task: Task, excludeA: (id: number) => boolean, lookup: (id: number) => FragmentDoc): Promise<void> {
  const groups = groupsOf(task);
  const t0 = performance.now();
  const ra = await sys.rank(task, 40, excludeA);
  const msA = performance.now() - t0;
  for (const [o, ids] of perOutput(sys, ra, Array.isArray)) {
    run.acc.get(o)!.latA.push(sys.outputs ? msA / sys.outputs.length : msA);
    const rank = rankOfPositive(ids.map(lookup), task, 'A');
    push(run.acc.get(o)!.ranksA, groups, rank);
    (run.acc.get(o)!.perTask[task.id] ??= {}).a = rank;
  }
  const explainer = run.dump !== undefined ? asFragmentSystem(sys) : undefined;
  if (explainer) dumpCandidates(run.dump!, sys.name, task, await explainer.explain(task, FEATURE_CANDIDATES, excludeA), lookup);
}

/** Protocol C for one system: leak-free editor state, at 1,024 tokens (`C`) and at each --budgets budget. */
async function protocolC(run: Run, sys: BenchSystem, task: Task, cDocs: FragmentDoc[], excludeA: (id: number) => boolean, lookup: (id: number) => FragmentDoc): Promise<void> {
  const groups = groupsOf(task);
  // A budget-aware system builds its context per budget; any other builds it once and is cut.
  const budgets = [...new Set([C_BUDGET, ...run.args.budgets])].sort((a, b) => a - b);
  const snippetsAt = new Map<number, Map<string, string[]>>();
  const latency = new Map<string, number>();
  const latencyAt = new Map<number, Map<string, number>>();
  if (sys.context) {
    for (const b of sys.budgetAware ? budgets : [C_BUDGET]) {
      const t1 = performance.now();
      const snips = perOutput(sys, await sys.context(task, b), Array.isArray);
      const whole = performance.now() - t1;
      snippetsAt.set(b, snips);
      // The latency reported is the 1,024-token query's. A system that reports its query time
      // alone (the engine: not its editor-state update) says so.
      const ms = sys.lastQueryMs;
      const lat = new Map([...snips.keys()].map((o) => [o, typeof ms === 'number' ? ms : ms?.[o] ?? whole]));
      latencyAt.set(b, lat);
      if (b === C_BUDGET) for (const [o, v] of lat) latency.set(o, v);
    }
  } else {
    await sys.addDocs(cDocs);
    const t2 = performance.now();
    const rc = perOutput(sys, await sys.rank(task, 40, excludeA), Array.isArray);
    const ms = performance.now() - t2;
    snippetsAt.set(C_BUDGET, new Map([...rc].map(([o, ids]) => [o, ids.map(lookup).filter((d) => !excludedA(task, d)).map((d) => d.text)])));
    for (const o of rc.keys()) latency.set(o, ms / rc.size);
    await sys.removeDocs(cDocs.map((d) => d.id));
  }
  for (const o of snippetsAt.get(C_BUDGET)!.keys()) {
    const a = run.acc.get(o)!;
    a.latC.push(latency.get(o) ?? 0);
    push(a.latCByGroup, groups, latency.get(o) ?? 0);
    for (const b of budgets) {
      const snip = (snippetsAt.get(b) ?? snippetsAt.get(C_BUDGET)!).get(o)!;
      const sc = scoreContext(task, cutToBudget(snip, b));
      let bb = a.byBudget.get(b);
      if (!bb) a.byBudget.set(b, (bb = { idRec: new Map(), newIdRec: new Map(), lat: new Map() }));
      push(bb.lat, groups, (latencyAt.get(b) ?? latency).get(o) ?? 0);
      if (sc.idRecall !== undefined) push(bb.idRec, groups, sc.idRecall);
      if (sc.newIdRecall !== undefined) push(bb.newIdRec, groups, sc.newIdRecall);
      if (b !== C_BUDGET) continue;
      if (run.dumpC !== undefined) fs.writeSync(run.dumpC, JSON.stringify({ task: task.id, repo: task.repo, file: task.file, language: task.language, system: o, newIdRecall: sc.newIdRecall, context: cutToBudget(snip, b), snippets: snip.length }) + '\n');
      if (sc.idRecall !== undefined) push(a.idRec, groups, sc.idRecall);
      if (sc.newIdRecall !== undefined) {
        push(a.newIdRec, groups, sc.newIdRecall);
        (a.perTask[task.id] ??= {}).cNew = sc.newIdRecall;
      }
    }
  }
}

/** Each system output's A, B and C tables, by group, with its latencies. */
function systemResults(run: Run): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of run.systems.flatMap(outputsOf)) {
    const a = run.acc.get(name)!;
    // Groups in task order (a system that ranks no fragments has no A/B groups).
    const groupKeys = [...new Set(run.tasks.flatMap(groupsOf))];
    const A: Record<string, RankMetrics> = {}, B: Record<string, RankMetrics> = {}, C: Record<string, unknown> = {};
    const C_budgets: Record<string, Record<string, unknown>> = {};
    for (const [b, bb] of [...a.byBudget].sort((x, y) => x[0] - y[0])) {
      C_budgets[String(b)] = Object.fromEntries(groupKeys.map((g) => [g, {
        id_recall: mean(bb.idRec.get(g)), new_id_recall: mean(bb.newIdRec.get(g)), n: bb.idRec.get(g)?.length ?? 0, n_new: bb.newIdRec.get(g)?.length ?? 0,
        latency_ms: { p50: percentile(bb.lat.get(g) ?? [], 50), p95: percentile(bb.lat.get(g) ?? [], 95), p99: percentile(bb.lat.get(g) ?? [], 99) },
      }]));
    }
    for (const g of groupKeys) {
      if (a.ranksA.has(g)) A[g] = rankMetrics(a.ranksA.get(g)!);
      if (a.ranksB.has(g)) B[g] = rankMetrics(a.ranksB.get(g)!);
      const lat = a.latCByGroup.get(g) ?? [];
      C[g] = {
        id_recall: mean(a.idRec.get(g)), new_id_recall: mean(a.newIdRec.get(g)), n: a.idRec.get(g)?.length ?? 0, n_new: a.newIdRec.get(g)?.length ?? 0,
        latency_ms: { p50: percentile(lat, 50), p95: percentile(lat, 95), p99: percentile(lat, 99) },
      };
    }
    out[name] = {
      A, B, C, C_budgets,
      latency_ms: { p50: percentile(a.latC, 50), p95: percentile(a.latC, 95), p99: percentile(a.latC, 99) },
      latency_a_ms: { p50: percentile(a.latA, 50), p95: percentile(a.latA, 95), p99: percentile(a.latA, 99) },
      index_s: Math.round(a.indexS * 10) / 10,
      per_task: a.perTask,
    };
  }
  return out;
}

/** The result file (JSON) and its tables (Markdown beside it, and on stdout). */
function writeResult(args: Args, result: Record<string, unknown>): void {
  fs.mkdirSync(path.dirname(args.out), { recursive: true });
  fs.writeFileSync(args.out, JSON.stringify(result, null, 2));
  const hyde = args.factory.hypothesis;
  if (hyde) {
    const ms = hyde.ms;
    result.hyde = { source: hyde.label, skipped: hyde.skipped, latency_ms: { p50: percentile(ms, 50), p95: percentile(ms, 95), p99: percentile(ms, 99) } };
  }
  const hydeNote = hyde?.label === 'oracle'
    ? '\n> Rows named `hyde(oracle)` were given each task\'s TRUE next lines (48 tokens) as the hypothetical continuation:\n> an upper bound on what a perfect model guess could buy, leaky by construction. Not a system, never a default.\n'
    : hyde ? `\n> Rows named \`hyde(model)\` searched a model's guess; guess latency (not in the query latency) p50 ${percentile(hyde.ms, 50)} / p95 ${percentile(hyde.ms, 95)} ms, ${hyde.skipped} skipped.\n` : '';
  const md = hydeNote + renderMarkdown(result as never) + (result.R ? renderR(result.R as never) : '') + (result.provider ? renderProvider(result.provider as never) : '') + (result.N ? renderN(result as unknown as NResult) : '');
  fs.writeFileSync(args.out.replace(/\.json$/, '') + '.md', md);
  console.log(md);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const tasks = loadTasks(args.split, { limit: args.limit, repos: args.repos });
  if ([...args.protocols].every((p) => p === 'R' || p === 'N')) return runResolutionOnly(args, tasks);
  const run = await startRun(args, tasks);
  const repoNames = [...new Set(tasks.map((t) => t.repo))];
  console.log(`bench: ${tasks.length} tasks (+${run.apiTasks.length} API tasks for protocol E), ${repoNames.length} repos, systems ${run.systems.map((s) => s.name).join(', ')}`);
  for (const repoName of repoNames) await benchRepo(run, repoName);

  const result: Record<string, unknown> = { systems: systemResults(run), repos: run.repoStats, meta: { split: args.split, tasks: tasks.length, date: new Date().toISOString(), argv: process.argv.slice(2) } };
  for (const sys of run.systems) await sys.close?.();
  if (run.dump !== undefined) fs.closeSync(run.dump);
  result.E = completionResults(run.completionAcc, false);
  if (run.suffixAcc.size) result.E_suffix = completionResults(run.suffixAcc, true);
  if (run.provider) {
    result.provider = run.providerAcc.result();
    await run.provider.close();
  }
  if (args.protocols.has('R')) result.R = await protocolR(args, repoNames);
  if (args.protocols.has('N')) Object.assign(result, await protocolN(args, tasks));
  writeResult(args, result);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
