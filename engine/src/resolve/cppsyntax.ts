// Syntax cpp.ts reads around a name: the arguments a call passes, the qualifier a name is written
// with, whether a receiver is evidently const, and the namespaces and classes around it.
import type { Node } from 'web-tree-sitter';
import { declaredName, openClasses, scopeName, typePath } from './cppdecls';

/** How many arguments the name is called with, when it is a call's function (`f(…)`, `a::f<T>(…)`, `x.f(…)`). */
export function argumentCount(node: Node): number | undefined {
  const call = callOf(node);
  return call ? argsOf(call) : undefined;
}

/** The arguments the name is called with (none when a pack expansion may be any number). */
export function callArguments(node: Node): Node[] | undefined {
  const call = callOf(node);
  const args = call?.childForFieldName('arguments')?.namedChildren.filter((a): a is Node => !!a && a.type !== 'comment');
  return args && !args.some((a) => a.type === 'parameter_pack_expansion') ? args : undefined;
}

/** The call whose function the name is. */
function callOf(node: Node): Node | undefined {
  let n = node;
  while (n.parent && /^(qualified_identifier|template_function|field_expression)$/.test(n.parent.type) && n.parent.childForFieldName(n.parent.type === 'field_expression' ? 'field' : 'name')?.id === n.id) n = n.parent;
  return n.parent?.type === 'call_expression' && n.parent.childForFieldName('function')?.id === n.id ? n.parent : undefined;
}

/** A call's argument count; none when a pack expansion (`args...`) may be any number. */
export function argsOf(call: Node): number | undefined {
  const args = call.childForFieldName('arguments')?.namedChildren.filter((a) => a?.type !== 'comment') ?? [];
  return args.some((a) => a?.type === 'parameter_pack_expansion') ? undefined : args.length;
}

/** For the name of `a::b::name` (or `a::b::name<T>`), the qualifier; `::name` is global. */
export function qualifierOf(node: Node): { path: string[]; global: boolean } | undefined {
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

/**
 * Whether the variable a declaration declares is evidently const (`const T& x`, `const T* p`): true; evidently
 * not (`T x`, `auto x = …`): false; `auto& x = …` (const if what it binds is): undefined.
 */
export function declaredConst(decl: Node, type: Node, declarator: Node): boolean | undefined {
  if (decl.children.some((c) => c?.type === 'type_qualifier' && c.text === 'const')) return true;
  const d = declarator.type === 'init_declarator' ? declarator.childForFieldName('declarator') ?? declarator : declarator;
  if (type.type === 'placeholder_type_specifier' && /^(reference|pointer)_declarator$/.test(d.type)) return undefined;
  return false;
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
      // A class declared in a function body is in a scope of its own there.
      if (name?.type === 'type_identifier' || name?.type === 'template_type') out.unshift(localBlock(p) ? [localScope(p), scopeName(name)] : [scopeName(name)]);
    } else if (p.type === 'ERROR') {
      out.unshift(openClasses(p, child));
    } else if (p.type === 'function_definition' && child.id !== p.childForFieldName('declarator')?.id) {
      const q = declaredName(p.childForFieldName('declarator')).qualifier;
      if (q) out.unshift(q);
    }
  }
  return out.flat();
}

/** The scope a local class's block gives it (cpp.ts reads the block's declarations into it). */
export const localScope = (spec: Node): string => `\0local:${spec.startIndex}`;

/** The function body a class specifier is declared in (`struct dispatcher {…};` there), if it is local. */
export function localBlock(spec: Node): Node | undefined {
  const at = spec.parent?.type === 'declaration' ? spec.parent : spec;
  return at.parent?.type === 'compound_statement' ? at.parent : undefined;
}

/** The target of a `using a::b;` naming `node` in a block around it, written before it (`using fmt::string_view;` in a test body). */
export function blockUsing(node: Node): string[] | undefined {
  for (let p = node.parent; p; p = p.parent) {
    if (p.type !== 'compound_statement') continue;
    for (const c of p.namedChildren) {
      if (!c || c.startIndex >= node.startIndex) break;
      if (c.type !== 'using_declaration' || c.children.some((k) => k?.type === 'namespace')) continue;
      const target = typePath(c.namedChildren[0] ?? null);
      if (target && target.length > 1 && target[target.length - 1] === node.text) return target;
    }
  }
  return undefined;
}
