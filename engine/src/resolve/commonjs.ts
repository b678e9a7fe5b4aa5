// CommonJS, as Node and TypeScript's JavaScript service read it: `exports.x = ...` and
// `module.exports.x = ...` export `x`; `module.exports = X` makes X what a `require` of the file
// returns (an object literal's keys its exports), else `require` returns the module object itself;
// `const { a, b: c } = require('./m')` imports `a` and `b` by name. And `this.x` in a function of an
// object literal (`Foo.prototype = { m() { this.x } }`) or of a constructor function's prototype
// (`Foo.prototype.m = function () { this.x }`) is that object's or prototype's member.
import type { Node } from 'web-tree-sitter';
import { makeDef } from './def';
import type { ClassInfo, DefRole, ModuleSummary, ResolvedDef, TopBinding } from './types';

const FUNCTION_VALUES = /^(arrow_function|function_expression|function|generator_function|class)$/;
const unquote = (s: string): string => s.replace(/^['"`]|['"`]$/g, '');

/** `require('x')` -> `x`. */
export function requireSource(value: Node | null | undefined): string | undefined {
  if (value?.type !== 'call_expression' || value.childForFieldName('function')?.text !== 'require') return undefined;
  const arg = value.childForFieldName('arguments')?.namedChildren[0];
  return arg?.type === 'string' ? unquote(arg.text) : undefined;
}

/** `require('x').y` -> `x`, `y`. */
export function requireMember(value: Node | null | undefined): { source: string; imported: string } | undefined {
  if (value?.type !== 'member_expression') return undefined;
  const source = requireSource(value.childForFieldName('object'));
  const prop = value.childForFieldName('property');
  return source && prop ? { source, imported: prop.text } : undefined;
}

/** The names `const { a, b: c } = require('m')` binds, each an import of `m`'s export. */
export function requirePattern(pattern: Node): Array<{ local: string; imported: string; node: Node }> {
  const out: Array<{ local: string; imported: string; node: Node }> = [];
  if (pattern.type !== 'object_pattern') return out;
  for (const p of pattern.namedChildren) {
    if (p?.type === 'shorthand_property_identifier_pattern') out.push({ local: p.text, imported: p.text, node: p });
    else if (p?.type === 'pair_pattern') {
      const key = p.childForFieldName('key');
      const value = p.childForFieldName('value');
      if (key?.type === 'property_identifier' && value?.type === 'identifier') out.push({ local: value.text, imported: key.text, node: value });
    }
  }
  return out;
}

/** `exports` or `module.exports`. */
const isExportsObject = (n: Node | null | undefined): boolean => n?.text === 'exports' || n?.text === 'module.exports';

/** A file's CommonJS exports, from its top-level `exports.x =`, `module.exports.x =` and `module.exports =` statements. */
export function commonJsExports(file: string, root: Node, s: ModuleSummary): void {
  for (const stmt of root.namedChildren) {
    const a = stmt && exportAssignment(stmt);
    if (!stmt || !a) continue;
    const left = a.childForFieldName('left');
    const right = a.childForFieldName('right');
    if (left?.type !== 'member_expression' || !right) continue;
    const obj = left.childForFieldName('object');
    const prop = left.childForFieldName('property');
    const named = isExportsObject(obj) && prop ? prop : undefined;
    if (!named && left.text !== 'module.exports') continue;
    const cjs = (s.commonjs ??= { exports: new Map(), wholeModule: true });
    if (named && right.type === 'identifier') {
      s.reexports.push({ local: named.text, imported: right.text, source: '' }); // `exports.f = f`: f's definition
    } else if (named) {
      if (!cjs.exports.has(named.text)) cjs.exports.set(named.text, { kind: 'def', def: makeDef(file, named, roleOf(right), stmt) });
    } else {
      cjs.wholeModule = false;
      moduleExports(file, right, stmt, s, cjs.exports);
    }
  }
}

/** The assignment a top-level statement makes: `a.b = v`, or `var x = (exports.x = v)`. */
function exportAssignment(stmt: Node): Node | undefined {
  let v: Node | null | undefined = stmt.type === 'expression_statement' ? stmt.namedChildren[0]
    : /^(lexical_declaration|variable_declaration)$/.test(stmt.type) && stmt.namedChildren.length === 1 ? stmt.namedChildren[0]?.childForFieldName('value') : undefined;
  while (v?.type === 'parenthesized_expression') v = v.namedChildren[0];
  return v?.type === 'assignment_expression' ? v : undefined;
}

const roleOf = (value: Node): DefRole => (value.type === 'class' ? 'class' : FUNCTION_VALUES.test(value.type) ? 'function' : 'variable');

/** `module.exports = X`: what `require` of the file returns, and its keys when it is an object literal. */
function moduleExports(file: string, value: Node, stmt: Node, s: ModuleSummary, exports: Map<string, TopBinding>): void {
  if (value.type === 'identifier') s.reexports.push({ local: 'default', imported: value.text, source: '' });
  else if (value.type === 'object') {
    s.reexports.push({ local: 'default', imported: '\0module', source: '' });
    for (const m of value.namedChildren) {
      if (m?.type === 'shorthand_property_identifier') s.reexports.push({ local: m.text, imported: m.text, source: '' });
      else if (m?.type === 'pair' || m?.type === 'method_definition') {
        const key = m.childForFieldName(m.type === 'pair' ? 'key' : 'name');
        const v = m.type === 'pair' ? m.childForFieldName('value') : m;
        if (key?.type !== 'property_identifier' || !v || exports.has(key.text)) continue;
        if (v.type === 'identifier') s.reexports.push({ local: key.text, imported: v.text, source: '' });
        else exports.set(key.text, { kind: 'def', def: makeDef(file, key, roleOf(v), m) });
      }
    }
  } else {
    const req = requireSource(value);
    if (req) {
      s.reexports.push({ local: 'default', imported: 'default', source: req }, { local: '*', imported: '*', source: req });
    } else if (FUNCTION_VALUES.test(value.type) && value.childForFieldName('name')) {
      exports.set('default', { kind: 'def', def: makeDef(file, value.childForFieldName('name')!, roleOf(value), stmt) });
    }
  }
}

/** The function `this` is bound by around `node` (arrows do not bind it); undefined in a class or at top level. */
function thisFunction(node: Node): Node | undefined {
  let fn: Node | null = node.parent;
  while (fn && !/^(function_expression|function_declaration|method_definition|generator_function|generator_function_declaration|class_body|program)$/.test(fn.type)) fn = fn.parent;
  return fn && fn.type !== 'class_body' && fn.type !== 'program' ? fn : undefined;
}

/** `this.name` in a function that is a member of an object literal: that literal's member. */
export function thisMember(file: string, node: Node, name: string): ResolvedDef | undefined {
  const fn = thisFunction(node);
  const holder = fn?.type === 'method_definition' ? fn : fn?.parent?.type === 'pair' && fn.parent.childForFieldName('value')?.id === fn.id ? fn.parent : undefined;
  return holder?.parent?.type === 'object' ? objectMember(file, holder.parent, name) : undefined;
}

/** The constructor function `this` is an instance of around `node`: in `function Foo`, `Foo.prototype.m = function`, `Foo.prototype = { m() {} }`. */
export function thisConstructor(node: Node): string | undefined {
  const fn = thisFunction(node);
  if (!fn) return undefined;
  if (fn.type === 'function_declaration') return /^[A-Z]/.test(fn.childForFieldName('name')?.text ?? '') ? fn.childForFieldName('name')!.text : undefined;
  const holder = fn.type === 'method_definition' ? fn : fn.parent?.type === 'pair' ? fn.parent : undefined;
  const assigned = holder?.parent?.type === 'object' ? assignedTo(holder.parent) : fn.parent?.type === 'assignment_expression' ? fn.parent.childForFieldName('left')?.text : undefined;
  return /^(\w+)\.prototype(\.\w+)?$/.exec(assigned ?? '')?.[1];
}

/** What an object literal or function is assigned to (`Foo.prototype = {...}`), as written. */
function assignedTo(value: Node): string | undefined {
  const p = value.parent;
  return p?.type === 'assignment_expression' && p.childForFieldName('right')?.id === value.id ? p.childForFieldName('left')?.text : undefined;
}

function objectMember(file: string, obj: Node, name: string): ResolvedDef | undefined {
  for (const m of obj.namedChildren) {
    const key = m?.type === 'pair' ? m.childForFieldName('key') : m?.type === 'method_definition' ? m.childForFieldName('name') : m?.type === 'shorthand_property_identifier' ? m : undefined;
    if (m && key && /^(property_identifier|shorthand_property_identifier)$/.test(key.type) && key.text === name) return makeDef(file, key, m.type === 'pair' && !FUNCTION_VALUES.test(m.childForFieldName('value')?.type ?? '') ? 'attribute' : 'method', m);
  }
  return undefined;
}

/**
 * Constructor functions as member holders: `function Foo() { this.a = 1 }` with `Foo.b = ...`,
 * `Foo.prototype.c = ...` and `Foo.prototype = { d() {} }` at the file's top level (what
 * TypeScript's JavaScript service reads as Foo's members).
 */
export function constructorHolders(file: string, root: Node, classes: Map<number, ClassInfo>): void {
  const ctors = new Map<string, ClassInfo>();
  for (const stmt of root.namedChildren) {
    const name = stmt && /^(function_declaration|class_declaration)$/.test(stmt.type) ? stmt.childForFieldName('name') : undefined;
    const cls = stmt && classes.get(stmt.startPosition.row);
    if (name && cls?.def.name === name.text) ctors.set(name.text, cls); // a class's `Foo.prototype.m = ...` too
    if (!stmt || !name || stmt.type !== 'function_declaration' || !/^[A-Z]/.test(name.text) || cls) continue;
    const info: ClassInfo = { def: makeDef(file, name, 'class', stmt), members: new Map(), bases: [] };
    thisAssignments(file, stmt.childForFieldName('body'), info.members);
    ctors.set(name.text, info);
  }
  if (!ctors.size) return;
  for (const stmt of root.namedChildren) {
    const a = stmt?.type === 'expression_statement' ? stmt.namedChildren[0] : undefined;
    const left = a?.type === 'assignment_expression' ? a.childForFieldName('left') : undefined;
    const right = a?.childForFieldName('right');
    if (!stmt || left?.type !== 'member_expression' || !right) continue;
    const m = /^(\w+)(\.prototype)?(?:\.(\w+))?$/.exec(left.text);
    const info = m && ctors.get(m[1]);
    if (!m || !info) continue;
    const prop = left.childForFieldName('property')!;
    if (m[3] && (m[2] || prop.text !== 'prototype')) {
      if (!info.members.has(prop.text)) info.members.set(prop.text, makeDef(file, prop, FUNCTION_VALUES.test(right.type) ? 'method' : 'attribute', stmt));
    } else if (m[2] && right.type === 'object') {
      for (const c of right.namedChildren) {
        const key = c?.type === 'pair' ? c.childForFieldName('key') : c?.type === 'method_definition' ? c.childForFieldName('name') : undefined;
        if (key?.type === 'property_identifier' && !info.members.has(key.text)) info.members.set(key.text, objectMember(file, right, key.text)!);
      }
    }
  }
  for (const info of ctors.values()) if (info.members.size) classes.set(info.def.declLine, info);
}

/** `this.x = ...` in a constructor function's body (not in nested functions). */
function thisAssignments(file: string, body: Node | null, out: Map<string, ResolvedDef>): void {
  const stack: Node[] = body ? [body] : [];
  while (stack.length) {
    const n = stack.pop()!;
    if (n !== body && /^(function_expression|function_declaration|class|class_declaration|method_definition)$/.test(n.type)) continue;
    if (n.type === 'assignment_expression') {
      const left = n.childForFieldName('left');
      const prop = left?.type === 'member_expression' && left.childForFieldName('object')?.type === 'this' ? left.childForFieldName('property') : undefined;
      if (prop && !out.has(prop.text)) out.set(prop.text, makeDef(file, prop, 'attribute', n.parent?.type === 'expression_statement' ? n.parent : n));
    }
    for (let i = n.namedChildCount - 1; i >= 0; i--) {
      const c = n.namedChild(i);
      if (c) stack.push(c);
    }
  }
}
