// Reading the syntax around a name for the resolver (resolver.ts): member accesses, receivers,
// the class around a `self`/`this`, imports, and the type a variable or parameter is declared
// with (a constructor call, an annotation).
import type { Node } from 'web-tree-sitter';
import type { LocalScopes } from './scopes';
import { classInfo, ecmaImport, makeDef, pythonImport, type ImportRef } from './summary';
import { exprChain, typeRef } from './values';
import { thisConstructor } from './commonjs';
import type { Chain, ClassInfo, Resolution, ResolvedDef } from './types';

/** What the name at the cursor asks of the module graph, read from the tree before any await. */
export type Plan =
  | { t: 'done'; r: Resolution }
  | { t: 'top'; name: string }
  | { t: 'import'; ref: ImportRef }
  | { t: 'member'; of: ClassInfo; name: string; basesOnly?: boolean }
  | { t: 'path'; path: string[]; name: string }
  /** ECMAScript: a member of the value a chain evaluates to (values.ts). */
  | { t: 'chain'; chain: Chain; name: string };

export const CANDIDATES: Resolution = { kind: 'candidates' };
const CLASS_TYPES = new Set(['class_definition', 'class_declaration', 'abstract_class_declaration', 'class']);
const THIS_REBINDERS = new Set(['function_declaration', 'function_expression', 'generator_function', 'generator_function_declaration']);

export function isMemberName(node: Node, parent: Node, python: boolean): boolean {
  if (python) return parent.type === 'attribute' && parent.childForFieldName('attribute')?.id === node.id;
  if (parent.type === 'nested_type_identifier') return parent.childForFieldName('name')?.id === node.id;
  return parent.type === 'member_expression' && parent.childForFieldName('property')?.id === node.id;
}

/** The class whose body holds `node` (for `this`: none when a `function` rebinds it first). */
export function enclosingClass(node: Node, python: boolean): Node | undefined {
  for (let p = node.parent; p; p = p.parent) {
    if (CLASS_TYPES.has(p.type)) return p;
    if (!python && THIS_REBINDERS.has(p.type)) return undefined;
    if (!python && p.type === 'method_definition' && p.parent?.type !== 'class_body') return undefined;
  }
  return undefined;
}

/** `a.b.c` as names, or undefined when the receiver is not a dotted name. */
export function dottedPath(n: Node): string[] | undefined {
  if (n.type === 'identifier') return [n.text];
  if (n.type === 'attribute' || n.type === 'member_expression') {
    const obj = n.childForFieldName('object');
    const prop = n.childForFieldName(n.type === 'attribute' ? 'attribute' : 'property');
    const head = obj && dottedPath(obj);
    return head && prop ? [...head, prop.text] : undefined;
  }
  return undefined;
}

export function leftmost(n: Node): Node {
  let cur = n;
  while (cur.type === 'attribute' || cur.type === 'member_expression') cur = cur.childForFieldName('object')!;
  return cur;
}

const IMPORT_STATEMENTS = /^(import_statement|import_from_statement|future_import_statement)$/;

/** The import a binding identifier comes from. */
export function importRefAt(id: Node, python: boolean): ImportRef | undefined {
  let stmt: Node | null = id;
  while (stmt && !IMPORT_STATEMENTS.test(stmt.type)) stmt = stmt.parent;
  if (!stmt) return undefined;
  return (python ? pythonImport(stmt) : ecmaImport(stmt)).find((r) => r.local === id.text);
}

/** A name inside an import statement: the module it names, or the imported definition. */
export function importPlan(node: Node, python: boolean): Plan | undefined {
  let stmt: Node | null = node.parent;
  let inModule = false;
  while (stmt && !IMPORT_STATEMENTS.test(stmt.type) && stmt.type !== 'export_statement') {
    if (python && stmt.type === 'relative_import') inModule = true;
    stmt = stmt.parent;
  }
  if (!stmt) return undefined;
  if (stmt.type === 'export_statement') {
    const source = stmt.childForFieldName('source');
    if (!source || node.parent?.type !== 'export_specifier') return undefined;
    const spec = node.parent;
    return { t: 'import', ref: { local: node.text, imported: spec.childForFieldName('name')!.text, source: source.text.replace(/^['"]|['"]$/g, '') } };
  }
  const refs = python ? pythonImport(stmt) : ecmaImport(stmt);
  const moduleName = python ? stmt.childForFieldName('module_name') : undefined;
  if (inModule || (moduleName && node.startIndex >= moduleName.startIndex && node.endIndex <= moduleName.endIndex)) {
    return { t: 'import', ref: { local: node.text, imported: '*', source: moduleName!.text } };
  }
  const ref = refs.find((r) => r.local === node.text) ?? refs.find((r) => r.imported === node.text || r.imported.split('.').pop() === node.text);
  if (!ref) return { t: 'done', r: CANDIDATES };
  // `import a.b.c`: a segment names a module.
  if (python && stmt.type === 'import_statement') return { t: 'import', ref: { ...ref, imported: '*' } };
  return { t: 'import', ref };
}

/**
 * The class a variable or parameter holds, as a dotted name, when its declaration says so: an
 * annotation (`c: Context`, `x: mod.Foo`), else a constructor call (`new Hono()`, `Foo(...)`).
 * Only the binding's own declaration is read (a later assignment is not followed).
 */
export function declaredType(id: Node, python: boolean): string[] | undefined {
  const decl = id.parent;
  if (!decl) return undefined;
  if (python) {
    const isTarget = decl.type === 'assignment' && decl.childForFieldName('left')?.id === id.id;
    const isParam = (decl.type === 'typed_parameter' || decl.type === 'typed_default_parameter') && decl.namedChildren[0]?.id === id.id;
    if (!isTarget && !isParam) return undefined;
    const annotated = typePath(decl.childForFieldName('type')?.namedChildren[0]);
    if (annotated || !isTarget) return annotated;
    const value = decl.childForFieldName('right');
    const fn = value?.type === 'call' ? value.childForFieldName('function') : undefined;
    return fn ? dottedPath(fn) : undefined;
  }
  const named = decl.childForFieldName(decl.type === 'variable_declarator' ? 'name' : 'pattern');
  if (named?.id !== id.id || !/^(variable_declarator|required_parameter|optional_parameter)$/.test(decl.type)) return undefined;
  const annotated = typePath(decl.childForFieldName('type')?.namedChildren[0]);
  if (annotated) return annotated;
  const value = decl.type === 'variable_declarator' ? decl.childForFieldName('value') : undefined;
  const ctor = value?.type === 'new_expression' ? value.childForFieldName('constructor') : undefined;
  return ctor ? dottedPath(ctor) : undefined;
}

/** `Foo`, `mod.Foo`, `Foo<T>` as a dotted name. */
function typePath(t: Node | null | undefined): string[] | undefined {
  if (!t) return undefined;
  if (t.type === 'type_identifier' || t.type === 'identifier') return [t.text];
  if (t.type === 'generic_type') return typePath(t.childForFieldName('name'));
  if (t.type === 'nested_type_identifier') return t.text.split('.');
  if (t.type === 'attribute') return dottedPath(t);
  return undefined;
}

/** Parents of which a name that is not the first part is a qualified name's member (`a::b`, `pkg.T`, `obj.field`). */
const QUALIFIED = /^(scoped_identifier|scoped_type_identifier|qualified_identifier|qualified_type|field_access|field_expression|selector_expression)$/;
/** How many locals a chain's head may go through (`const b = a.x; const c = b.y`). */
const MAX_HEAD_DEPTH = 8;
/** TypeScript namespaces: their body's declarations are module members, not locals. */
export const NAMESPACES = new Set(['internal_module', 'module']);
const NAMESPACE_ROLES: Record<string, ResolvedDef['role']> = { function: 'function', class: 'class', type: 'type', namespace: 'module', var: 'variable', import: 'variable' };

/** A name that is a qualified name's or a member access's last part (`a::b`, `pkg.T`, `obj.field`, `obj.method()`). */
export function isQualifiedMember(node: Node): boolean {
  const parent = node.parent;
  if (parent && QUALIFIED.test(parent.type) && parent.namedChildren[0]?.id !== node.id) return true;
  return parent?.type === 'method_invocation' && !!parent.childForFieldName('object') && parent.childForFieldName('name')?.id === node.id;
}

/** A declaration in a namespace's body, its statement (with `export`) as the definition. */
export function namespaceMember(file: string, id: Node, body: Node, kind: string): ResolvedDef {
  let outer = id;
  while (outer.parent && outer.parent.id !== body.id) outer = outer.parent;
  return makeDef(file, id, NAMESPACE_ROLES[kind] ?? 'variable', outer);
}

/** A chain's head in the live file: `this`, a module-level name or import, or a local whose declaration says what it holds. */
export function headChain(file: string, id: Node, scopes: LocalScopes, depth: number): Chain | undefined {
  if (id.type === 'this') {
    const cls = enclosingClass(id, false);
    const info = cls && classInfo(file, cls, false);
    const ctor = info ? undefined : thisConstructor(id); // `var self = this` in a constructor function's method
    return info ? [{ k: 'def', def: info.def }] : ctor ? [{ k: 'name', name: ctor }] : undefined;
  }
  const b = scopes.bindingOf(id);
  if (!b || b.scope.parent === null) return [{ k: 'name', name: id.text }];
  if (b.kind === 'import') {
    const ref = importRefAt(b.node, false);
    return ref && [{ k: 'import', source: ref.source, imported: ref.imported }];
  }
  if ((b.kind !== 'var' && b.kind !== 'parameter') || depth > MAX_HEAD_DEPTH) return undefined;
  const decl = b.node.parent;
  const own = decl?.childForFieldName(decl.type === 'variable_declarator' ? 'name' : 'pattern');
  if (!decl || own?.id !== b.node.id || !/^(variable_declarator|required_parameter|optional_parameter)$/.test(decl.type)) return undefined;
  const type = typeRef(decl.childForFieldName('type'));
  if (type) return [{ k: 'type', path: type }];
  const value = decl.type === 'variable_declarator' ? decl.childForFieldName('value') : undefined;
  return value ? exprChain(value, (h) => headChain(file, h, scopes, depth + 1)) : undefined;
}
