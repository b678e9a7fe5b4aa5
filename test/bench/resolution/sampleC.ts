// Protocol R's strata for C and C++ (sample.ts): which tree-sitter names are references, and of
// what kind. A name a declarator, a parameter, a struct/enum/class body, an enumerator or a macro
// definition introduces is a declaration, not a reference.
import type { Node } from 'web-tree-sitter';
import type { SyntaxKind } from './sample';

/** Declarator wrappers whose `declarator` field carries the declared name up to its declaration. */
const DECLARATOR = /^(pointer|array|function|parenthesized|reference|init|abstract_.*)_declarator$|^init_declarator$/;
/** Nodes whose `declarator` field is a declaration's name. */
const DECLARES = new Set(['declaration', 'init_declarator', 'parameter_declaration', 'optional_parameter_declaration', 'variadic_parameter_declaration', 'field_declaration', 'function_definition', 'type_definition', 'friend_declaration', 'template_declaration']);
/** Nodes whose `name` field declares. */
const NAMED = new Set(['enumerator', 'preproc_def', 'preproc_function_def', 'namespace_definition', 'namespace_alias_definition', 'alias_declaration', 'type_parameter_declaration', 'optional_type_parameter_declaration', 'concept_definition']);
const SPECIFIER = /^(struct|union|enum|class)_specifier$/;

const isField = (parent: Node, field: string, node: Node): boolean => parent.childForFieldName(field)?.id === node.id;

function declares(node: Node): boolean {
  let cur = node;
  // `ns::f` in `void ns::f() {}` declares as `f` does: climb the qualified name first.
  while (cur.parent?.type === 'qualified_identifier' && isField(cur.parent, 'name', cur)) cur = cur.parent;
  for (let p = cur.parent; p && DECLARATOR.test(p.type) && isField(p, 'declarator', cur); p = p.parent) cur = p;
  const p = cur.parent;
  if (!p) return false;
  if (DECLARES.has(p.type) && isField(p, 'declarator', cur)) return true;
  if (NAMED.has(p.type) && isField(p, 'name', cur)) return true;
  if (SPECIFIER.test(p.type) && isField(p, 'name', cur)) return !!p.childForFieldName('body');
  return p.type === 'preproc_params' || p.type === 'type_parameter_declaration' || p.type === 'labeled_statement';
}

/** The stratum of a C or C++ name, or undefined when it is no reference the hover looks at. */
export function cSyntaxKind(node: Node): SyntaxKind | undefined {
  const parent = node.parent;
  if (!parent || !['identifier', 'field_identifier', 'type_identifier'].includes(node.type)) return undefined;
  if (/^preproc_(include|arg|call)$/.test(parent.type) || declares(node)) return undefined;
  if (node.type === 'field_identifier') return parent.type === 'field_expression' && isField(parent, 'field', node) ? 'member' : undefined;
  if (node.type === 'type_identifier') return 'type';
  let callee = node;
  while (callee.parent?.type === 'qualified_identifier' && isField(callee.parent, 'name', callee)) callee = callee.parent;
  const p = callee.parent;
  if (p?.type === 'call_expression' && isField(p, 'function', callee)) return 'call';
  return 'name';
}
