// C++ names resolved as a compiler looks them up, over the file's #include graph (includes.ts) and
// the declarations each file holds (cppdecls.ts):
// - a bare name: the enclosing classes (members, then bases) and namespaces, innermost first, then
//   the namespaces `using namespace` brings in; inside `void A::f() {}` the class A first;
// - `a::b::name`: the namespace or class `a::b` names from each enclosing namespace outwards;
// - `x.name` / `x->name` / `this->name`: a member of the class the receiver's declared type names
//   (a parameter, a local, a field, a global, a local class, `std::unique_ptr<T>`'s T; aliases followed), or of its bases; `f()` or `f() const` by the receiver's constness;
// - overloads with different parameter types, two `#if` branches, a template parameter's members,
//   an unresolved base, `auto`: not sure, so candidates; `std::` and names the repository never
//   defines: external.
import type { Node } from 'web-tree-sitter';
import type { CppEntity, CppTop } from './cppdecls';
import { collectCpp, declaredName, openClasses, scopeName, typePath } from './cppdecls';
import { argsOf, argumentCount, declaredConst, qualifierOf, smartPointee } from './cppsyntax';
import type { Binding } from './scopes';
import type { Resolution } from './types';

const CANDIDATES: Resolution = { kind: 'candidates' };
const EXTERNAL: Resolution = { kind: 'external' };
const MAX_DEPTH = 6;
const TYPES = new Set(['class', 'alias', 'using']);
/** Standard containers whose first template argument is what a range-for over them gives. */
const CONTAINERS = new Set(['vector', 'array', 'deque', 'list', 'forward_list', 'set', 'multiset', 'unordered_set', 'unordered_multiset', 'span', 'initializer_list']);
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
  return new Lookup(file, [...tops], bindingOf, graph).resolve(node);
}

class Lookup {
  private readonly usings: Array<{ scope: string[]; ns: string[] }>;
  private typesOnly = false;
  /** The asked name is called with this many arguments (`f(a, b)`, `x.f(a)`): overloads taking another number are not it. */
  private argc: number | undefined;
  /** The asked member's receiver is evidently const (true) or not (false): `data()` or `data() const`. */
  private receiverConst: boolean | undefined;
  /** The local classes read into `tops` (by where they start). */
  private readonly locals = new Set<number>();
  constructor(private readonly file: string, private readonly tops: CppTop[], private readonly bindingOf: (n: Node) => Binding | undefined, private readonly graph: CppGraph) {
    this.usings = tops.flatMap((t) => t.usings);
  }

  resolve(node: Node): Resolution {
    const ctx = contextOf(node);
    // A type position names a class, an enum or an alias (`struct stat s;` is not the function `stat`).
    this.typesOnly = node.type === 'type_identifier';
    this.argc = argumentCount(node);
    const name = node.text;
    const parent = node.parent;
    if (node.type === 'field_identifier') {
      if (parent?.type === 'field_expression' && parent.childForFieldName('field')?.id === node.id) {
        const receiver = parent.childForFieldName('argument');
        const bound = receiver?.type === 'identifier' ? this.bindingOf(receiver) : undefined;
        const declared = bound ? declarationOf(bound.node) : undefined;
        this.receiverConst = declared ? declaredConst(declared.decl, declared.type, declared.declarator) : undefined;
        const cls = this.typeOfExpr(receiver, ctx, 0, parent.children.some((c) => c?.type === '->'));
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
    // In a type position a class's constructors are not its name (`X(X&& other)`): look for types.
    const here = this.entities(name).filter((e) => same(e.scope, scope) && (!this.typesOnly || TYPES.has(e.kind)));
    const own = here.some((e) => e.kind === 'using') ? this.throughUsings(here, name, depth) : here;
    if (own === 'unsure' || own.length || depth > MAX_DEPTH) return own === 'unsure' || own.length ? own : undefined;
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
  private qualifiedFound(name: string, q: string[], ctx: string[], depth: number): Found {
    for (let k = ctx.length; k >= 0; k--) {
      const found = this.inScope(name, [...ctx.slice(0, k), ...q], depth);
      if (found) return found;
    }
    return undefined;
  }

  /** The class a type path names from `ctx` (aliases followed), as its full path. */
  private lookupType(path: string[], ctx: string[], depth: number): string[] | undefined {
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
      // `using fmt::file;` names fmt::file as written where it stands; an alias's type is looked up from its scope.
      return this.lookupType(alias[0].type, alias[0].scope, depth + 1);
    }
    return undefined;
  }

  /** The class an expression's value is of, from declared types: `this`, a local, a parameter, a field, a global, `a.b`; `arrow`: the value `->` is applied to (a smart pointer gives its pointee). */
  private typeOfExpr(e: Node | null, ctx: string[], depth: number, arrow = false): string[] | undefined {
    if (!e || depth > MAX_DEPTH) return undefined;
    if (e.type === 'this') return innermostClass(ctx, this);
    if (e.type === 'parenthesized_expression') return this.typeOfExpr(e.namedChildren[0] ?? null, ctx, depth + 1);
    if (e.type === 'pointer_expression' && e.child(0)?.type === '*') return this.typeOfExpr(e.childForFieldName('argument'), ctx, depth + 1);
    if (e.type === 'identifier') {
      const b = this.bindingOf(e);
      if (b) return b.scope.parent !== null ? this.declaredClass(b.node, ctx, depth + 1, arrow) : undefined;
      return this.typeOfVariable(this.free(e.text, ctx), depth);
    }
    if (e.type === 'field_expression') {
      const owner = this.typeOfExpr(e.childForFieldName('argument'), ctx, depth + 1);
      const field = e.childForFieldName('field');
      return this.typeOfVariable(owner && field ? this.inScope(field.text, owner, 0) : undefined, depth);
    }
    // `new T(…)`, `T{…}`: a T.
    if (e.type === 'new_expression' || e.type === 'compound_literal_expression') return this.typeNamed(e.childForFieldName('type'), ctx, depth);
    if (e.type === 'call_expression') return this.typeOfCall(e, ctx, depth);
    return undefined;
  }

  /** What a call gives: `T(…)` a T, `f(…)` and `x.f(…)` the declared return type of the one `f` (or of all overloads taking that many arguments). */
  private typeOfCall(call: Node, ctx: string[], depth: number): string[] | undefined {
    const fn = call.childForFieldName('function');
    const argc = argsOf(call);
    if (!fn) return undefined;
    if (fn.type === 'field_expression') {
      const owner = this.typeOfExpr(fn.childForFieldName('argument'), ctx, depth + 1);
      const field = fn.childForFieldName('field');
      return owner && field ? this.returnType(this.inScope(field.text, owner, 0), argc, depth) : undefined;
    }
    const head = fn.type === 'template_function' ? fn.childForFieldName('name') : fn;
    if (head?.type === 'identifier' && this.bindingOf(head)) return undefined; // a local: a lambda, a function pointer
    const cls = this.typeNamed(fn, ctx, depth);
    if (cls) return cls;
    const name = head?.type === 'qualified_identifier' ? declaredName(head).name : head;
    if (name?.type !== 'identifier') return undefined;
    const q = qualifierOf(name);
    if (q?.path[0] === 'std') return undefined;
    const found = q ? (q.global ? this.inScope(name.text, q.path, 0) : this.qualifiedFound(name.text, q.path, ctx, 0)) : this.free(name.text, ctx);
    return this.returnType(found, argc, depth);
  }

  /** The class a local class declaration (`struct dispatcher {…};` in a function, before `name`) names, in a scope of its own. */
  private localClass(name: Node): string[] | undefined {
    for (let block = name.parent; block; block = block.parent) {
      if (block.type !== 'compound_statement') continue;
      for (const c of block.namedChildren) {
        if (!c || c.startIndex >= name.startIndex) break;
        const spec = c.type === 'declaration' ? c.childForFieldName('type') : c;
        if (!spec || !/^(class|struct)_specifier$/.test(spec.type) || spec.childForFieldName('name')?.text !== name.text || !spec.childForFieldName('body')) continue;
        const scope = [`\0local:${spec.startIndex}`];
        if (!this.locals.has(spec.startIndex)) this.tops.push(collectCpp(this.file, block, scope));
        this.locals.add(spec.startIndex);
        return [...scope, name.text];
      }
    }
    return undefined;
  }

  /** The class a type node names from `ctx` (not a template parameter). */
  private typeNamed(type: Node | null, ctx: string[], depth: number): string[] | undefined {
    const path = typePath(type);
    const head = type?.type === 'template_type' || type?.type === 'template_function' ? type.childForFieldName('name') : type;
    if (!path || (head && /^(type_)?identifier$/.test(head.type) && this.bindingOf(head))) return undefined;
    const local = head && path.length === 1 ? this.localClass(head) : undefined;
    if (local) return local;
    const saved = this.typesOnly;
    this.typesOnly = true;
    try {
      return this.lookupType(path, ctx, depth + 1);
    } finally {
      this.typesOnly = saved;
    }
  }

  /** The class the functions found return when they agree (those taking `argc` arguments). */
  private returnType(found: Found, argc: number | undefined, depth: number): string[] | undefined {
    if (!Array.isArray(found) || !found.every((e) => e.kind === 'function')) return undefined;
    const fit = argc === undefined ? found : found.filter((e) => !e.arity || takes(e, argc));
    const types = fit.map((e) => (e.ret ? this.lookupType(e.ret, e.scope, depth + 1) : undefined));
    if (!types.length || types.some((t) => !t)) return undefined;
    return new Set(types.map((t) => t!.join('::'))).size === 1 ? types[0] : undefined;
  }

  /** The class the declared type of `found` names when it is one variable (a global, a field). */
  private typeOfVariable(found: Found, depth: number): string[] | undefined {
    const v = Array.isArray(found) && found.length === 1 && found[0].kind === 'variable' ? found[0] : undefined;
    return v?.type ? this.lookupType(v.type, v.scope, depth + 1) : undefined;
  }

  /** The class a local's or parameter's declaration names as its type (not a template parameter); `auto x = e`: e's. */
  private declaredClass(id: Node, ctx: string[], depth: number, arrow = false): string[] | undefined {
    const declared = declarationOf(id);
    if (!declared || depth > MAX_DEPTH) return undefined;
    const { decl, type, declarator } = declared;
    const pointee = arrow ? smartPointee(type) : undefined;
    if (pointee) return this.typeNamed(pointee, ctx, depth);
    if (type.type === 'placeholder_type_specifier' && decl.type === 'declaration') return this.typeOfInitializer(declarator, ctx, depth);
    if (type.type === 'placeholder_type_specifier' && decl.type === 'for_range_loop') return this.elementClass(decl.childForFieldName('right'), ctx, depth);
    const path = typePath(type);
    if (!path) return undefined;
    const head = type.type === 'qualified_identifier' ? undefined : type.type === 'template_type' ? type.childForFieldName('name') : type;
    if (head && this.bindingOf(head)) return undefined; // `T value`: a template parameter
    return (head && path.length === 1 ? this.localClass(head) : undefined) ?? this.lookupType(path, ctx, 0);
  }

  /** `for (auto& x : xs)`: the element class of a local `std::vector<T> xs` (a standard container of T) or `T xs[N]`. */
  private elementClass(range: Node | null, ctx: string[], depth: number): string[] | undefined {
    const b = range?.type === 'identifier' ? this.bindingOf(range) : undefined;
    const declared = b && b.scope.parent !== null ? declarationOf(b.node) : undefined;
    if (!declared) return undefined;
    const { type, declarator } = declared;
    if (/^array_declarator$/.test((declarator.type === 'init_declarator' ? declarator.childForFieldName('declarator') : declarator)?.type ?? '')) return this.typeNamed(type, ctx, depth);
    const container = typePath(type);
    if (type.type !== 'qualified_identifier' || container?.length !== 2 || container[0] !== 'std' || !CONTAINERS.has(container[1])) return undefined;
    const element = type.childForFieldName('name')?.childForFieldName('arguments')?.namedChildren[0];
    return element?.type === 'type_descriptor' ? this.typeNamed(element.childForFieldName('type'), ctx, depth) : undefined;
  }

  /** `auto x = e;`, `auto& x = e;`, `auto* x = e;`: the class of `e` (`auto x{e}`, `auto x(e)` too). */
  private typeOfInitializer(declarator: Node, ctx: string[], depth: number): string[] | undefined {
    let d: Node | null = declarator;
    while (d && d.type !== 'init_declarator' && /^(pointer|reference)_declarator$/.test(d.type)) d = d.childForFieldName('declarator') ?? d.namedChildren.at(-1) ?? null;
    if (d?.type !== 'init_declarator') return undefined;
    let value = d.childForFieldName('value');
    if (value && /^(initializer_list|argument_list)$/.test(value.type) && value.namedChildren.length === 1) value = value.namedChildren[0];
    return this.typeOfExpr(value, ctx, depth + 1);
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
    if (kind === 'function' && this.argc !== undefined && new Set(unique.map((e) => e.sig)).size > 1) {
      const argc = this.argc;
      const fit = unique.filter((e) => takes(e, argc));
      if (fit.length) unique.splice(0, unique.length, ...fit);
    }
    // `data()` and `data() const`: a receiver evidently const or not calls one.
    if (kind === 'function' && unique.length === 2 && this.receiverConst !== undefined && unique[0].sig === unique[1].sig && !unique[0].constant !== !unique[1].constant) {
      unique.splice(0, 2, unique.find((e) => !!e.constant === this.receiverConst)!);
    }
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
    // The declarations of the name read from those files in other classes and namespaces (`size` of buffer and of
    // string_view in one header) account for the rest, but not one in an enclosing scope: there a parse that lost
    // its namespace may have put an overload.
    const files = new Set(found.map((e) => e.def.file));
    const read = new Map<string, Set<string>>();
    const misplaced = (e: CppEntity): boolean => found.some((f) => e.scope.length < f.scope.length && startsWith(f.scope, e.scope));
    for (const e of this.entities(name)) if (files.has(e.def.file) && !misplaced(e)) read.set(e.def.file, (read.get(e.def.file) ?? new Set()).add(`${e.def.line}:${e.def.column}`));
    const theirs = this.graph.definitionsIn(name);
    return [...files].some((file) => (theirs.get(file) ?? 0) > (read.get(file)?.size ?? 0));
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

/** The declaration that declares `id` (a parameter, a local, a field, a range-for variable): the node, its type and `id`'s declarator. */
function declarationOf(id: Node): { decl: Node; type: Node; declarator: Node } | undefined {
  let decl: Node | null = id.parent;
  while (decl && !DECLARATIONS.test(decl.type)) decl = decl.parent;
  const type = decl?.childForFieldName('type');
  const declarator = decl?.childrenForFieldName('declarator').find((d) => declaredName(d).name?.id === id.id);
  return decl && type && declarator ? { decl, type, declarator } : undefined;
}

/** Whether a function declaration is known to take `argc` arguments (its arity recorded, `argc` within it). */
function takes(e: CppEntity, argc: number): boolean {
  return e.arity !== undefined && e.arity[0] <= argc && argc <= e.arity[1];
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
      if (name?.type === 'type_identifier' || name?.type === 'template_type') out.unshift([scopeName(name)]);
    } else if (p.type === 'ERROR') {
      out.unshift(openClasses(p, child));
    } else if (p.type === 'function_definition' && child.id !== p.childForFieldName('declarator')?.id) {
      const q = declaredName(p.childForFieldName('declarator')).qualifier;
      if (q) out.unshift(q);
    }
  }
  return out.flat();
}

const same = (a: string[], b: string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
const startsWith = (a: string[], prefix: string[]): boolean => prefix.length <= a.length && prefix.every((x, i) => x === a[i]);
