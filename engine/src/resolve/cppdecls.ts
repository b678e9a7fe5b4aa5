// A C++ file's declarations as a compiler names them (cpp.ts): each with the namespaces and classes
// it is declared in (`fmt::detail::buffer`), out-of-line definitions (`void buffer<T>::f() {}`) in
// their class, functions with their parameter types (overloads apart), variables, fields and aliases
// with the type they name, classes with their bases, enumerators in their enum (and around it when
// unscoped), and the `using namespace` directives of each namespace. Every `#if` branch is read:
// two branches defining one name leave it ambiguous, which cpp.ts answers with candidates.
import type { Node } from 'web-tree-sitter';
import { makeDef } from './def';
import { typeKind, type ParamKind } from './cppkinds';
import type { DefRole, ResolvedDef } from './types';

/** `using`: a using-declaration (`using fmt::file;`), its target in `type`. */
export type CppKind = 'class' | 'alias' | 'function' | 'variable' | 'enumerator' | 'using';

export interface CppEntity {
  def: ResolvedDef;
  /** The namespaces and classes around it, outermost first. */
  scope: string[];
  kind: CppKind;
  /** A function's or class's body, not a prototype or a forward declaration. */
  full: boolean;
  /** A function's parameter types, as written: overloads differ here. */
  sig?: string;
  /** The type a variable, field or alias names (`detail::buffer<T>&` → detail, buffer). */
  type?: string[];
  /** A class body parsed without an error: none of its members can have been read elsewhere. */
  whole?: boolean;
  /** A class body read whole declares no conversion function (`operator int()`): its values convert to no built-in type by themselves. */
  noConversions?: boolean;
  /** A class's bases, as paths. */
  bases?: string[][];
  /** A function's declared return type (a trailing one after `auto`); none for `auto` alone or a template parameter. */
  ret?: string[];
  /** A function's fewest and most arguments (defaults, `...`). */
  arity?: [number, number];
  /** A `const` member function (`data() const`): the overload a const receiver calls. */
  constant?: boolean;
  /** What `->` on a variable or alias of a standard smart pointer reaches (`std::shared_ptr<adapter<C>>` → adapter). */
  pointee?: string[];
  /** A function's parameters by what arguments they accept (cppoverloads.ts). */
  params?: ParamKind[];
  /** For each `deduced` parameter, the class template it names (`std::reference_wrapper<T>` → reference_wrapper). */
  deducedFrom?: Array<string | undefined>;
}

export interface CppTop {
  byName: Map<string, CppEntity[]>;
  /** `using namespace ns;` in `scope`. */
  usings: Array<{ scope: string[]; ns: string[] }>;
}

const SPECIFIER = /^(class|struct|union)_specifier$/;
const BRANCH = /^preproc_(if|ifdef|elif|elifdef|else)$/;
const MACRO = /^[A-Z][A-Z0-9_]+$/;
/** Types spelled in capitals that are no macro (`FILE* file_;`). */
const CAPITAL_TYPES = new Set(['FILE', 'DIR']);
/** A base the parser did not read: no class has this name, so lookups through it stay unsure. */
export const UNREAD = '\0';
const DECLARATOR = /^(pointer|array|function|parenthesized|reference|init)_declarator$/;

/** `at`: the scope `root`'s declarations are in (a local class's block has one of its own). */
export function collectCpp(file: string, root: Node, at: string[] = []): CppTop {
  const top: CppTop = { byName: new Map(), usings: [] };
  const add = (name: Node | null | undefined, scope: string[], kind: CppKind, outer: Node, extra: Partial<CppEntity> = {}): void => {
    if (!name || !/^(identifier|type_identifier|field_identifier|template_type)$/.test(name.type)) return;
    const role: DefRole = kind === 'class' ? 'class' : kind === 'alias' || kind === 'using' ? 'type' : kind === 'function' ? 'function' : 'variable';
    const key = scopeName(name);
    const xs = top.byName.get(key) ?? [];
    xs.push({ def: makeDef(file, name, role, outer), scope, kind, full: true, ...extra });
    top.byName.set(key, xs);
  };
  const specifier = (spec: Node, scope: string[], outer: Node): void => {
    const name = spec.childForFieldName('name');
    const body = spec.childForFieldName('body');
    if (spec.type === 'enum_specifier') {
      add(name, scope, 'class', outer, { full: !!body });
      const scoped = spec.children.some((c) => c?.type === 'class' || c?.type === 'struct');
      for (const e of body?.namedChildren ?? []) {
        if (e?.type !== 'enumerator') continue;
        if (name) add(e.childForFieldName('name'), [...scope, name.text], 'enumerator', e);
        if (!scoped) add(e.childForFieldName('name'), scope, 'enumerator', e);
      }
      return;
    }
    // A specialization (`struct formatter<int, Char>`) is a class of its own name, as contextOf names it.
    if (!name || (name.type !== 'type_identifier' && name.type !== 'template_type')) return; // anonymous or `struct a::b` (no new name here)
    const bases = spec.namedChildren.filter((c) => c?.type === 'base_class_clause').flatMap((c) => c!.namedChildren.map((b) => typePath(b)).filter((p): p is string[] => !!p));
    add(name, scope, 'class', outer, { full: !!body, bases, ...(body && !body.hasError ? { whole: true } : {}), ...(body && !body.hasError && !conversions(body) ? { noConversions: true } : {}) });
    if (body) walk(body, [...scope, scopeName(name)]);
  };
  const walk = (block: Node, scope: string[]): void => {
    // In an ERROR the parser leaves `class X : … {` as loose tokens, its members after them: they are X's until its `}`.
    const open: string[] = [];
    const kids = block.type === 'ERROR' ? block.children : block.namedChildren;
    for (let i = 0; i < kids.length; i++) {
      const child = kids[i];
      if (!child) continue;
      if (block.type === 'ERROR') {
        const opened = classOpening(kids, i);
        if (opened) {
          add(opened.name, [...scope, ...open], 'class', opened.name, { bases: opened.bases });
          open.push(opened.name.text);
          i = opened.brace;
          continue;
        }
        if (child.type === '}' && open.length) open.pop();
        if (!child.isNamed) continue;
      }
      one(child, [...scope, ...open]);
    }
  };
  const one = (child: Node, scope: string[]): void => {
    let item = child;
    const outer = child;
    if (item.type === 'template_declaration') item = item.namedChildren.find((c) => c && c.type !== 'template_parameter_list') ?? item;
    if (BRANCH.test(item.type) || item.type === 'linkage_specification') walk(item.childForFieldName('body') ?? item, scope);
    else if (item.type === 'declaration_list' || item.type === 'ERROR') walk(item, scope);
    else if (item.type === 'namespace_definition') {
      const name = item.childForFieldName('name');
      const body = item.childForFieldName('body');
      if (body) walk(body, name ? [...scope, ...name.text.split('::').map((s) => s.trim())] : scope);
    } else if (SPECIFIER.test(item.type) || item.type === 'enum_specifier') specifier(item, scope, outer);
    else if (item.type === 'function_definition') {
      const d = item.childForFieldName('declarator');
      const fn = d && functionDeclarator(d);
      const { name, qualifier } = declaredName(d);
      add(name, qualifier ? [...scope, ...qualifier] : scope, 'function', outer, fn ? functionShape(fn, item.childForFieldName('type')) : { sig: '' });
    } else if (item.type === 'declaration' || item.type === 'field_declaration' || item.type === 'type_definition') declarators(item, scope, outer, add, specifier);
    else if (item.type === 'alias_declaration') add(item.childForFieldName('name'), scope, 'alias', outer, typed(item.childForFieldName('type')?.childForFieldName('type') ?? null));
    else if (item.type === 'using_declaration' && item.children.some((c) => c?.type === 'namespace')) {
      const ns = typePath(item.namedChildren[0] ?? null);
      if (ns) top.usings.push({ scope, ns });
    } else if (item.type === 'using_declaration') {
      // `using fmt::file;` names fmt::file here; `using Base::Base;` (inherited constructors) names no new type.
      const target = typePath(item.namedChildren[0] ?? null);
      const id = item.namedChildren[0]?.type === 'qualified_identifier' ? declaredName(item.namedChildren[0]).name : undefined;
      if (target && target.length > 1 && target.at(-1) !== target.at(-2)) add(id, scope, 'using', outer, { type: target });
    }
  };
  walk(root, at);
  return top;
}

type Add = (name: Node | null | undefined, scope: string[], kind: CppKind, outer: Node, extra?: Partial<CppEntity>) => void;

/** The names a declaration, a field or a typedef declares (and the class or enum its type defines). */
function declarators(item: Node, scope: string[], outer: Node, add: Add, specifier: (spec: Node, scope: string[], outer: Node) => void): void {
  const type = item.childForFieldName('type');
  if (type && (SPECIFIER.test(type.type) || type.type === 'enum_specifier')) specifier(type, scope, outer);
  // An anonymous union or struct declaring nothing (`union { int a; double b; };`): its members are the enclosing class's.
  const body = type && SPECIFIER.test(type.type) && !type.childForFieldName('name') ? type.childForFieldName('body') : null;
  if (body && !item.childrenForFieldName('declarator').length) for (const f of body.namedChildren) if (f?.type === 'field_declaration') declarators(f, scope, f, add, specifier);
  const alias = item.type === 'type_definition';
  // A macro the parser read as the type (`NLOHMANN_JSON_NAMESPACE_BEGIN` then `class basic_json;`), or a declaration it could not read whole: no names from it.
  if ((type?.type === 'type_identifier' && MACRO.test(type.text) && !CAPITAL_TYPES.has(type.text)) || item.hasError) return;
  for (const d of item.childrenForFieldName('declarator')) {
    if (!d) continue;
    const fn = functionDeclarator(d);
    const { name, qualifier } = declaredName(d);
    const at = qualifier ? [...scope, ...qualifier] : scope;
    if (alias) add(name, at, 'alias', outer, typed(type));
    else if (fn) add(name, at, 'function', outer, { full: false, ...functionShape(fn, type) });
    else add(name, at, 'variable', outer, typed(type));
  }
}

/** Whether a class body declares a conversion function (`operator bool() const`, `template <class T> operator T()`). */
function conversions(body: Node): boolean {
  return body.namedChildren.some((m) => {
    const item = m?.type === 'template_declaration' ? m.namedChildren.find((c) => c?.type !== 'template_parameter_list') : m;
    return !!item && /^(function_definition|declaration|field_declaration)$/.test(item.type) && item.descendantsOfType('operator_cast').length > 0;
  });
}

/** The classes an ERROR's loose `class X {` tokens hold open where its child `at` starts (as collectCpp reads them). */
export function openClasses(error: Node, at: Node): string[] {
  const open: string[] = [];
  const kids = error.children;
  for (let i = 0; i < kids.length && kids[i]!.startIndex < at.startIndex; i++) {
    const opened = classOpening(kids, i);
    if (opened) {
      open.push(opened.name.text);
      i = opened.brace;
    } else if (kids[i]?.type === '}' && open.length) open.pop();
  }
  return open;
}

/** `class X … {` as an ERROR's loose tokens from `i`: the name, the index of its `{`, and whether bases (`:`) come before it. */
function classOpening(kids: ReadonlyArray<Node | null>, i: number): { name: Node; brace: number; bases: string[][] } | undefined {
  const name = kids[i + 1];
  if (!/^(class|struct|union)$/.test(kids[i]?.type ?? '') || name?.type !== 'type_identifier') return undefined;
  let based = false;
  const bases: string[][] = [];
  for (let j = i + 2; j < kids.length && j < i + 40; j++) {
    const k = kids[j];
    if (k?.type === '{') return { name, brace: j, bases: based && !bases.length ? [[UNREAD]] : bases };
    if (k?.type === ';' || k?.type === '}' || k?.type === ')') return undefined;
    if (k?.type === ':' || k?.type === 'base_class_clause') based = true;
    // A base the tokens name (`: public buffer<T>`); anything else between `:` and `{` is a base not read.
    const path = based && k?.isNamed && k.type !== 'access_specifier' ? (k.type === 'base_class_clause' ? undefined : typePath(k)) : undefined;
    if (path) bases.push(path);
    else if (based && k?.isNamed && k.type !== 'access_specifier') bases.push(...(k.type === 'base_class_clause' ? k.namedChildren.map((b) => typePath(b) ?? [UNREAD]) : [[UNREAD]]));
  }
  return undefined;
}

/** The path a type or scope node names, template arguments left out (`detail::buffer<T>` → detail, buffer); undefined for builtins and `auto`. */
export function typePath(t: Node | null): string[] | undefined {
  if (!t) return undefined;
  switch (t.type) {
    case 'type_identifier':
    case 'namespace_identifier':
    case 'identifier':
      return [t.text];
    case 'template_type':
    case 'template_function':
      return typePath(t.childForFieldName('name'));
    case 'qualified_identifier': {
      const scope = t.childForFieldName('scope');
      const head = scope ? typePath(scope) : [];
      const rest = typePath(t.childForFieldName('name'));
      return head && rest ? [...head, ...rest] : undefined;
    }
    default:
      return undefined;
  }
}

/** The name a declarator declares and, for `A::b`, the classes or namespaces it is qualified by. */
export function declaredName(d: Node | null): { name: Node | null; qualifier?: string[] } {
  let cur = d;
  while (cur && DECLARATOR.test(cur.type)) cur = inner(cur);
  if (cur?.type !== 'qualified_identifier') return { name: cur };
  const path: string[] = [];
  while (cur?.type === 'qualified_identifier') {
    const scope = typePath(cur.childForFieldName('scope'));
    if (!scope) return { name: null };
    path.push(...scope);
    cur = cur.childForFieldName('name');
  }
  return { name: cur, qualifier: path };
}

/** The declarator inside one (`&x`: the grammar gives a reference's no field name). */
const inner = (d: Node): Node | null => d.childForFieldName('declarator') ?? (d.type === 'reference_declarator' ? d.namedChildren.at(-1) ?? null : null);

/** The function declarator a declarator is (`f(int)`, `*f(int)`), not a pointer to a function. */
function functionDeclarator(d: Node): Node | undefined {
  let cur: Node | null = d;
  while (cur && (cur.type === 'pointer_declarator' || cur.type === 'reference_declarator')) cur = inner(cur);
  return cur?.type === 'function_declarator' && cur.childForFieldName('declarator')?.type !== 'parenthesized_declarator' ? cur : undefined;
}

/** The class template a template-id type names (`std::reference_wrapper<T>` → reference_wrapper). */
function templateName(type: Node | null): string | undefined {
  const name = type?.type === 'qualified_identifier' ? type.childForFieldName('name') : type;
  return name?.type === 'template_type' ? name.childForFieldName('name')?.text : undefined;
}

/** A declared type's path, and its pointee's where it is a standard smart pointer. */
function typed(type: Node | null): Partial<CppEntity> {
  const pointee = type ? smartPointee(type) : undefined;
  const p = pointee ? typePath(pointee) : undefined;
  return { type: typePath(type), ...(p ? { pointee: p } : {}) };
}

/** The name a class or a specialization is a scope by: `formatter<int,Char>`, spaces dropped. */
export const scopeName = (name: Node): string => (name.type === 'template_type' ? name.text.replace(/\s+/g, '') : name.text);

/** A function's signature, return type and arity, from its declarator and its declaration's type. */
function functionShape(fn: Node, type: Node | null): Partial<CppEntity> {
  const params = fn.childForFieldName('parameters')?.namedChildren.filter((p) => p && p.type !== 'comment') ?? [];
  const variadic = params.some((p) => p?.type === 'variadic_parameter_declaration' || p?.type === '...');
  const fixed = params.filter((p) => p?.type === 'parameter_declaration' || p?.type === 'optional_parameter_declaration');
  const min = fixed.filter((p) => p?.type === 'parameter_declaration').length;
  // `void f(void)` takes none.
  const none = fixed.length === 1 && fixed[0]!.text.trim() === 'void';
  const trailing = fn.namedChildren.find((c) => c?.type === 'trailing_return_type')?.namedChildren[0]?.childForFieldName('type') ?? null;
  const declared = type?.type === 'placeholder_type_specifier' ? trailing : type;
  const ret = typePath(declared ?? null);
  const generic = ret && templateParams(fn).includes(ret[0]);
  const constant = fn.children.some((c) => c?.type === 'type_qualifier' && c.text === 'const');
  const own = ownTemplateParams(fn);
  const kinds = fixed.map((p) => typeKind(p!.childForFieldName('type'), declaratorShape(p!), own));
  const deducedFrom = kinds.map((k, i) => (k === 'deduced' ? templateName(fixed[i]!.childForFieldName('type')) : undefined));
  return { sig: signature(fn), ...(constant ? { constant } : {}), params: kinds, ...(deducedFrom.some((d) => d) ? { deducedFrom } : {}), arity: none ? [0, 0] : [min, variadic ? Infinity : fixed.length], ...(ret && !generic ? { ret } : {}) };
}

/** A function's parameter types, names and defaults left out: `(int, const Char&)`. */
function signature(fn: Node): string {
  const params = fn.childForFieldName('parameters')?.namedChildren ?? [];
  // Template parameters by position: `void f(const T&)` in the class is `void buffer<Char>::f(const Char&)` outside.
  const names = templateParams(fn);
  const generic = (t: string): string => (names.length ? t.replace(new RegExp(`\\b(${names.join('|')})\\b`, 'g'), '$') : t);
  return generic(params.map((p) => {
    if (!p) return '';
    const type = p.childForFieldName('type')?.text ?? p.text;
    const shape = declaratorShape(p);
    return `${p.children.filter((c) => c?.type === 'type_qualifier').map((c) => c!.text).join(' ')} ${type}${shape}`;
  }).join(','));
}

/** A parameter's declarator as the letters of its kinds, outermost first (`const T* const& p`: `rp`). */
function declaratorShape(p: Node): string {
  let shape = '';
  for (let d = p.childForFieldName('declarator'); d && DECLARATOR.test(d.type); d = inner(d)) if (d.type !== 'init_declarator') shape += d.type[0];
  return shape;
}

/** A function template's own template parameters (deduced from its arguments), not its class's. */
function ownTemplateParams(fn: Node): string[] {
  if (declaredName(fn.childForFieldName('declarator')).qualifier) return []; // out of line: the class's parameters, fixed
  let p = fn.parent;
  while (p && /^(function_definition|declaration|field_declaration|pointer_declarator|reference_declarator)$/.test(p.type)) p = p.parent;
  if (p?.type !== 'template_declaration') return [];
  return (p.childForFieldName('parameters')?.namedChildren ?? []).map((param) => param?.namedChildren.find((c) => c?.type === 'type_identifier')?.text ?? '').filter((t) => t);
}

/** The names of the template parameters around a declaration (its own and its class's). */
function templateParams(n: Node): string[] {
  const out: string[] = [];
  for (let p = n.parent; p; p = p.parent) {
    if (p.type !== 'template_declaration') continue;
    for (const param of p.childForFieldName('parameters')?.namedChildren ?? []) {
      const id = param?.namedChildren.find((c) => c?.type === 'type_identifier' || c?.type === 'identifier') ?? param?.childForFieldName('name');
      if (id && /^\w+$/.test(id.text)) out.push(id.text);
    }
  }
  return out;
}

const SMART_POINTERS = new Set(['unique_ptr', 'shared_ptr']);

/** `std::unique_ptr<T>` / `std::shared_ptr<T>`: T's type node (what `->` reaches). */
export function smartPointee(type: Node): Node | undefined {
  const path = typePath(type);
  if (type.type !== 'qualified_identifier' || path?.length !== 2 || path[0] !== 'std' || !SMART_POINTERS.has(path[1])) return undefined;
  const arg = type.childForFieldName('name')?.childForFieldName('arguments')?.namedChildren[0];
  return arg?.type === 'type_descriptor' ? arg.childForFieldName('type') ?? undefined : undefined;
}
