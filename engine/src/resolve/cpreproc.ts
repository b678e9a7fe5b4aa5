// Which `#if` branches of a C or C++ file a compiler on this machine reads, as far as the platform
// decides it: `#ifdef _WIN32` is false on Linux and macOS, `#if defined(__linux__)` true on Linux,
// `#elif __GNUC__ >= 4` true where GCC and clang build (clangd, the editor's own server, reads the
// same). A condition on any other macro (a build option, a config header's) stays unknown, and its
// branches all count, as before.
import type { Node } from 'web-tree-sitter';

/** Platform macros and their values on `platform` (Node's process.platform); names absent are unknown. */
export function platformMacros(platform: string): Map<string, number | undefined> {
  const m = new Map<string, number | undefined>();
  const off = ['_WIN32', '_WIN64', '__MINGW32__', '__MINGW64__', '__CYGWIN__', '_MSC_VER', '__APPLE__', '__MACH__', '__linux__', '__linux', 'linux', '__ANDROID__', '__FreeBSD__', '__NetBSD__', '__OpenBSD__', '__DragonFly__', '__sun', '_AIX', '__MVS__', '__QNX__', '__HAIKU__', '__OS400__', '__EMSCRIPTEN__'];
  for (const k of off) m.set(k, undefined);
  const on = (ks: string[]) => ks.forEach((k) => m.set(k, 1));
  if (platform === 'win32') {
    on(['_WIN32']);
    if (process.arch.endsWith('64')) on(['_WIN64']);
    for (const k of ['_MSC_VER', '__MINGW32__', '__MINGW64__']) m.delete(k); // the compiler decides: unknown
  } else {
    m.set('__GNUC__', 4); // GCC and clang
    if (platform === 'linux') on(['__linux__', '__linux', 'linux', '__unix__', '__unix', 'unix']);
    else if (platform === 'darwin') on(['__APPLE__', '__MACH__']);
    else for (const k of off) if (k !== '_WIN32' && k !== '_WIN64' && k !== '_MSC_VER') m.delete(k); // another Unix: only Windows is known off
  }
  return m;
}

/** `true`/`false` when the platform decides a preprocessor condition, else undefined. */
export function conditionValue(n: Node | null | undefined, macros: Map<string, number | undefined>): number | undefined {
  if (!n) return undefined;
  switch (n.type) {
    case 'number_literal': {
      const v = Number.parseInt(n.text.replace(/[uUlL]+$/, ''), n.text.startsWith('0x') ? 16 : 10);
      return Number.isNaN(v) ? undefined : v;
    }
    case 'identifier': return macros.has(n.text) ? macros.get(n.text) ?? 0 : undefined;
    case 'preproc_defined': {
      const id = n.namedChildren[0];
      return id && macros.has(id.text) ? (macros.get(id.text) === undefined ? 0 : 1) : undefined;
    }
    case 'parenthesized_expression': return conditionValue(n.namedChildren[0], macros);
    case 'unary_expression': {
      const v = conditionValue(n.childForFieldName('argument'), macros);
      return v === undefined || n.child(0)?.text !== '!' ? undefined : v ? 0 : 1;
    }
    case 'binary_expression': {
      const op = n.childForFieldName('operator')?.text;
      const a = conditionValue(n.childForFieldName('left'), macros);
      const b = conditionValue(n.childForFieldName('right'), macros);
      if (op === '&&') return a === 0 || b === 0 ? 0 : a !== undefined && b !== undefined ? 1 : undefined;
      if (op === '||') return (a !== undefined && a !== 0) || (b !== undefined && b !== 0) ? 1 : a === 0 && b === 0 ? 0 : undefined;
      if (a === undefined || b === undefined) return undefined;
      const cmp: Record<string, (x: number, y: number) => boolean> = { '==': (x, y) => x === y, '!=': (x, y) => x !== y, '<': (x, y) => x < y, '>': (x, y) => x > y, '<=': (x, y) => x <= y, '>=': (x, y) => x >= y };
      return cmp[op ?? ''] ? (cmp[op!](a, b) ? 1 : 0) : undefined;
    }
    default: return undefined;
  }
}

/** A preprocessor condition as data, kept past its tree's life (macroBranches.ts evaluates it). */
export type Cond = { k: 'num'; v: number } | { k: 'id'; name: string } | { k: 'defined'; name: string } | { k: 'not'; a: Cond } | { k: 'bin'; op: string; a: Cond; b: Cond } | { k: 'unknown' };
/** What a branch needs: each condition (its directive on `line`) evaluating to `want` (true: non-zero). */
export type Guard = Array<{ cond: Cond; want: boolean; line: number }>;

/** A condition's syntax as data; a macro call (`__has_include(…)`, `FMT_HAS_FEATURE(x)`) is unknown. */
export function condOf(n: Node | null | undefined): Cond {
  if (!n) return { k: 'unknown' };
  switch (n.type) {
    case 'number_literal': {
      const v = Number.parseInt(n.text.replace(/[uUlL]+$/, ''), n.text.startsWith('0x') ? 16 : 10);
      return Number.isNaN(v) ? { k: 'unknown' } : { k: 'num', v };
    }
    case 'identifier': return { k: 'id', name: n.text };
    case 'preproc_defined': return n.namedChildren[0] ? { k: 'defined', name: n.namedChildren[0].text } : { k: 'unknown' };
    case 'parenthesized_expression': return condOf(n.namedChildren[0]);
    case 'unary_expression': return n.child(0)?.text === '!' ? { k: 'not', a: condOf(n.childForFieldName('argument')) } : { k: 'unknown' };
    case 'binary_expression': return { k: 'bin', op: n.childForFieldName('operator')?.text ?? '', a: condOf(n.childForFieldName('left')), b: condOf(n.childForFieldName('right')) };
    default: return { k: 'unknown' };
  }
}

/** The condition a chain's branch tests, and whether it is negated (`#ifndef X`: defined(X), false). */
function branchCond(cur: Node): Guard[number] | undefined {
  const line = cur.startPosition.row;
  if (cur.type === 'preproc_if' || cur.type === 'preproc_elif') return { cond: condOf(cur.childForFieldName('condition')), want: true, line };
  if (cur.type !== 'preproc_ifdef' && cur.type !== 'preproc_elifdef') return undefined;
  return { cond: { k: 'defined', name: cur.childForFieldName('name')?.text ?? '' }, want: !/^#\s*(ifndef|elifndef)/.test(cur.text), line };
}

/**
 * The items of a `#if`/`#ifdef`/`#elif`/`#else` chain a compiler here reads: a branch the platform
 * rules out is skipped, a branch it decides is the only one; with an unknown condition, every
 * branch from there on counts (as a reader who does not know the build would take them).
 */
export function liveBranches(n: Node, macros: Map<string, number | undefined>, dead?: (from: number, to: number) => void, guards?: Map<number, Guard>): Node[] {
  const out: Node[] = [];
  const before: Guard = [];
  for (let cur: Node | null = n; cur;) {
    const alt: Node | null = cur.type === 'preproc_else' ? null : cur.childForFieldName('alternative');
    let v: number | undefined = 1;
    if (cur.type === 'preproc_if' || cur.type === 'preproc_elif') v = conditionValue(cur.childForFieldName('condition'), macros);
    else if (cur.type === 'preproc_ifdef' || cur.type === 'preproc_elifdef') {
      const name = cur.childForFieldName('name')?.text ?? '';
      const defined = macros.has(name) ? (macros.get(name) === undefined ? 0 : 1) : undefined;
      const negated = /^#\s*(ifndef|elifndef)/.test(cur.text);
      v = defined === undefined ? undefined : negated ? 1 - defined : defined;
    }
    if (v === 0) dead?.(cur.startIndex, alt ? alt.startIndex : cur.endIndex);
    const tested = branchCond(cur);
    if (v !== 0) {
      const skip = new Set([cur.childForFieldName('condition')?.id, cur.childForFieldName('name')?.id, alt?.id]);
      const guard = tested ? [...before, tested] : [...before];
      for (const c of cur.namedChildren) if (c && !skip.has(c.id)) out.push((guards?.set(c.id, guard), c));
    }
    if (tested) before.push({ ...tested, want: !tested.want });
    if (v !== undefined && v !== 0) {
      if (alt) dead?.(alt.startIndex, alt.endIndex);
      break; // a branch the platform takes: the rest are not read
    }
    cur = alt;
  }
  return out;
}
