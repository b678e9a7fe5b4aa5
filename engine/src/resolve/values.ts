// What a TypeScript or JavaScript value is, for member access (`obj.x`, `this.field.method()`,
// `make().x`): the declared type, return type or initializer of each definition, kept without
// syntax nodes, and the holders of members that are not classes (interfaces, object types, enums,
// object literals). resolver.ts evaluates a chain of steps (a name, then `.x`, then a call) from them.
import type { Node } from 'web-tree-sitter';
import type { Chain, ClassInfo, DefRole, ModuleSummary, ValueInfo } from './types';
import { makeDef } from './summary';
import { namedOfTypes } from './typedNodes';

export const valueKey = (d: { line: number; column: number }): string => `${d.line}:${d.column}`;

const MAX_CHAIN = 8;
const NULLISH = /^(undefined|null)$/;

/** `Foo`, `mod.Foo`, `Foo<T>`, `Foo | undefined` as a dotted name; other types (unions, literals, functions) as none. */
export function typeRef(t: Node | null | undefined): string[] | undefined {
  if (!t) return undefined;
  switch (t.type) {
    case 'type_annotation': case 'parenthesized_type': return typeRef(t.namedChildren[0]);
    case 'type_identifier': case 'identifier': return [t.text];
    case 'generic_type': return typeRef(t.childForFieldName('name'));
    case 'nested_type_identifier': return t.text.split('.').map((s) => s.trim());
    case 'union_type': {
      const parts = t.namedChildren.filter((c) => c && !(c.type === 'literal_type' && NULLISH.test(c.text)));
      return parts.length === 1 ? typeRef(parts[0]) : undefined;
    }
    default: return undefined;
  }
}

/** A value expression as a chain, its head names read by `head`; undefined when any part is not followed. */
export function exprChain(n: Node, head: (id: Node) => Chain | undefined, depth = 0): Chain | undefined {
  if (depth > MAX_CHAIN) return undefined;
  switch (n.type) {
    case 'identifier': case 'this': return head(n);
    case 'member_expression': {
      const obj = n.childForFieldName('object');
      const prop = n.childForFieldName('property');
      if (!obj || prop?.type !== 'property_identifier') return undefined;
      const c = exprChain(obj, head, depth + 1);
      return c && [...c, { k: 'get', name: prop.text }];
    }
    case 'call_expression': {
      const fn = n.childForFieldName('function');
      if (!fn || fn.type === 'import' || fn.type === 'super') return undefined;
      const c = exprChain(fn, head, depth + 1);
      return c && [...c, { k: 'call' }];
    }
    case 'new_expression': {
      const ctor = n.childForFieldName('constructor');
      return ctor ? exprChain(ctor, head, depth + 1) : undefined; // an instance has its class's members
    }
    case 'parenthesized_expression': case 'non_null_expression': case 'satisfies_expression': {
      const inner = n.namedChildren[0];
      return inner ? exprChain(inner, head, depth + 1) : undefined;
    }
    case 'as_expression': {
      const [expr, type] = n.namedChildren;
      if (!type) return expr ? exprChain(expr, head, depth + 1) : undefined; // `as const`
      const path = typeRef(type);
      return path && [{ k: 'type', path }];
    }
    default: return undefined;
  }
}

const FUNCTION_VALUES = /^(arrow_function|function_expression|function|generator_function)$/;
const moduleHead = (id: Node): Chain | undefined => (id.type === 'identifier' ? [{ k: 'name', name: id.text }] : undefined);

/** A declared value: annotation, else a function's return type, else the initializer's chain. */
function declared(type: Node | null | undefined, value: Node | null | undefined, head: (id: Node) => Chain | undefined): ValueInfo | undefined {
  const t = typeRef(type);
  if (t) return { type: t };
  // `get: () => Snapshot`: a property of function type is called for its return type.
  const fnType = type?.type === 'type_annotation' ? type.namedChildren[0] : type;
  if (fnType?.type === 'function_type') {
    const returns = typeRef(fnType.childForFieldName('return_type'));
    return returns && { returns };
  }
  if (!value) return undefined;
  if (FUNCTION_VALUES.test(value.type)) {
    const returns = typeRef(value.childForFieldName('return_type'));
    return returns && { returns };
  }
  const init = exprChain(value, head);
  return init && { init };
}

/** The node types collectValues reads. */
const VALUE_TYPES = ['function_declaration', 'function_signature', 'variable_declarator', 'class_declaration', 'abstract_class_declaration', 'class', 'interface_declaration', 'type_alias_declaration', 'enum_declaration'];

/** The values of a file's top-level definitions and class members, and its non-class member holders. */
export function collectValues(file: string, root: Node, s: ModuleSummary): void {
  const values = (s.values ??= new Map());
  const put = (id: Node | null | undefined, v: ValueInfo | undefined): void => {
    if (id && v && !values.has(valueKey({ line: id.startPosition.row, column: id.startPosition.column }))) values.set(valueKey({ line: id.startPosition.row, column: id.startPosition.column }), v);
  };
  for (const n of namedOfTypes(root, VALUE_TYPES)) {
    switch (n.type) {
      case 'function_declaration': case 'function_signature': {
        const returns = typeRef(n.childForFieldName('return_type'));
        if (returns) put(n.childForFieldName('name'), { returns });
        break;
      }
      case 'variable_declarator': {
        const name = n.childForFieldName('name');
        if (name?.type !== 'identifier' || !atModuleLevel(n)) break;
        put(name, declared(n.childForFieldName('type'), n.childForFieldName('value'), moduleHead));
        const obj = objectLiteral(n.childForFieldName('value'));
        if (obj) addHolder(s, objectHolder(file, name, declarationOf(n), obj, put));
        break;
      }
      case 'class_declaration': case 'abstract_class_declaration': case 'class':
        classValues(n, put);
        break;
      case 'interface_declaration': case 'type_alias_declaration': case 'enum_declaration':
        addHolder(s, typeHolder(file, n, put));
        break;
    }
  }
}

function addHolder(s: ModuleSummary, info: ClassInfo | undefined): void {
  if (info && !s.classes.has(info.def.declLine)) s.classes.set(info.def.declLine, info);
}

/** Module level, or a namespace's: not inside a function, where a name could be a local. */
function atModuleLevel(n: Node): boolean {
  for (let p = n.parent; p; p = p.parent) if (/function|arrow|method_definition|class_body/.test(p.type)) return false;
  return true;
}

const declarationOf = (declarator: Node): Node => {
  const stmt = declarator.parent ?? declarator;
  return stmt.parent?.type === 'export_statement' ? stmt.parent : stmt;
};

function objectLiteral(v: Node | null | undefined): Node | undefined {
  if (!v) return undefined;
  if (v.type === 'object') return v;
  if (v.type === 'as_expression' || v.type === 'satisfies_expression' || v.type === 'parenthesized_expression') return objectLiteral(v.namedChildren[0]);
  return undefined;
}

type Put = (id: Node | null | undefined, v: ValueInfo | undefined) => void;

function objectHolder(file: string, name: Node, outer: Node, obj: Node, put: Put): ClassInfo {
  const info: ClassInfo = { def: makeDef(file, name, 'variable', outer), members: new Map(), bases: [] };
  const add = (id: Node | null | undefined, role: DefRole, stmt: Node): void => {
    if (id?.type === 'property_identifier' || id?.type === 'shorthand_property_identifier') {
      if (!info.members.has(id.text)) info.members.set(id.text, makeDef(file, id, role, stmt));
    }
  };
  for (const m of obj.namedChildren) {
    if (m?.type === 'pair') {
      const key = m.childForFieldName('key');
      const value = m.childForFieldName('value');
      add(key, value && FUNCTION_VALUES.test(value.type) ? 'method' : 'attribute', m);
      put(key, declared(undefined, value, moduleHead));
    } else if (m?.type === 'method_definition') {
      add(m.childForFieldName('name'), 'method', m);
      put(m.childForFieldName('name'), memberValue(m));
    } else if (m?.type === 'shorthand_property_identifier') {
      add(m, 'attribute', m);
      put(m, { init: [{ k: 'name', name: m.text }] });
    }
  }
  return info;
}

/** A method's or signature's value: a getter's type, else its return type. */
function memberValue(m: Node): ValueInfo | undefined {
  const t = typeRef(m.childForFieldName('return_type'));
  if (!t) return undefined;
  return m.children.some((c) => c?.type === 'get') ? { type: t } : { returns: t };
}

/** Class members' declared values: fields, getters and methods, parameter properties, `this.x = new X()`. */
function classValues(cls: Node, put: Put): void {
  const body = cls.childForFieldName('body');
  for (const m of body?.namedChildren ?? []) {
    if (!m) continue;
    if (m.type === 'public_field_definition' || m.type === 'field_definition') {
      put(m.childForFieldName('name') ?? m.childForFieldName('property'), declared(m.childForFieldName('type'), m.childForFieldName('value'), moduleHead));
    } else if (m.type === 'method_definition' || m.type === 'method_signature' || m.type === 'abstract_method_signature') {
      put(m.childForFieldName('name'), memberValue(m));
      const params = m.childForFieldName('parameters');
      for (const p of params?.namedChildren ?? []) {
        if (p?.type === 'required_parameter' || p?.type === 'optional_parameter') put(p.childForFieldName('pattern'), declared(p.childForFieldName('type'), undefined, moduleHead));
      }
      const bodyNode = m.childForFieldName('body');
      if (bodyNode) thisAssignments(bodyNode, new Set((params?.namedChildren ?? []).map((p) => p?.childForFieldName('pattern')?.text ?? '')), put);
    }
  }
}

/** `this.x = new X()` / `this.x = make()` in a method, when the value's head is no parameter or local of it. */
function thisAssignments(body: Node, params: Set<string>, put: Put): void {
  const locals = new Set(params);
  const stack: Node[] = [body];
  const found: Node[] = [];
  while (stack.length) {
    const n = stack.pop()!;
    if (/^(class|class_declaration|function_declaration|function_expression)$/.test(n.type)) continue;
    if (n.type === 'variable_declarator') locals.add(n.childForFieldName('name')?.text ?? '');
    if (n.type === 'assignment_expression') found.push(n);
    for (const c of n.namedChildren) if (c) stack.push(c);
  }
  const head = (id: Node): Chain | undefined => (id.type === 'identifier' && !locals.has(id.text) ? [{ k: 'name', name: id.text }] : undefined);
  for (const a of found) {
    const left = a.childForFieldName('left');
    if (left?.type !== 'member_expression' || left.childForFieldName('object')?.type !== 'this') continue;
    const right = a.childForFieldName('right');
    put(left.childForFieldName('property'), right && right.type !== 'identifier' ? declared(undefined, right, head) : undefined);
  }
}

/** Interfaces, object type aliases (with intersections' named parts as bases) and enums. */
function typeHolder(file: string, n: Node, put: Put): ClassInfo | undefined {
  const name = n.childForFieldName('name');
  if (!name) return undefined;
  const outer = n.parent?.type === 'export_statement' ? n.parent : n;
  const info: ClassInfo = { def: makeDef(file, name, n.type === 'enum_declaration' ? 'type' : 'type', outer), members: new Map(), bases: [] };
  const addMembers = (body: Node): void => {
    for (const m of body.namedChildren) {
      const id = m?.type === 'enum_assignment' ? m.childForFieldName('name') : m?.type === 'property_identifier' ? m : m?.childForFieldName('name');
      if (!m || !id || id.type !== 'property_identifier' || info.members.has(id.text)) continue;
      if (!/^(property_signature|method_signature|enum_assignment|property_identifier)$/.test(m.type)) continue;
      info.members.set(id.text, makeDef(file, id, m.type === 'method_signature' ? 'method' : 'attribute', m));
      put(id, m.type === 'property_signature' ? declared(m.childForFieldName('type'), undefined, moduleHead) : m.type === 'method_signature' ? memberValue(m) : undefined);
    }
  };
  const addType = (t: Node | null | undefined): void => {
    if (!t) return;
    if (t.type === 'object_type' || t.type === 'interface_body' || t.type === 'enum_body') addMembers(t);
    else if (t.type === 'intersection_type') for (const c of t.namedChildren) addType(c);
    else {
      const ref = typeRef(t);
      if (ref) info.bases.push(ref.join('.'));
    }
  };
  if (n.type === 'type_alias_declaration') addType(n.childForFieldName('value'));
  else {
    addType(n.childForFieldName('body'));
    const ext = n.namedChildren.find((c) => c?.type === 'extends_type_clause');
    for (const t of ext?.namedChildren ?? []) addType(t);
  }
  return info.members.size || info.bases.length ? info : undefined;
}
