// C++ names resolved as a compiler looks them up, over the file's #include graph (includes.ts) and
// the declarations each file holds (cppdecls.ts):
// - a bare name: the enclosing classes (members, then bases) and namespaces, innermost first, then
//   the namespaces `using namespace` brings in; inside `void A::f() {}` the class A first;
// - `a::b::name`: the namespace or class `a::b` names from each enclosing namespace outwards;
// - `x.name` / `x->name` / `this->name`: a member of the class the receiver's declared type names
//   (cpptypes.ts), or of its bases; among overloads, the ones the call can reach by its arguments'
//   count and evident types (cppoverloads.ts); in a local class's member function, its class first;
// - overloads its arguments do not tell apart, two `#if` branches, a template parameter's members,
//   an unresolved base, `auto`: not sure, so candidates; `std::` and names the repository never
//   defines: external.
import type { Node } from 'web-tree-sitter';
import type { CppEntity, CppTop } from './cppdecls';
import type { ArgKind } from './cppkinds';
import { callable, lostOverload, startsWith, type Found } from './cppoverloads';
import { argumentCount, blockUsing, callArguments, contextOf, declaredConst, qualifierOf } from './cppsyntax';

export { contextOf };
import { declarationOf, ExprTypes, innermostClass, MAX_DEPTH, type CppScopes } from './cpptypes';
import type { Binding } from './scopes';
import type { Resolution } from './types';

const CANDIDATES: Resolution = { kind: 'candidates' };
const EXTERNAL: Resolution = { kind: 'external' };
const TYPES = new Set(['class', 'alias', 'using']);

export interface CppGraph {
  /** The C++ declarations of `file` and of the headers its include graph reaches, the file first. */
  tops(file: string): Promise<CppTop[]>;
  /** Whether the repository defines the name anywhere (the chunker's definitions). */
  defined(name: string): boolean;
  /** The chunker's definitions of the name, counted per file. */
  definitionsIn(name: string): Map<string, number>;
}

export async function resolveCpp(file: string, node: Node, bindingOf: (n: Node) => Binding | undefined, graph: CppGraph): Promise<Resolution> {
  const tops = await graph.tops(file);
  if (!tops.length) return CANDIDATES;
  return new Lookup(file, [...tops], bindingOf, graph).resolve(node);
}

class Lookup implements CppScopes {
  private readonly usings: Array<{ scope: string[]; ns: string[] }>;
  private typesOnly = false;
  /** The asked name is called with this many arguments (`f(a, b)`, `x.f(a)`): overloads taking another number are not it. */
  private argc: number | undefined;
  /** What the call's arguments evidently are (cppoverloads.ts): overloads they cannot be passed to are not it. */
  private args: ArgKind[] | undefined;
  /** For each argument of a class type, the names of its class and bases (what a template may deduce from it). */
  private argClasses: Array<Set<string> | undefined> | undefined;
  /** The asked member's receiver is evidently const (true) or not (false): `data()` or `data() const`. */
  private receiverConst: boolean | undefined;
  /** The local classes read into `tops` (by where they start). */
  private readonly locals = new Set<number>();
  private readonly types = new ExprTypes(this);
  constructor(readonly file: string, private readonly tops: CppTop[], readonly bindingOf: (n: Node) => Binding | undefined, private readonly graph: CppGraph) {
    this.usings = tops.flatMap((t) => t.usings);
  }

  asTypes<T>(f: () => T): T {
    const saved = this.typesOnly;
    this.typesOnly = true;
    try {
      return f();
    } finally {
      this.typesOnly = saved;
    }
  }

  addLocal(start: number, read: () => CppTop): void {
    if (!this.locals.has(start)) this.tops.push(read());
    this.locals.add(start);
  }

  resolve(node: Node): Resolution {
    const ctx = contextOf(node);
    this.types.readLocalsAround(node);
    // A type position names a class, an enum or an alias (`struct stat s;` is not the function `stat`).
    // `~X()` names the class X, not its constructors.
    this.typesOnly = node.type === 'type_identifier' || node.parent?.type === 'destructor_name';
    this.argc = argumentCount(node);
    this.args = callArguments(node)?.map((a) => this.types.argKind(a, ctx));
    this.argClasses = this.args?.some((a) => a === 'object') ? callArguments(node)?.map((a, i) => (this.args![i] === 'object' ? this.types.argClassNames(a, ctx) : undefined)) : undefined;
    const name = node.text;
    const parent = node.parent;
    if (node.type === 'field_identifier') {
      if (parent?.type === 'field_expression' && parent.childForFieldName('field')?.id === node.id) {
        const receiver = parent.childForFieldName('argument');
        const bound = receiver?.type === 'identifier' ? this.bindingOf(receiver) : undefined;
        const declared = bound ? declarationOf(bound.node) : undefined;
        this.receiverConst = declared ? declaredConst(declared.decl, declared.type, declared.declarator) : undefined;
        const cls = this.types.typeOfExpr(receiver, ctx, 0, parent.children.some((c) => c?.type === '->'));
        return cls ? this.decide(this.inScope(name, cls, 0), name) : CANDIDATES;
      }
      if (parent?.type === 'field_initializer') return this.decide(this.inScope(name, innermostClass(ctx, this) ?? [], 0), name);
      return CANDIDATES;
    }
    const q = qualifierOf(node);
    if (q) return this.qualified(name, q, ctx);
    if (parent?.type === 'qualified_identifier' && parent.childForFieldName('scope')?.id === node.id) return CANDIDATES;
    const used = blockUsing(node);
    if (used) return this.decide(this.qualifiedFound(name, used.slice(0, -1), ctx, 0), name);
    return this.decide(this.free(name, ctx), name);
  }

  /** `q::name` from `ctx`: `q` taken from each enclosing namespace outwards, then as a type (an alias). */
  private qualified(name: string, q: { path: string[]; global: boolean }, ctx: string[]): Resolution {
    if (q.path[0] === 'std') return EXTERNAL;
    for (let k = q.global ? 0 : ctx.length; k >= 0; k--) {
      const found = this.inScope(name, [...ctx.slice(0, k), ...q.path], 0);
      if (found) return this.decide(found, name);
      if (q.global) break;
    }
    const cls = this.lookupType(q.path, ctx, 0);
    return cls ? this.decide(this.inScope(name, cls, 0), name) : this.decide(undefined, name);
  }

  /** A bare name: the enclosing scopes innermost first, then the namespaces `using namespace` names there. */
  free(name: string, ctx: string[]): Found {
    for (let k = ctx.length; k >= 0; k--) {
      const found = this.inScope(name, ctx.slice(0, k), 0);
      if (found) return found;
    }
    const seen = new Set<string>();
    const found: CppEntity[] = [];
    for (const u of this.usings) {
      if (!startsWith(ctx, u.scope) || seen.has(u.ns.join('::'))) continue;
      seen.add(u.ns.join('::'));
      const f = this.inScope(name, u.ns, 0);
      if (f === 'unsure') return f;
      if (f) found.push(...f);
    }
    return found.length ? found : undefined;
  }

  /** Declarations of `name` in the namespace or class `scope`; in a class, its bases' when it has none itself. */
  inScope(name: string, scope: string[], depth: number): Found {
    // In a type position a class's constructors are not its name (`X(X&& other)`): look for types.
    const here = this.entities(name).filter((e) => same(e.scope, scope) && (!this.typesOnly || TYPES.has(e.kind)));
    const own = here.some((e) => e.kind === 'using') ? this.throughUsings(here, name, depth) : here;
    if (own === 'unsure' || own.length || depth > MAX_DEPTH) return own === 'unsure' || own.length ? own : undefined;
    const classes = this.classesAt(scope);
    // A class's own name in its body is the class (the injected-class-name), before any base's members.
    if (this.typesOnly && scope[scope.length - 1] === name && classes.length) return classes;
    const bases = classes.flatMap((c) => c.bases ?? []);
    let found: CppEntity[] = [];
    for (const b of bases) {
      const cls = this.lookupType(b, scope.slice(0, -1), depth + 1);
      if (!cls) return 'unsure'; // a base we cannot read (a template parameter, a library class) may declare it
      const f = this.inScope(name, cls, depth + 1);
      if (f === 'unsure') return f;
      if (f) found = [...found, ...f];
    }
    return found.length ? found : undefined;
  }

  /** `using a::b;` declarations replaced by what `a::b` names from where they stand. */
  private throughUsings(here: CppEntity[], name: string, depth: number): CppEntity[] | 'unsure' {
    const out: CppEntity[] = [];
    for (const e of here) {
      if (e.kind !== 'using') out.push(e);
      else {
        const found = depth < MAX_DEPTH && e.type ? this.qualifiedFound(name, e.type.slice(0, -1), e.scope, depth + 1) : undefined;
        if (!Array.isArray(found)) return 'unsure';
        out.push(...found);
      }
    }
    return out;
  }

  /** `q::name` from `ctx`: the namespace or class `q` names from each enclosing scope outwards. */
  qualifiedFound(name: string, q: string[], ctx: string[], depth: number): Found {
    for (let k = ctx.length; k >= 0; k--) {
      const found = this.inScope(name, [...ctx.slice(0, k), ...q], depth);
      if (found) return found;
    }
    return undefined;
  }

  /** The class a type path names from `ctx` (aliases followed), as its full path. */
  lookupType(path: string[], ctx: string[], depth: number, arrow = false): string[] | undefined {
    if (depth > MAX_DEPTH || path[0] === 'std') return undefined;
    const last = path[path.length - 1];
    const outward = [...Array(ctx.length + 1).keys()].reverse().map((k) => ctx.slice(0, k));
    const used = this.usings.filter((u) => startsWith(ctx, u.scope)).map((u) => u.ns);
    for (const at of [...outward, ...used]) {
      const scope = [...at, ...path.slice(0, -1)];
      const here = this.entities(last).filter((e) => TYPES.has(e.kind) && same(e.scope, scope));
      if (!here.length) continue;
      if (here.every((e) => e.kind === 'class')) return [...scope, last];
      const alias = here.filter((e) => e.kind !== 'class');
      if (alias.length !== 1 || !alias[0].type) return undefined;
      // `->` on an alias of a smart pointer (`using ptr = std::shared_ptr<adapter<C>>`) reaches its pointee.
      if (arrow && alias[0].pointee) return this.lookupType(alias[0].pointee, alias[0].scope, depth + 1);
      // `using fmt::file;` names fmt::file as written where it stands; an alias's type is looked up from its scope.
      return this.lookupType(alias[0].type, alias[0].scope, depth + 1, arrow);
    }
    return undefined;
  }

  /** Declarations of one entity: one class body, one function signature, one variable; else not sure. */
  private decide(found: Found, name: string): Resolution {
    if (found === 'unsure') return CANDIDATES;
    if (!found) return this.graph.defined(name) ? CANDIDATES : EXTERNAL;
    const fit = this.typesOnly ? found.filter((e) => e.kind === 'class' || e.kind === 'alias') : found;
    if (!fit.length) return CANDIDATES;
    const unique = [...new Map(fit.map((e) => [`${e.def.file}:${e.def.line}:${e.def.column}`, e])).values()];
    const kinds = new Set(unique.map((e) => e.kind));
    if (kinds.size !== 1) return CANDIDATES;
    const kind = unique[0].kind;
    let pick: CppEntity | undefined;
    if (kind === 'function') unique.splice(0, unique.length, ...callable(unique, this.argc, this.receiverConst, this.args, this.argClasses));
    if (kind === 'class') {
      const full = unique.filter((e) => e.full);
      // Declared ahead only (`class basic_json;`): its body is where the parser lost it (a macro before the name), or elsewhere;
      // unless specializations are all it has (`template <…> struct impl;` then `struct impl<T, true> {…}`): the declaration is the primary.
      pick = full.length === 1 ? full[0] : !full.length && unique.length === 1 && this.specialized(unique[0]) ? unique[0] : undefined;
    } else if (kind === 'function') {
      if (new Set(unique.map((e) => e.sig)).size !== 1 || lostOverload(unique, this.entities(name), this.graph.definitionsIn(name), (scope) => this.classesAt(scope).some((c) => c.full && c.whole))) return CANDIDATES;
      const full = unique.filter((e) => e.full);
      pick = full.length <= 1 ? unique.find((e) => !e.full) ?? full[0] : undefined;
    } else pick = unique.length === 1 ? unique[0] : undefined;
    return pick ? { kind: 'defines', def: pick.def, via: 'inferred' } : CANDIDATES;
  }

  /** Whether a class has specializations (`impl<T, true>`) in its own scope. */
  private specialized(e: CppEntity): boolean {
    const name = e.def.name;
    return this.tops.some((t) => [...t.byName].some(([k, xs]) => k.startsWith(`${name}<`) && xs.some((x) => x.kind === 'class' && x.full && same(x.scope, e.scope))));
  }

  private entities(name: string): CppEntity[] {
    return this.tops.flatMap((t) => t.byName.get(name) ?? []);
  }

  classesAt(scope: string[]): CppEntity[] {
    if (!scope.length) return [];
    return this.entities(scope[scope.length - 1]).filter((e) => e.kind === 'class' && same(e.scope, scope.slice(0, -1)));
  }
}

const same = (a: string[], b: string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
