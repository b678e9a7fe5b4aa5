// Which `#if` branches of a C or C++ file a compiler on this machine reads, as far as the platform
// and the compilers decide it (compilers.ts): `#ifdef _WIN32` is false on Linux and macOS, `#if
// defined(__linux__)` true on Linux, `#elif __GNUC__ >= 4` true where GCC and Clang build (clangd,
// the editor's own server, reads the same). A condition on any other macro (a build option, a
// config header's) stays unknown, and its branches all count.
import type { Node } from 'web-tree-sitter';
import { agreed, type CompilerProfile } from './compilers';
import { evaluateNow, parseCond, type Cond, type Guard, type Leaf } from './ppexpr';

export type { Cond, Guard } from './ppexpr';

/** A leaf's value under one compiler profile, where the profile alone decides it (a repository macro is not known here). */
export function profileLeaf(p: CompilerProfile): (l: Leaf) => number | undefined {
  return (l) => {
    if (l.k === 'call') return p.macros.get(l.name) === 1 ? p.builtin(l.name, l.args[0] ?? '') : undefined;
    if (!p.macros.has(l.name)) return undefined;
    const v = p.macros.get(l.name);
    return l.k === 'defined' ? +(v !== undefined) : v ?? 0;
  };
}

/** Whether every profile takes a condition's branch (1), none does (0), or they differ or cannot tell (undefined). */
export function decided(c: Cond, profiles: readonly CompilerProfile[]): number | undefined {
  return agreed(profiles, (p) => {
    const v = evaluateNow(c, profileLeaf(p));
    return v === undefined ? undefined : +(v !== 0);
  });
}

/** A directive's condition as data (its text read by ppexpr.ts). */
export const condOf = (n: Node | null | undefined): Cond => (n ? parseCond(n.text) : { k: 'unknown' });

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
export function liveBranches(n: Node, profiles: readonly CompilerProfile[], dead?: (from: number, to: number) => void, guards?: Map<number, Guard>): Node[] {
  const out: Node[] = [];
  const before: Guard = [];
  for (let cur: Node | null = n; cur;) {
    const alt: Node | null = cur.type === 'preproc_else' ? null : cur.childForFieldName('alternative');
    let v: number | undefined = 1;
    const tested = branchCond(cur);
    if (tested) {
      const d = decided(tested.cond, profiles);
      v = d === undefined ? undefined : +(d === +tested.want);
    }
    if (v === 0) dead?.(cur.startIndex, alt ? alt.startIndex : cur.endIndex);
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
