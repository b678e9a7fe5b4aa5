// What a C++ expression's value is, for cpp.ts's member lookups: the class its declared type names
// (a parameter, a local, a field, a global, a local class, `std::unique_ptr<T>`'s T; aliases
// followed), what `auto x = e` is initialised with (`T()`, `new T`, a call's declared return type,
// overloads by arity), and the element of a range-for over a standard container of T or a `T[N]`.
import type { Node } from 'web-tree-sitter';
import type { CppEntity, CppTop } from './cppdecls';
import { collectCpp, declaredName, smartPointee, typePath } from './cppdecls';
import { typeKind, type ArgKind } from './cppkinds';
import { takes, type Found } from './cppoverloads';
import { argsOf, contextOf, localBlock, localScope, qualifierOf } from './cppsyntax';
import type { Binding } from './scopes';

export const MAX_DEPTH = 6;
/** Standard containers whose first template argument is what a range-for over them gives. */
const CONTAINERS = new Set(['vector', 'array', 'deque', 'list', 'forward_list', 'set', 'multiset', 'unordered_set', 'unordered_multiset', 'span', 'initializer_list']);
/** The casts whose value is of the type they name. */
const CASTS = new Set(['static_cast', 'dynamic_cast', 'const_cast', 'reinterpret_cast']);
/** Standard functions making a smart pointer to their first template argument. */
const MAKERS = new Set(['make_unique', 'make_shared']);
const DECLARATIONS = /^(parameter_declaration|optional_parameter_declaration|declaration|field_declaration|for_range_loop)$/;

/** The name lookups cpp.ts does, as expression types need them. */
export interface CppScopes {
  readonly file: string;
  bindingOf(n: Node): Binding | undefined;
  /** A bare name from `ctx`. */
  free(name: string, ctx: string[]): Found;
  /** `name` in the namespace or class `scope` (and its bases). */
  inScope(name: string, scope: string[], depth: number): Found;
  /** `q::name` from `ctx`. */
  qualifiedFound(name: string, q: string[], ctx: string[], depth: number): Found;
  /** The class a type path names from `ctx`, as its full path; `arrow`: what `->` on a value of it reaches (an alias of a smart pointer: its pointee). */
  lookupType(path: string[], ctx: string[], depth: number, arrow?: boolean): string[] | undefined;
  classesAt(scope: string[]): CppEntity[];
  /** `f()` with names looked up as types only. */
  asTypes<T>(f: () => T): T;
  /** A local class's declarations, read in once (by where it starts). */
  addLocal(start: number, read: () => CppTop): void;
}

export class ExprTypes {
  constructor(private readonly scopes: CppScopes) {}

  /** The class an expression's value is of, from declared types: `this`, a local, a parameter, a field, a global, `a.b`; `arrow`: the value `->` is applied to (a smart pointer gives its pointee). */
  typeOfExpr(e: Node | null, ctx: string[], depth: number, arrow = false): string[] | undefined {
    if (!e || depth > MAX_DEPTH) return undefined;
    if (e.type === 'this') return innermostClass(ctx, this.scopes);
    if (e.type === 'parenthesized_expression') return this.typeOfExpr(e.namedChildren[0] ?? null, ctx, depth + 1);
    if (e.type === 'pointer_expression' && e.child(0)?.type === '*') return this.typeOfExpr(e.childForFieldName('argument'), ctx, depth + 1);
    if (e.type === 'identifier') {
      const b = this.scopes.bindingOf(e);
      if (b) return b.scope.parent !== null ? this.declaredClass(b.node, ctx, depth + 1, arrow) : undefined;
      return this.typeOfVariable(this.scopes.free(e.text, ctx), depth, arrow);
    }
    if (e.type === 'field_expression') {
      const owner = this.typeOfExpr(e.childForFieldName('argument'), ctx, depth + 1);
      const field = e.childForFieldName('field');
      return this.typeOfVariable(owner && field ? this.scopes.inScope(field.text, owner, 0) : undefined, depth, arrow);
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
    // `static_cast<mock_buffer&>(buf)`: the type cast to.
    const cast = fn.type === 'template_function' && CASTS.has(fn.childForFieldName('name')?.text ?? '') ? fn.childForFieldName('arguments')?.namedChildren[0] : undefined;
    if (cast) return cast.type === 'type_descriptor' ? this.typeNamed(cast.childForFieldName('type'), ctx, depth) : undefined;
    if (fn.type === 'field_expression') {
      const owner = this.typeOfExpr(fn.childForFieldName('argument'), ctx, depth + 1);
      const field = fn.childForFieldName('field');
      return owner && field ? this.returnType(this.scopes.inScope(field.text, owner, 0), argc, depth) : undefined;
    }
    const head = fn.type === 'template_function' ? fn.childForFieldName('name') : fn;
    if (head?.type === 'identifier' && this.local(head)) return undefined; // a local: a lambda, a function pointer
    const cls = this.typeNamed(fn, ctx, depth);
    if (cls) return cls;
    const name = head?.type === 'qualified_identifier' ? declaredName(head).name : head;
    if (name?.type !== 'identifier') return undefined;
    const q = qualifierOf(name);
    if (q?.path[0] === 'std') return undefined;
    const found = q ? (q.global ? this.scopes.inScope(name.text, q.path, 0) : this.scopes.qualifiedFound(name.text, q.path, ctx, 0)) : this.scopes.free(name.text, ctx);
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
        return [...this.readLocal(spec, block), name.text];
      }
    }
    return undefined;
  }

  /** What a call's argument evidently is: a literal, `this`, a local or parameter of a built-in or pointer type. */
  argKind(a: Node, ctx: string[]): ArgKind {
    switch (a.type) {
      case 'number_literal':
        if (/^0+[uUlL]*$/.test(a.text)) return 'zero';
        return /^0[xX]/.test(a.text) || !/[.eEfF]/.test(a.text) ? 'integer' : 'floating';
      case 'char_literal': return 'integer';
      case 'true': case 'false': return 'bool';
      case 'string_literal': case 'concatenated_string': case 'raw_string_literal': return /^(L|u|U)(R?")/.test(a.text) ? 'wide-string' : 'string';
      case 'nullptr': return 'nullptr';
      case 'this': return 'pointer';
      case 'identifier': {
        const declared = this.local(a) ? declarationOf(this.scopes.bindingOf(a)!.node) : undefined;
        if (!declared) return undefined;
        const kind = typeKind(declared.type, shapeOf(declared.declarator), []);
        if (kind === 'wide-pointer') return 'pointer';
        if (kind === 'wide') return undefined;
        if (kind !== 'other' && kind !== 'deduced') return kind;
        const cls = /[pa]/.test(shapeOf(declared.declarator)) ? undefined : this.declaredClass(this.scopes.bindingOf(a)!.node, ctx, 1);
        return cls && this.convertsToNothing(cls) ? 'object' : undefined;
      }
      default: return undefined;
    }
  }

  /** The names of an `object` argument's class and of its bases (argKind said `object`): what a template could deduce from it. */
  argClassNames(a: Node, ctx: string[]): Set<string> | undefined {
    const cls = this.declaredClass(this.scopes.bindingOf(a)!.node, ctx, 1);
    const chain = cls && this.classChain(cls, 0);
    return chain ? new Set(chain.map((c) => c.path[c.path.length - 1].replace(/<.*/, ''))) : undefined;
  }

  /** Whether a class and its bases, each read whole, declare no conversion function. */
  private convertsToNothing(cls: string[]): boolean {
    return this.classChain(cls, 0)?.every((c) => c.entity.noConversions) ?? false;
  }

  /** A class and its bases, each one full body (undefined where one is not, or cannot be read). */
  private classChain(cls: string[], depth: number): Array<{ path: string[]; entity: CppEntity }> | undefined {
    const full = (this.scopes.classesAt(cls) as CppEntity[]).filter((e) => e.full);
    if (full.length !== 1 || depth > MAX_DEPTH) return undefined;
    const out = [{ path: cls, entity: full[0] }];
    for (const b of full[0].bases ?? []) {
      const base = this.scopes.lookupType(b, cls.slice(0, -1), depth + 1);
      const chain = base && this.classChain(base, depth + 1);
      if (!chain) return undefined;
      out.push(...chain);
    }
    return out;
  }

  /** Whether a name is bound in a function or template scope (a template parameter, a local), not at file level (a prototype there). */
  private local(n: Node): boolean {
    const b = this.scopes.bindingOf(n);
    return !!b && b.scope.parent !== null;
  }

  /** The local classes `node` is in, read into the lookup (a name in a local class's member function looks there first). */
  readLocalsAround(node: Node): void {
    for (let p = node.parent; p; p = p.parent) {
      const block = /^(class|struct|union)_specifier$/.test(p.type) && p.childForFieldName('body') ? localBlock(p) : undefined;
      if (block) this.readLocal(p, block);
    }
  }

  /** The declarations of the block a local class `spec` is declared in, read in once: the scope they are in. */
  private readLocal(spec: Node, block: Node): string[] {
    const scope = [...contextOf(spec), localScope(spec)];
    this.scopes.addLocal(spec.startIndex, () => collectCpp(this.scopes.file, block, scope));
    return scope;
  }

  /** The class a type node names from `ctx` (not a template parameter). */
  private typeNamed(type: Node | null, ctx: string[], depth: number): string[] | undefined {
    const path = typePath(type);
    const head = type?.type === 'template_type' || type?.type === 'template_function' ? type.childForFieldName('name') : type;
    if (!path || (head && /^(type_)?identifier$/.test(head.type) && this.local(head))) return undefined;
    const local = head && path.length === 1 ? this.localClass(head) : undefined;
    if (local) return local;
    return this.scopes.asTypes(() => this.scopes.lookupType(path, ctx, depth + 1));
  }

  /** The class the functions found return when they agree (those taking `argc` arguments). */
  private returnType(found: Found, argc: number | undefined, depth: number): string[] | undefined {
    if (!Array.isArray(found) || !found.every((e) => e.kind === 'function')) return undefined;
    const fit = argc === undefined ? found : found.filter((e) => !e.arity || takes(e, argc));
    const types = fit.map((e) => (e.ret ? this.scopes.lookupType(e.ret, e.scope, depth + 1) : undefined));
    if (!types.length || types.some((t) => !t)) return undefined;
    return new Set(types.map((t) => t!.join('::'))).size === 1 ? types[0] : undefined;
  }

  /** The class the declared type of `found` names when it is one variable (a global, a field); `arrow`: what `->` on it reaches. */
  private typeOfVariable(found: Found, depth: number, arrow = false): string[] | undefined {
    const v = Array.isArray(found) && found.length === 1 && found[0].kind === 'variable' ? found[0] : undefined;
    if (arrow && v?.pointee) return this.scopes.lookupType(v.pointee, v.scope, depth + 1);
    return v?.type ? this.scopes.lookupType(v.type, v.scope, depth + 1, arrow) : undefined;
  }

  /** The class a local's or parameter's declaration names as its type (not a template parameter); `auto x = e`: e's. */
  private declaredClass(id: Node, ctx: string[], depth: number, arrow = false): string[] | undefined {
    const declared = declarationOf(id);
    if (!declared || depth > MAX_DEPTH) return undefined;
    const { decl, type, declarator } = declared;
    const pointee = arrow ? smartPointee(type) : undefined;
    if (pointee) return this.typeNamed(pointee, ctx, depth);
    if (type.type === 'placeholder_type_specifier' && decl.type === 'declaration') return this.typeOfInitializer(declarator, ctx, depth, arrow);
    if (type.type === 'placeholder_type_specifier' && decl.type === 'for_range_loop') return this.elementClass(decl.childForFieldName('right'), ctx, depth);
    const path = typePath(type);
    if (!path) return undefined;
    const head = type.type === 'qualified_identifier' ? undefined : type.type === 'template_type' ? type.childForFieldName('name') : type;
    if (head && this.local(head)) return undefined; // `T value`: a template parameter
    return (head && path.length === 1 ? this.localClass(head) : undefined) ?? this.scopes.lookupType(path, ctx, 0, arrow);
  }

  /** `for (auto& x : xs)`: the element class of a local `std::vector<T> xs` (a standard container of T) or `T xs[N]`. */
  private elementClass(range: Node | null, ctx: string[], depth: number): string[] | undefined {
    const b = range?.type === 'identifier' ? this.scopes.bindingOf(range) : undefined;
    const declared = b && b.scope.parent !== null ? declarationOf(b.node) : undefined;
    if (!declared) return undefined;
    const { type, declarator } = declared;
    if (/^array_declarator$/.test((declarator.type === 'init_declarator' ? declarator.childForFieldName('declarator') : declarator)?.type ?? '')) return this.typeNamed(type, ctx, depth);
    const container = typePath(type);
    if (type.type !== 'qualified_identifier' || container?.length !== 2 || container[0] !== 'std' || !CONTAINERS.has(container[1])) return undefined;
    const element = type.childForFieldName('name')?.childForFieldName('arguments')?.namedChildren[0];
    return element?.type === 'type_descriptor' ? this.typeNamed(element.childForFieldName('type'), ctx, depth) : undefined;
  }

  /** `auto x = e;`, `auto& x = e;`, `auto* x = e;`: the class of `e` (`auto x{e}`, `auto x(e)` too); `arrow`: `x->`, through `std::make_unique<T>(…)`'s T. */
  private typeOfInitializer(declarator: Node, ctx: string[], depth: number, arrow = false): string[] | undefined {
    let d: Node | null = declarator;
    while (d && d.type !== 'init_declarator' && /^(pointer|reference)_declarator$/.test(d.type)) d = d.childForFieldName('declarator') ?? d.namedChildren.at(-1) ?? null;
    if (d?.type !== 'init_declarator') return undefined;
    let value = d.childForFieldName('value');
    if (value && /^(initializer_list|argument_list)$/.test(value.type) && value.namedChildren.length === 1) value = value.namedChildren[0];
    const made = value?.type === 'call_expression' ? madePointee(value) : undefined;
    if (made) return arrow ? this.typeNamed(made, ctx, depth) : undefined; // `x.get()` is the smart pointer's
    return this.typeOfExpr(value, ctx, depth + 1);
  }
}

/** `std::make_unique<T>(…)` / `std::make_shared<T>(…)`: T's type node. */
function madePointee(call: Node): Node | undefined {
  const fn = call.childForFieldName('function');
  const name = fn?.type === 'qualified_identifier' ? fn.childForFieldName('name') : undefined;
  if (fn?.childForFieldName('scope')?.text !== 'std' || name?.type !== 'template_function' || !MAKERS.has(name.childForFieldName('name')?.text ?? '')) return undefined;
  const arg = name.childForFieldName('arguments')?.namedChildren[0];
  return arg?.type === 'type_descriptor' ? arg.childForFieldName('type') ?? undefined : undefined;
}

/** A declarator's kinds as letters, outermost first (`*&x`: `pr`), as cppdecls.ts reads a parameter's. */
function shapeOf(d: Node): string {
  let shape = '';
  for (let cur: Node | null = d; cur && /^(pointer|array|function|parenthesized|reference|init)_declarator$/.test(cur.type); cur = cur.childForFieldName('declarator') ?? (cur.type === 'reference_declarator' ? cur.namedChildren.at(-1) ?? null : null)) {
    if (cur.type !== 'init_declarator') shape += cur.type[0];
  }
  return shape;
}

/** The innermost class of a context path, as a full path. */
export function innermostClass(ctx: string[], scopes: Pick<CppScopes, 'classesAt'>): string[] | undefined {
  for (let k = ctx.length; k > 0; k--) if (scopes.classesAt(ctx.slice(0, k)).length) return ctx.slice(0, k);
  return undefined;
}

/** The declaration that declares `id` (a parameter, a local, a field, a range-for variable): the node, its type and `id`'s declarator. */
export function declarationOf(id: Node): { decl: Node; type: Node; declarator: Node } | undefined {
  let decl: Node | null = id.parent;
  while (decl && !DECLARATIONS.test(decl.type)) decl = decl.parent;
  const type = decl?.childForFieldName('type');
  const declarator = decl?.childrenForFieldName('declarator').find((d) => declaredName(d).name?.id === id.id);
  return decl && type && declarator ? { decl, type, declarator } : undefined;
}
