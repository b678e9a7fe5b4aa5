// Protocols A, B and C of the benchmark README, implemented literally.
import type { Task } from './split';
import { splitLines } from './split';

export interface Fragment {
  file: string;
  startLine: number;
  endLine: number;
}

export const fragmentKey = (f: Fragment): string => `${f.file}:${f.startLine}`;

/** File-aligned grid: [0,19], [20,39], … */
export function gridFragments(file: string, n: number, size = 20): Fragment[] {
  const out: Fragment[] = [];
  for (let s = 0; s < n; s += size) out.push({ file, startLine: s, endLine: Math.min(s + size - 1, n - 1) });
  return out;
}

/** Protocol A's task-file split: [L+20j, L+20j+19] ∩ [0, n-1]. */
export function cursorAlignedFragments(file: string, n: number, L: number, size = 20): Fragment[] {
  const out: Fragment[] = [];
  const first = L % size === 0 ? 0 : (L % size) - size;
  for (let s = first; s < n; s += size) {
    const start = Math.max(0, s);
    const end = Math.min(s + size - 1, n - 1);
    if (end >= start) out.push({ file, startLine: start, endLine: end });
  }
  return out;
}

/** Protocol A exclusion: task-file fragments that overlap the query window [ctxStart, L-1]. */
export function excludedA(task: Task, f: Fragment): boolean {
  return f.file === task.file && f.endLine <= task.cursor.line - 1 && f.endLine >= task.context_start_line;
}

/** Protocol B exclusion: task-file fragments other than the positive that overlap the query window. */
export function excludedB(task: Task, f: Fragment): boolean {
  if (f.file !== task.file) return false;
  if (f.startLine === task.positive_fragment_grid.start_line) return false;
  return f.startLine <= task.cursor.line - 1 && f.endLine >= task.context_start_line;
}

/** 1-based rank of the positive among the first 10 distinct, non-excluded fragments (Infinity if absent). */
export function rankOfPositive(ranked: Fragment[], task: Task, protocol: 'A' | 'B'): number {
  const pos = protocol === 'A' ? task.positive_fragment : task.positive_fragment_grid;
  const excluded = protocol === 'A' ? excludedA : excludedB;
  const seen = new Set<string>();
  let r = 0;
  for (const f of ranked) {
    if (excluded(task, f)) continue;
    const key = fragmentKey(f);
    if (seen.has(key)) continue;
    seen.add(key);
    r++;
    if (f.file === pos.file && f.startLine === pos.start_line) return r;
    if (r >= 10) break;
  }
  return Infinity;
}

export interface RankMetrics {
  r1: number;
  r3: number;
  r5: number;
  r10: number;
  mrr10: number;
  n: number;
}

export function rankMetrics(ranks: number[]): RankMetrics {
  const n = ranks.length;
  const at = (k: number) => (n ? ranks.filter((r) => r <= k).length / n : 0);
  const mrr = n ? ranks.reduce((s, r) => s + (r <= 10 ? 1 / r : 0), 0) / n : 0;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return { r1: round(at(1)), r3: round(at(3)), r5: round(at(5)), r10: round(at(10)), mrr10: round(mrr), n };
}

// ---- Protocol C: identifier recall of the retrieved context -------------------------------------

const IDENT = /[A-Za-z_$][A-Za-z0-9_$]*/g;

const PYTHON_KEYWORDS = new Set(
  ('False None True and as assert async await break class continue def del elif else except finally for from ' +
    'global if import in is lambda nonlocal not or pass raise return try while with yield match case self').split(' '),
);
const TS_KEYWORDS = new Set(
  ('break case catch class const continue debugger default delete do else enum export extends false finally for ' +
    'function if import in instanceof new null return super switch this throw true try typeof var void while with ' +
    'as implements interface let package private protected public static yield any boolean constructor declare get ' +
    'module require number set string symbol type from of async await undefined never unknown readonly keyof ' +
    'abstract satisfies infer is asserts override accessor object bigint self').split(' '),
);

const words = (s: string) => new Set(s.split(/\s+/).filter(Boolean));
// The reserved words of each language added by ../bench-langs (its README: "the reserved words of the
// task's language"), plus `self`/`this` as protocol C says. Predeclared names (Go's `nil`, `int`) are not
// reserved and count as identifiers.
const JS_KEYWORDS = words(
  'await break case catch class const continue debugger default delete do else enum export extends false finally for ' +
  'function if import in instanceof new null return super switch this throw true try typeof var void while with yield ' +
  'let static implements interface package private protected public self',
);
const GO_KEYWORDS = words(
  'break case chan const continue default defer else fallthrough for func go goto if import interface map package range ' +
  'return select struct switch type var self this',
);
const RUST_KEYWORDS = words(
  'as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut pub ' +
  'ref return self Self static struct super trait true type unsafe use where while abstract become box do final macro ' +
  'override priv typeof unsized virtual yield try gen this',
);
const JAVA_KEYWORDS = words(
  'abstract assert boolean break byte case catch char class const continue default do double else enum extends final ' +
  'finally float for goto if implements import instanceof int interface long native new package private protected public ' +
  'return short static strictfp super switch synchronized this throw throws transient try void volatile while true false ' +
  'null var yield record sealed permits _ self',
);
const C_KEYWORDS = words(
  'auto break case char const continue default do double else enum extern float for goto if inline int long register ' +
  'restrict return short signed sizeof static struct switch typedef union unsigned void volatile while _Bool _Complex ' +
  '_Imaginary _Alignas _Alignof _Atomic _Generic _Noreturn _Static_assert _Thread_local alignas alignof bool constexpr ' +
  'false nullptr static_assert thread_local true typeof typeof_unqual self this',
);
const CPP_KEYWORDS = words(
  'alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t char32_t class compl ' +
  'concept const consteval constexpr constinit const_cast continue co_await co_return co_yield decltype default delete ' +
  'do double dynamic_cast else enum explicit export extern false float for friend goto if inline int long mutable ' +
  'namespace new noexcept not not_eq nullptr operator or or_eq private protected public register reinterpret_cast ' +
  'requires return short signed sizeof static static_assert static_cast struct switch template this thread_local throw ' +
  'true try typedef typeid typename union unsigned using virtual void volatile wchar_t while xor xor_eq self',
);

/** Protocol C's keyword list for a task's VS Code language id. */
export function keywordsOf(language: string): ReadonlySet<string> {
  switch (language) {
    case 'python': return PYTHON_KEYWORDS;
    case 'typescript': case 'typescriptreact': return TS_KEYWORDS;
    case 'javascript': case 'javascriptreact': return JS_KEYWORDS;
    case 'go': return GO_KEYWORDS;
    case 'rust': return RUST_KEYWORDS;
    case 'java': return JAVA_KEYWORDS;
    case 'c': return C_KEYWORDS;
    case 'cpp': return CPP_KEYWORDS;
    default: throw new Error(`no keyword list for language '${language}'`);
  }
}

export function identifierSet(text: string, language: string): Set<string> {
  const kw = keywordsOf(language);
  const out = new Set<string>();
  for (const m of text.match(IDENT) ?? []) if (!kw.has(m)) out.add(m);
  return out;
}

export interface ContextScore {
  idRecall?: number;
  newIdRecall?: number;
}

/** Scores one task's context: identifier recall over I, new-identifier recall over N. */
export function scoreContext(task: Task, context: string): ContextScore {
  const I = identifierSet(task.target, task.language);
  if (I.size === 0) return {};
  const leftLines = splitLines(task.left_context);
  const recent = identifierSet(leftLines.slice(-20).join('\n'), task.language);
  const N = [...I].filter((x) => !recent.has(x));
  const ctx = identifierSet(context, task.language);
  const hit = (xs: Iterable<string>) => {
    let h = 0, n = 0;
    for (const x of xs) { n++; if (ctx.has(x)) h++; }
    return h / n;
  };
  return { idRecall: hit(I), newIdRecall: N.length ? hit(N) : undefined };
}

export function percentile(xs: number[], p: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return Math.round(s[i] * 100) / 100;
}

// ---- Protocol E: completion quality -------------------------------------------------------------

export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

/** Exact match and edit similarity of a completion against the target, both stripped. */
export function scoreCompletion(completion: string, target: string): { em: number; es: number } {
  const c = completion.trim(), t = target.trim();
  const max = Math.max(c.length, t.length);
  return { em: c === t ? 1 : 0, es: max === 0 ? 1 : 1 - levenshtein(c, t) / max };
}

/**
 * What protocol E compares with a target of `n` lines: the completion's first `n` lines (RepoEval's
 * rule: a line task takes the first line of a longer completion, as accepting one line in the
 * editor does; an API task as many lines as its target).
 */
export function completionForTarget(completion: string, target: string): string {
  return completion.split('\n').slice(0, target.split('\n').length).join('\n');
}

/** Protocol E's left context of an API task (`left_context` is null there): the first L lines + "\n". */
export function apiLeftContext(fileLines: string[], line: number): string {
  return fileLines.slice(0, line).join('\n') + '\n';
}
