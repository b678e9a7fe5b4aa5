// C++ names resolved as a compiler looks them up, over the file's #include graph (includes.ts) and
// the declarations each file holds (cppdecls.ts):
// - a bare name: the enclosing classes (members, then bases) and namespaces, innermost first, then
//   the namespaces `using namespace` brings in; inside `void A::f() {}` the class A first;
// - `a::b::name`: the namespace or class `a::b` names from each enclosing namespace outwards;
// - `x.name` / `x->name` / `this->name`: a member of the class the receiver's declared type names
//   (a parameter, a local, a field, a global; aliases followed), or of its bases;
// - overloads with different parameter types, two `#if` branches, a template parameter's members,
//   an unresolved base, `auto`: not sure, so candidates; `std::` and names the repository never
//   defines: external.
import type { Node } from 'web-tree-sitter';
import type { CppEntity, CppTop } from './cppdecls';
import { declaredName, openClasses, typePath } from './cppdecls';
import type { Binding } from './scopes';
import type { Resolution } from './types';

const CANDIDATES: Resolution = { kind: 'candidates' };
const EXTERNAL: Resolution = { kind: 'external' };
const MAX_DEPTH = 6;
const DECLARATIONS = /^(parameter_declaration|optional_parameter_declaration|declaration|field_declaration|for_range_loop)$/;

type Found = CppEntity[] | 'unsure' | undefined;

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
  return new Lookup(tops, bindingOf, graph).resolve(node);
}

class Lookup {
  private readonly usings: Array<{ scope: string[]; ns: string[] }>;
  private typesOnly = false;
  constructor(private readonly tops: CppTop[], private readonly bindingOf: (n: Node) => Binding | undefined, private readonly graph: CppGraph) {
    this.usings = tops.flatMap((t) => t.usings);
  }

  resolve(node: Node): Resolution {
    const ctx = contextOf(node);
    // A type position names a class, an enum or an alias (`struct stat s;` is not the function `stat`).
    this.typesOnly = node.type === 'type_identifier';
    const name = node.text;
    const parent = node.parent;
    if (node.type === 'field_identifier') {
      if (parent?.type === 'field_expression' && parent.childForFieldName('field')?.id === node.id) {
        const cls = this.typeOfExpr(parent.childForFieldName('argument'), ctx, 0);
        return cls ? this.decide(this.inScope(name, cls, 0), name) : CANDIDATES;
      }
      if (parent?.type === 'field_initializer') return this.decide(this.inScope(name, innermostClass(ctx, this) ?? [], 0), name);
      return CANDIDATES;
    }
    const q = qualifierOf(node);
    if (q) return this.qualified(name, q, ctx);
    if (parent?.type === 'qualified_identifier' && parent.childForFieldName('scope')?.id === node.id) return CANDIDATES;
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
  private free(name: string, ctx: string[]): Found {
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
  private inScope(name: string, scope: string[], depth: number): Found {
    const own = this.entities(name).filter((e) => same(e.scope, scope));
    if (own.length || depth > MAX_DEPTH) return own.length ? own : undefined;
    const classes = this.classesAt(scope);
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

  /** The class a type path names from `ctx` (aliases followed), as its full path. */
  private lookupType(path: string[], ctx: string[], depth: number): string[] | undefined {
    if (depth > MAX_DEPTH || path[0] === 'std') return undefined;
    const last = path[path.length - 1];
    const outward = [...Array(ctx.length + 1).keys()].reverse().map((k) => ctx.slice(0, k));
    const used = this.usings.filter((u) => startsWith(ctx, u.scope)).map((u) => u.ns);
    for (const at of [...outward, ...used]) {
      const scope = [...at, ...path.slice(0, -1)];
      const here = this.entities(last).filter((e) => (e.kind === 'class' || e.kind === 'alias') && same(e.scope, scope));
      if (!here.length) continue;
      if (here.every((e) => e.kind === 'class')) return [...scope, last];
      const alias = here.filter((e) => e.kind === 'alias');
      return alias.length === 1 && alias[0].type ? this.lookupType(alias[0].type, alias[0].scope, depth + 1) : undefined;
    }
    return undefined;
  }

  /** The class an expression's value is of, from declared types: `this`, a local, a parameter, a field, a global, `a.b`. */
  private typeOfExpr(e: Node | null, ctx: string[], depth: number): string[] | undefined {
    if (!e || depth > MAX_DEPTH) return undefined;
    if (e.type === 'this') return innermostClass(ctx, this);
    if (e.type === 'parenthesized_expression') return this.typeOfExpr(e.namedChildren[0] ?? null, ctx, depth + 1);
    if (e.type === 'pointer_expression' && e.child(0)?.type === '*') return this.typeOfExpr(e.childForFieldName('argument'), ctx, depth + 1);
    if (e.type === 'identifier') {
      const b = this.bindingOf(e);
      if (b) return b.scope.parent !== null ? this.declaredClass(b.node, ctx) : undefined;
      return this.typeOfVariable(this.free(e.text, ctx), depth);
    }
    if (e.type === 'field_expression') {
      const owner = this.typeOfExpr(e.childForFieldName('argument'), ctx, depth + 1);
      const field = e.childForFieldName('field');
      return this.typeOfVariable(owner && field ? this.inScope(field.text, owner, 0) : undefined, depth);
    }
    return undefined;
  }

  /** The class the declared type of `found` names when it is one variable (a global, a field). */
  private typeOfVariable(found: Found, depth: number): string[] | undefined {
    const v = Array.isArray(found) && found.length === 1 && found[0].kind === 'variable' ? found[0] : undefined;
    return v?.type ? this.lookupType(v.type, v.scope, depth + 1) : undefined;
  }

  /** The class a local's or parameter's declaration names as its type (not a template parameter, not `auto`). */
  private declaredClass(id: Node, ctx: string[]): string[] | undefined {
    let decl: Node | null = id.parent;
    while (decl && !DECLARATIONS.test(decl.type)) decl = decl.parent;
    const type = decl?.childForFieldName('type');
    const path = typePath(type ?? null);
    if (!type || !path || !decl!.childrenForFieldName('declarator').some((d) => declaredName(d).name?.id === id.id)) return undefined;
    const head = type.type === 'qualified_identifier' ? undefined : type.type === 'template_type' ? type.childForFieldName('name') : type;
    if (head && this.bindingOf(head)) return undefined; // `T value`: a template parameter
    return this.lookupType(path, ctx, 0);
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
    if (kind === 'class') {
      const full = unique.filter((e) => e.full);
      // Declared ahead only (`class basic_json;`): its body is where the parser lost it (a macro before the name), or elsewhere.
      pick = full.length === 1 ? full[0] : undefined;
    } else if (kind === 'function') {
      if (new Set(unique.map((e) => e.sig)).size !== 1 || this.lostOverload(unique, name)) return CANDIDATES;
      const full = unique.filter((e) => e.full);
      pick = full.length <= 1 ? unique.find((e) => !e.full) ?? full[0] : undefined;
    } else pick = unique.length === 1 ? unique[0] : undefined;
    return pick ? { kind: 'defines', def: pick.def, via: 'inferred' } : CANDIDATES;
  }

  /** Whether the repository's definitions of `name` in these declarations' files outnumber them: an overload the parser lost to a macro. */
  private lostOverload(found: CppEntity[], name: string): boolean {
    const ours = new Map<string, number>();
    for (const e of found) ours.set(e.def.file, (ours.get(e.def.file) ?? 0) + 1);
    const theirs = this.graph.definitionsIn(name);
    return [...ours].some(([file, n]) => (theirs.get(file) ?? 0) > n);
  }

  private entities(name: string): CppEntity[] {
    return this.tops.flatMap((t) => t.byName.get(name) ?? []);
  }

  classesAt(scope: string[]): CppEntity[] {
    if (!scope.length) return [];
    return this.entities(scope[scope.length - 1]).filter((e) => e.kind === 'class' && same(e.scope, scope.slice(0, -1)));
  }
}

/** The innermost class of a context path, as a full path. */
function innermostClass(ctx: string[], l: Lookup): string[] | undefined {
  for (let k = ctx.length; k > 0; k--) if (l.classesAt(ctx.slice(0, k)).length) return ctx.slice(0, k);
  return undefined;
}

/** The namespaces and classes around a node, outermost first; in `void A::f() {}`, A too. */
export function contextOf(node: Node): string[] {
  const out: string[][] = [];
  for (let p = node.parent, child: Node = node; p; child = p, p = p.parent) {
    if (p.type === 'namespace_definition' && p.childForFieldName('body')?.id === child.id) {
      const name = p.childForFieldName('name');
      if (name) out.unshift(name.text.split('::').map((s) => s.trim()));
    } else if (/^(class|struct|union)_specifier$/.test(p.type) && p.childForFieldName('body')?.id === child.id) {
      const name = p.childForFieldName('name');
      if (name?.type === 'type_identifier') out.unshift([name.text]);
    } else if (p.type === 'ERROR') {
      out.unshift(openClasses(p, child));
    } else if (p.type === 'function_definition' && child.id !== p.childForFieldName('declarator')?.id) {
      const q = declaredName(p.childForFieldName('declarator')).qualifier;
      if (q) out.unshift(q);
    }
  }
  return out.flat();
}

/** For the name of `a::b::name` (or `a::b::name<T>`), the qualifier; `::name` is global. */
function qualifierOf(node: Node): { path: string[]; global: boolean } | undefined {
  let n = node;
  if (n.parent && /^template_(function|type)$/.test(n.parent.type) && n.parent.childForFieldName('name')?.id === n.id) n = n.parent;
  const path: string[] = [];
  let global = false;
  while (n.parent?.type === 'qualified_identifier' && n.parent.childForFieldName('name')?.id === n.id) {
    const scope = n.parent.childForFieldName('scope');
    const p = scope ? typePath(scope) : [];
    if (!p) return undefined;
    if (!scope) global = true;
    path.unshift(...p);
    n = n.parent;
  }
  return path.length || global ? { path, global } : undefined;
}

const same = (a: string[], b: string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
const startsWith = (a: string[], prefix: string[]): boolean => prefix.length <= a.length && prefix.every((x, i) => x === a[i]);
