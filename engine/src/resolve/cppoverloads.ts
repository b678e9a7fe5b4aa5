// Which of a C++ name's function declarations a call reaches, as far as its syntax shows: overloads
// taking the call's number of arguments, those its arguments can be passed to where that is evident
// (an integer or a string literal, a declared variable, `this`: no pointer to an `int` parameter, no
// integer to a pointer, no built-in value to a `basic_string_view<Char>` a template deduces:
// cppkinds.ts; no object of another class to a `std::reference_wrapper<T>`), `f()` or `f() const`
// by the receiver's constness; and whether the parser lost an overload to a macro (then none is sure).
import type { CppEntity } from './cppdecls';
import { passable, type ArgKind } from './cppkinds';

/** What a lookup found: declarations, none, or 'unsure' (a base or a scope it could not read). */
export type Found = CppEntity[] | 'unsure' | undefined;

/** Whether a function declaration is known to take `argc` arguments (its arity recorded, `argc` within it). */
export function takes(e: CppEntity, argc: number): boolean {
  return e.arity !== undefined && e.arity[0] <= argc && argc <= e.arity[1];
}

/**
 * The function declarations a call with `argc` arguments of kinds `args` on a receiver of constness `receiverConst` may reach;
 * `classes[i]`: the names of an `object` argument's class and its bases (no template deduces `reference_wrapper<T>` from another class).
 */
export function callable(unique: CppEntity[], argc: number | undefined, receiverConst: boolean | undefined, args?: readonly ArgKind[], classes?: ReadonlyArray<ReadonlySet<string> | undefined>): CppEntity[] {
  let out = unique;
  if (argc !== undefined && new Set(out.map((e) => e.sig)).size > 1) {
    const fit = out.filter((e) => takes(e, argc));
    if (fit.length) out = fit;
  }
  if (args?.some((a) => a) && new Set(out.map((e) => e.sig)).size > 1) {
    const deduces = (e: CppEntity, i: number): boolean => !e.deducedFrom?.[i] || !classes?.[i] || classes[i]!.has(e.deducedFrom[i]!);
    const fit = out.filter((e) => args.every((a, i) => passable(a, e.params?.[i]) && (a !== 'object' || deduces(e, i))));
    if (fit.length) out = fit;
  }
  // `data()` and `data() const`: a receiver evidently const or not calls one.
  if (out.length === 2 && receiverConst !== undefined && out[0].sig === out[1].sig && !out[0].constant !== !out[1].constant) {
    out = [out.find((e) => !!e.constant === receiverConst)!];
  }
  return out;
}

/**
 * Whether the repository's definitions of `name` in these declarations' files (`theirs`, per file)
 * outnumber those read (`read`: every declaration of the name): an overload the parser lost to a macro;
 * `whole(scope)`: the class `scope` names parsed without an error.
 */
export function lostOverload(found: CppEntity[], read: CppEntity[], theirs: Map<string, number>, whole: (scope: string[]) => boolean = () => false): boolean {
  // The declarations of the name read from those files in other classes and namespaces (`size` of buffer and of
  // string_view in one header) account for the rest, but not one in an enclosing scope: there a parse that lost
  // its namespace may have put an overload (unless the class the found ones are members of parsed `whole`).
  const files = new Set(found.map((e) => e.def.file));
  const seen = new Map<string, Set<string>>();
  const misplaced = (e: CppEntity): boolean => found.some((f) => e.scope.length < f.scope.length && startsWith(f.scope, e.scope) && !whole(f.scope));
  for (const e of read) if (files.has(e.def.file) && !misplaced(e)) seen.set(e.def.file, (seen.get(e.def.file) ?? new Set()).add(`${e.def.line}:${e.def.column}`));
  return [...files].some((file) => (theirs.get(file) ?? 0) > (seen.get(file)?.size ?? 0));
}

export const startsWith = (a: string[], prefix: string[]): boolean => prefix.length <= a.length && prefix.every((x, i) => x === a[i]);
