// What run.ts scores a task with: protocol C's token budget, protocol E's completions (and
// E_suffix's checks), the accumulators per system output and group, and the feature dump.
import * as fs from 'fs';
import { getEncoding } from 'js-tiktoken';
import { languageFamily, type Task } from './split';
import { completionForTarget, excludedA, percentile, scoreCompletion, type Fragment } from './protocols';
import type { BenchSystem, FragmentDoc } from './systems/system';
import { FragmentSystem } from './systems/fragments';
import type { Hit } from '../../engine/src/retrieve/hybrid';
import { duplicatesSuffix, rightContextOf, unboundNames } from './suffixMetrics';
const enc = getEncoding('p50k_base');
/** Protocol C's budget (the README's); `C` in the JSON is measured at it. */
export const C_BUDGET = 1024;

/** Protocol C's budget: whole snippets while they fit, then the part of the next one that fits. */
export function cutToBudget(snippets: string[], budgetTokens: number): string {
  const parts: string[] = [];
  let used = 0;
  for (const s of snippets) {
    const toks = enc.encode(s);
    if (used + toks.length <= budgetTokens) {
      parts.push(s);
      used += toks.length;
      continue;
    }
    const room = budgetTokens - used;
    if (room > 0) parts.push(enc.decode(toks.slice(0, room)));
    break;
  }
  return parts.join('\n');
}

export interface CompletionAcc {
  em: Map<string, number[]>;
  es: Map<string, number[]>;
  offered: Map<string, number[]>;
  /** E_suffix only, per offered suggestion: it re-inserts following text (1) or not; it uses an unbound name (1) or not. */
  dup: Map<string, number[]>;
  unbound: Map<string, number[]>;
  ms: number[];
}

/** The editor's text after the cursor (E_suffix) and what the checks of suffixMetrics.ts need. */
export interface SuffixCase {
  suffix: string;
  fileText: string;
  repoDefs: ReadonlySet<string>;
}

/** Protocol E for one task: the system's completions scored against the target, under `groups`. */
export async function scoreCompletions(sys: BenchSystem, task: Task, groups: string[], completionAcc: Map<string, CompletionAcc>, timed: boolean, withSuffix?: SuffixCase): Promise<void> {
  for (const [o, c] of Object.entries(await sys.complete!(task, withSuffix?.suffix))) {
    let e = completionAcc.get(o);
    if (!e) completionAcc.set(o, (e = { em: new Map(), es: new Map(), offered: new Map(), dup: new Map(), unbound: new Map(), ms: [] }));
    const sc = scoreCompletion(completionForTarget(c.text, task.target), task.target);
    push(e.em, groups, sc.em);
    push(e.es, groups, sc.es);
    const offered = c.text.trim() ? 1 : 0;
    push(e.offered, groups, offered);
    if (withSuffix && offered) {
      const prefix = task.left_context ?? '';
      const typedLine = prefix.slice(prefix.lastIndexOf('\n') + 1);
      push(e.dup, groups, duplicatesSuffix(c.text, prefix, withSuffix.suffix, task.language === 'python') ? 1 : 0);
      push(e.unbound, groups, unboundNames(c.text, typedLine, withSuffix.fileText, withSuffix.repoDefs, task.language).length ? 1 : 0);
    }
    if (timed) e.ms.push(c.ms);
    if (withSuffix && eDumpFd !== undefined) {
      fs.writeSync(eDumpFd, JSON.stringify({ task: task.id, repo: task.repo, file: task.file, line: task.cursor.line, language: task.language, api: !timed, source: o, text: c.text, target: task.target, em: sc.em, info: c.info,
        dup: offered ? (e.dup.get(groups[0])!.at(-1) ?? 0) : 0, unbound: offered ? unboundNames(c.text, (task.left_context ?? '').slice((task.left_context ?? '').lastIndexOf('\n') + 1), withSuffix.fileText, withSuffix.repoDefs, task.language) : [] }) + '\n');
    }
  }
}

/** --e-dump's file, open while the benchmark runs. */
let eDumpFd: number | undefined;

/** Opens --e-dump's file. */
export function openEDump(file: string): void {
  eDumpFd = fs.openSync(file, 'w');
}

/** E_suffix's case for a task: its file's lines after the target, as the editor holds them. */
export function suffixCase(task: Task, fileLines: string[], repoDefs: ReadonlySet<string>): SuffixCase {
  const suffix = rightContextOf(fileLines, task);
  return { suffix, fileText: (task.left_context ?? '') + suffix, repoDefs };
}

export interface SystemAcc {
  ranksA: Map<string, number[]>;
  ranksB: Map<string, number[]>;
  idRec: Map<string, number[]>;
  newIdRec: Map<string, number[]>;
  /** Protocol C per budget (--budgets). */
  byBudget: Map<number, { idRec: Map<string, number[]>; newIdRec: Map<string, number[]>; lat: Map<string, number[]> }>;
  latA: number[];
  latC: number[];
  /** Protocol C query latency per group (language, repository). */
  latCByGroup: Map<string, number[]>;
  indexS: number;
  /** Per task id: protocol A rank of the positive (0 = not in the top 10), C new-identifier recall. */
  perTask: Record<string, { a?: number; cNew?: number }>;
}

export const groupsOf = (t: Task) => ['all', languageFamily(t.language), `repo:${t.repo}`];
export function push(m: Map<string, number[]>, keys: string[], v: number): void {
  for (const k of keys) m.set(k, [...(m.get(k) ?? []), v]);
}

export function docsFor(file: string, lines: string[], frags: Fragment[], nextId: () => number): FragmentDoc[] {
  return frags.map((f) => ({ ...f, file, id: nextId(), text: lines.slice(f.startLine, f.endLine + 1).join('\n') }));
}

/** Fused candidates kept per task in a feature dump (the positive is rarely below). */
export const FEATURE_CANDIDATES = 200;

/**
 * One JSONL line per protocol A task and system: each fused candidate's per-signal ranks and
 * scores, whether it is the positive, and whether protocol A excludes it (training/fit-fusion.py).
 */
export function dumpCandidates(fd: number, system: string, task: Task, hits: Hit[], lookup: (id: number) => FragmentDoc): void {
  const pos = task.positive_fragment;
  const cands = hits.map((h) => {
    const f = lookup(h.id);
    return { r: h.signals, v: h.values, pos: f.file === pos.file && f.startLine === pos.start_line ? 1 : 0, x: excludedA(task, f) ? 1 : 0, key: `${f.file}:${f.startLine}` };
  });
  fs.writeSync(fd, JSON.stringify({ system, task: task.id, repo: task.repo, language: task.language, cands }) + '\n');
}

export const asFragmentSystem = (s: BenchSystem): FragmentSystem | undefined => (s instanceof FragmentSystem ? s : undefined);

export const mean = (xs: number[] | undefined) => (xs?.length ? Math.round((xs.reduce((s, x) => s + x, 0) / xs.length) * 1000) / 1000 : 0);

/** Protocol E's table: each source's exact matches, edit similarity, offer rate and precision by group. */
export function completionResults(accs: Map<string, CompletionAcc>, withSuffix: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, e] of accs) {
    const groups: Record<string, unknown> = {};
    for (const g of e.em.keys()) {
      const em = e.em.get(g)!, offered = e.offered.get(g)!;
      const emOffered = em.filter((_, i) => offered[i] === 1);
      // precision: exact matches among the tasks where something was offered; the E_suffix rates are over offered suggestions too.
      groups[g] = { em: mean(em), es: mean(e.es.get(g)), offered: mean(offered), precision: mean(emOffered),
        ...(withSuffix ? { duplicated_suffix: mean(e.dup.get(g)), unbound_name: mean(e.unbound.get(g)) } : {}), n: em.length };
    }
    out[name] = { ...groups, latency_ms: { p50: percentile(e.ms, 50), p95: percentile(e.ms, 95), p99: percentile(e.ms, 99) } };
  }
  return out;
}
