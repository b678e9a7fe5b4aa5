// Protocol N (natural language → code), what an agent's search tool is asked: for each task
// (tasks.ts: a documented function's description, its doc blanked from the corpus), does the
// system find the function's file (MRR@10, recall@5 over distinct files) and the function's
// chunk (MRR@10 over chunks)? Systems: `ripgrep` (ripgrep.ts), `bm25` and `dense` (the bench's
// systems over the chunker's chunks of the blanked copy), `engine` (the real Engine over that copy).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chunker } from '../../../engine/src/chunk';
import { Engine } from '../../../engine/src/engine';
import { searchCode } from '../../../engine/src/agentTools/searchCode';
import { MAX_RESULTS } from '../../../engine/src/agentTools/limits';
import { defaultModelDir } from '../../../engine/src/modelPaths';
import { percentile } from '../protocols';
import { LANGUAGE_EXTENSIONS, loadRepo, type LanguageFamily, type Repo, type Task } from '../split';
import type { BenchSystem, FragmentDoc } from '../systems/system';
import { Bm25System } from '../systems/bm25';
import { createSystems, weightArgs, type SystemFactoryOptions } from '../systems';
import { buildNlTasks, writeCorpusCopy, type NlTask } from './tasks';
import { chunkRank, fileRank, mrr10, recall5, type RankedUnit } from './metrics';
import { ripgrepSearch } from './ripgrep';

export const N_SYSTEMS = ['ripgrep', 'bm25', 'dense', 'engine'] as const;
/** Further systems on request (--n-systems): none yet (an engine variant goes here, sharing the engine's index). */
const N_EXTRA: string[] = [];
/** Chunks asked of the bench's chunk-ranking systems (bm25, dense): enough for 10 distinct files in nearly every answer. */
const CHUNKS_ASKED = 30;

/**
 * The engine's answer to a natural-language query: the agent tool search_code (engine/src/agentTools/searchCode.ts)
 * as an agent calls it, with its largest `limit`; its 1-based lines back to the metrics' 0-based ones.
 */
export async function engineSearch(engine: Engine, query: string): Promise<RankedUnit[]> {
  const { results } = await searchCode(engine, { query, limit: MAX_RESULTS });
  return results.map((h) => ({ file: h.path, startLine: h.startLine - 1, endLine: h.endLine - 1 }));
}

/** A query as the bench systems' task shape: no file, the query as the only line before the cursor. */
function queryTask(t: NlTask): Task {
  const none = { file: '', start_line: 0, end_line: 0 };
  return {
    id: t.id, repo: t.repo, file: '', cursor: { line: 0, character: 0 }, prefix_lines: [t.query], target: '', language: '',
    context_start_line: 0, target_end_line: 0, left_context: `${t.query}\n`, positive_fragment: none, positive_fragment_grid: none, file_line_count: 0,
  };
}

export interface NSubset { mrr10_file: number; recall5_file: number; mrr10_chunk: number | null; n: number }
type Searcher = (t: NlTask) => Promise<RankedUnit[]>;

/** A system ready for one repository's tasks: its search, whether it ranks chunks, and how to let go. */
interface Prepared { search: Searcher; chunks: boolean; close(): Promise<void> }

/** The chunker's chunks of every file of the copy, as the bench systems' documents. */
async function chunkDocs(chunker: Chunker, repo: Repo): Promise<FragmentDoc[]> {
  const docs: FragmentDoc[] = [];
  for (const f of repo.files) {
    for (const c of (await chunker.chunk(f.relPath, f.content)).chunks) {
      docs.push({ id: docs.length, file: f.relPath, startLine: c.startLine, endLine: c.endLine, text: f.lines.slice(c.startLine, c.endLine + 1).join('\n') });
    }
  }
  return docs;
}

/** A bench system (bm25, dense) over the copy's chunks. */
async function prepareBenchSystem(sys: BenchSystem, repo: Repo, docs: FragmentDoc[]): Promise<Prepared> {
  await sys.indexRepo(repo, docs);
  return {
    chunks: true,
    search: async (t) => {
      const ids = await sys.rank(queryTask(t), CHUNKS_ASKED);
      return (ids as number[]).map((id) => docs[id]);
    },
    close: async () => undefined,
  };
}

/** The real engine with its own index of the copy on disk. */
async function openEngine(repo: Repo, factory: SystemFactoryOptions): Promise<{ engine: Engine; close(): Promise<void> }> {
  const indexDir = fs.mkdtempSync(path.join(os.tmpdir(), `reporecall-benchN-index-${repo.name}-`));
  const modelDir = factory.modelDir ?? defaultModelDir();
  const engine = await Engine.open({ root: repo.root, indexDir, modelDir, dense: !!modelDir, extensions: LANGUAGE_EXTENSIONS[repo.language] }, { retrieval: { weights: weightArgs(factory.argv) } });
  await engine.indexAll();
  return { engine, close: async () => { await engine.close(); fs.rmSync(indexDir, { recursive: true, force: true }); } };
}

/** `engine` (and any variant of it in N_EXTRA: they share one engine per repository). */
function engineSystem(opened: Promise<{ engine: Engine; close(): Promise<void> }>, owner: boolean): Prepared {
  return {
    chunks: true,
    search: async (t) => engineSearch((await opened).engine, t.query),
    close: async () => { if (owner) await (await opened).close(); },
  };
}

interface Acc { file: Map<string, number[]>; chunk: Map<string, number[]>; ms: number[]; chunks: boolean }

function push(m: Map<string, number[]>, keys: string[], v: number): void {
  for (const k of keys) m.set(k, [...(m.get(k) ?? []), v]);
}

export interface NOptions {
  split: string;
  /** Repository → language family (from the split's tasks). */
  repos: Map<string, LanguageFamily>;
  systems: string[];
  factory: SystemFactoryOptions;
  /** Tasks per repository at most. */
  cap?: number;
  /** JSONL of every task's query, positive and each system's rank and first files (for reading failures). */
  dump?: string;
}

export interface NResult {
  N: Record<string, Record<string, NSubset | { p50: number; p95: number }>>;
  N_tasks: Record<string, Record<string, number>>;
}

/** Runs protocol N over the split's repositories: tasks, the blanked copy, every system, the metrics. */
export async function runProtocolN(opts: NOptions): Promise<NResult> {
  const names = opts.systems.filter((s) => [...N_SYSTEMS, ...N_EXTRA].includes(s));
  const acc = new Map<string, Acc>(names.map((s) => [s, { file: new Map(), chunk: new Map(), ms: [], chunks: s !== 'ripgrep' }]));
  const chunker = await Chunker.create();
  const benchSystems = new Map<string, BenchSystem>();
  if (names.includes('bm25')) benchSystems.set('bm25', new Bm25System());
  if (names.includes('dense')) benchSystems.set('dense', (await createSystems(['dense'], opts.factory))[0]);
  const counts: Record<string, Record<string, number>> = {};
  const dump = opts.dump ? fs.openSync(opts.dump, 'w') : undefined;
  for (const [repoName, language] of opts.repos) {
    const original = loadRepo(opts.split, repoName, language);
    const set = await buildNlTasks(original, chunker, opts.cap);
    counts[repoName] = set.counts;
    const copyRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'reporecall-benchN-'));
    writeCorpusCopy(original, set.blanked, path.join(copyRoot, 'repos', repoName));
    const repo = loadRepo(copyRoot, repoName, language);
    const docs = await chunkDocs(chunker, repo);
    const prepared = new Map<string, Prepared>();
    let opened: ReturnType<typeof openEngine> | undefined;
    for (const s of names) {
      const t0 = performance.now();
      if (s === 'ripgrep') prepared.set(s, { chunks: false, search: async (t) => (await ripgrepSearch(repo.root, t.query)).map((file) => ({ file })), close: async () => undefined });
      else if (s.startsWith('engine')) {
        const owner = !opened;
        opened ??= openEngine(repo, opts.factory);
        await opened;
        prepared.set(s, engineSystem(opened, owner));
      } else prepared.set(s, await prepareBenchSystem(benchSystems.get(s)!, repo, docs));
      console.log(`  N ${repoName}: ${s} ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    for (const task of set.tasks) {
      const groups = ['all', language, `repo:${repoName}`];
      const line: Record<string, unknown> = { id: task.id, query: task.query, file: task.file, name: task.name, lines: [task.startLine, task.endLine] };
      for (const [s, p] of prepared) {
        const t0 = performance.now();
        const ranked = await p.search(task);
        acc.get(s)!.ms.push(performance.now() - t0);
        const positive = { file: task.file, startLine: task.startLine, endLine: task.endLine };
        const fr = fileRank(ranked, positive);
        push(acc.get(s)!.file, groups, fr);
        if (p.chunks) push(acc.get(s)!.chunk, groups, chunkRank(ranked, positive));
        line[s] = { file_rank: Number.isFinite(fr) ? fr : null, top: [...new Set(ranked.map((u) => u.file))].slice(0, 3) };
      }
      if (dump !== undefined) fs.writeSync(dump, JSON.stringify(line) + '\n');
    }
    for (const p of prepared.values()) await p.close();
    fs.rmSync(copyRoot, { recursive: true, force: true });
    console.log(`  N ${repoName}: ${set.tasks.length} tasks (${JSON.stringify(set.counts)})`);
  }
  if (dump !== undefined) fs.closeSync(dump);
  await chunker.dispose();
  for (const s of benchSystems.values()) await s.close?.();
  return { N: summarize(acc), N_tasks: counts };
}

function summarize(acc: Map<string, Acc>): NResult['N'] {
  const N: NResult['N'] = {};
  for (const [s, a] of acc) {
    const out: Record<string, NSubset | { p50: number; p95: number }> = {};
    for (const [g, ranks] of a.file) {
      out[g] = { mrr10_file: mrr10(ranks), recall5_file: recall5(ranks), mrr10_chunk: a.chunks ? mrr10(a.chunk.get(g) ?? []) : null, n: ranks.length };
    }
    out.latency_ms = { p50: percentile(a.ms, 50), p95: percentile(a.ms, 95) };
    N[s] = out;
  }
  return N;
}

/** Markdown: per subset and system, the metrics, the engine's file MRR@10 over ripgrep's, and latency. */
export function renderN(r: NResult): string {
  const systems = Object.keys(r.N);
  const subsets = [...new Set(systems.flatMap((s) => Object.keys(r.N[s])))].filter((g) => g !== 'latency_ms');
  const out = ['\n## Protocol N (natural language → code)\n', '| subset | system | n | file MRR@10 | file R@5 | chunk MRR@10 | file MRR@10 / ripgrep |', '|---|---|---|---|---|---|---|'];
  for (const g of subsets) for (const s of systems) {
    const m = r.N[s][g] as NSubset | undefined;
    const rg = r.N.ripgrep?.[g] as NSubset | undefined;
    if (!m) continue;
    const ratio = rg && rg.mrr10_file > 0 ? (m.mrr10_file / rg.mrr10_file).toFixed(2) : '–';
    out.push(`| ${g} | ${s} | ${m.n} | ${m.mrr10_file.toFixed(3)} | ${m.recall5_file.toFixed(3)} | ${m.mrr10_chunk === null ? '–' : m.mrr10_chunk.toFixed(3)} | ${ratio} |`);
  }
  out.push('\n| system | query p50 ms | query p95 ms |', '|---|---|---|');
  for (const s of systems) {
    const l = r.N[s].latency_ms as { p50: number; p95: number };
    out.push(`| ${s} | ${l.p50} | ${l.p95} |`);
  }
  out.push('\n| repo | documented | too short | license | ambiguous | leaked | tasks |', '|---|---|---|---|---|---|---|');
  for (const [repo, c] of Object.entries(r.N_tasks)) out.push(`| ${repo} | ${c.documented ?? 0} | ${c.short ?? 0} | ${c.license ?? 0} | ${c.ambiguous ?? 0} | ${c.leaked ?? 0} | ${c.tasks ?? 0} |`);
  return out.join('\n') + '\n';
}
