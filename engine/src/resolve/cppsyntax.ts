// Syntax cpp.ts reads around a name: the arguments a call passes, the qualifier a name is written
// with, and whether a receiver is evidently const.
import type { Node } from 'web-tree-sitter';
import { typePath } from './cppdecls';

/** How many arguments the name is called with, when it is a call's function (`f(…)`, `a::f<T>(…)`, `x.f(…)`). */
export function argumentCount(node: Node): number | undefined {
  let n = node;
  while (n.parent && /^(qualified_identifier|template_function|field_expression)$/.test(n.parent.type) && n.parent.childForFieldName(n.parent.type === 'field_expression' ? 'field' : 'name')?.id === n.id) n = n.parent;
  const call = n.parent?.type === 'call_expression' && n.parent.childForFieldName('function')?.id === n.id ? n.parent : undefined;
  return call ? argsOf(call) : undefined;
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

const SMART_POINTERS = new Set(['unique_ptr', 'shared_ptr']);

/** `std::unique_ptr<T>` / `std::shared_ptr<T>`: T's type node (what `->` reaches). */
export function smartPointee(type: Node): Node | undefined {
  const path = typePath(type);
  if (type.type !== 'qualified_identifier' || path?.length !== 2 || path[0] !== 'std' || !SMART_POINTERS.has(path[1])) return undefined;
  const arg = type.childForFieldName('name')?.childForFieldName('arguments')?.namedChildren[0];
  return arg?.type === 'type_descriptor' ? arg.childForFieldName('type') ?? undefined : undefined;
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
