// A C or C++ file's file-level declarations as includes.ts resolves them: functions, variables,
// typedefs, struct/union/enum tags with their fields, enumerators and macros, each with the type it
// is declared with (for `a->b.c`), the #include paths it reads, and only the `#if` branches a
// compiler on this platform reads (cpreproc.ts).
import type { Node } from 'web-tree-sitter';
import type { CompilerProfile } from './compilers';
import { liveBranches, type Guard } from './cpreproc';
import type { CppTop } from './cppdecls';
import { makeDef } from './def';
import type { ResolvedDef } from './types';

/** A declared type as far as member access needs it: a typedef name, a struct/union tag, or an inline body's fields. */
export type CType = { k: 'name'; name: string } | { k: 'tag'; name: string } | { k: 'body'; fields: Fields };

export interface Field {
  def: ResolvedDef;
  type?: CType;
}

export interface Fields {
  own: Map<string, Field>;
  /** Names in the body that may be macros expanding to fields (`UV_HANDLE_FIELDS`). */
  macros: string[];
}

export interface CDef {
  def: ResolvedDef;
  /** A function's body, a struct/union/enum/class with its fields: not a prototype or forward declaration. */
  full: boolean;
  /** A variable's, typedef's or field's declared type. */
  type?: CType;
  /** A struct's or union's fields. */
  fields?: Fields;
  /** A macro's replacement text, the line it starts on, a function-like macro's parameters, and the `#if` conditions it is defined under. */
  macro?: { text: string; line: number; params?: string[]; guard?: Guard };
}

export interface FileTop {
  defs: Map<string, CDef[]>;
  includes: string[];
  /** Text ranges of `#if` branches the platform rules out. */
  dead: Array<[number, number]>;
  /** A C++ file's declarations with their namespaces and classes (cppdecls.ts). */
  cpp?: CppTop;
}

const BLOCKS = /^(ERROR|linkage_specification|declaration_list|namespace_definition|template_declaration)$/;
const BRANCHES = /^preproc_(if|ifdef)$/;
const DECLARATOR = /^(pointer|array|function|parenthesized|reference|init)_declarator$/;
const SPECIFIER = /^(struct|union|enum|class)_specifier$/;
const MACRO = /^[A-Z][A-Z0-9_]+$/;

/** File-level definitions of a C or C++ file (namespaces, `extern "C"` and live `#if` branches included). */
export function collect(file: string, block: Node, out: FileTop, profiles: readonly CompilerProfile[], guard: Guard = []): void {
  const add = (name: Node | null | undefined, role: ResolvedDef['role'], outer: Node, full: boolean, extra?: Partial<CDef>): void => {
    if (!name || !/^(identifier|type_identifier)$/.test(name.type)) return;
    const xs = out.defs.get(name.text) ?? [];
    xs.push({ def: makeDef(file, name, role, outer), full, ...extra });
    out.defs.set(name.text, xs);
  };
  const specifier = (spec: Node | null, outer: Node): void => {
    if (!spec || !SPECIFIER.test(spec.type)) return;
    const body = spec.childForFieldName('body');
    add(spec.childForFieldName('name'), 'class', outer, !!body, body && spec.type !== 'enum_specifier' ? { fields: fieldsOf(file, body) } : undefined);
    if (spec.type === 'enum_specifier') for (const e of body?.namedChildren ?? []) if (e?.type === 'enumerator') add(e.childForFieldName('name'), 'variable', e, true);
  };
  const guards = new Map<number, Guard>();
  const items = BRANCHES.test(block.type) ? liveBranches(block, profiles, (from, to) => out.dead.push([from, to]), guards) : block.namedChildren;
  for (const item of items) {
    if (!item) continue;
    const under = guards.has(item.id) ? [...guard, ...guards.get(item.id)!] : guard;
    const outer = item.parent?.type === 'template_declaration' ? item.parent : item;
    if (item.type === 'ERROR') macrosIn(item, add);
    if (BRANCHES.test(item.type) || BLOCKS.test(item.type)) {
      collect(file, item.type === 'namespace_definition' ? item.childForFieldName('body') ?? item : item, out, profiles, under);
    } else if (item.type === 'function_definition') {
      add(declaredName(item.childForFieldName('declarator')), 'function', outer, true, { type: typeOf(file, item.childForFieldName('type')) });
    } else if (item.type === 'declaration' || item.type === 'type_definition') {
      const type = item.childForFieldName('type');
      specifier(type, outer);
      if (misread(item)) continue;
      // `UV_PRIVATE_REQ_TYPES` then `UV_EXTERN int f(...)`: two macros the parser reads as a type and a variable.
      const macroType = type?.type === 'type_identifier' && MACRO.test(type.text);
      for (const d of item.childrenForFieldName('declarator')) {
        if (!d || (macroType && d.type === 'identifier' && MACRO.test(d.text))) continue;
        const role = item.type === 'type_definition' ? 'type' : isFunction(d) ? 'function' : 'variable';
        add(declaredName(d), role, outer, role !== 'function', { type: typeOf(file, type) });
      }
    } else if (SPECIFIER.test(item.type)) {
      specifier(item, outer);
    } else if (item.type === 'preproc_def' || item.type === 'preproc_function_def') {
      const value = item.childForFieldName('value');
      const params = item.childForFieldName('parameters')?.namedChildren.map((p) => p?.text ?? '');
      add(item.childForFieldName('name'), item.type === 'preproc_def' ? 'variable' : 'function', outer, true, { macro: { text: value?.text ?? '', line: (value ?? item).startPosition.row, ...(params ? { params } : {}), ...(under.length ? { guard: under } : {}) } });
    } else if (item.type === 'alias_declaration') {
      add(item.childForFieldName('name'), 'type', outer, true);
    }
  }
}

/**
 * `#define NAME` the parser could not read whole (a body with a comment before its line
 * continuation, as nlohmann's NLOHMANN_JSON_NAMESPACE_END): the tokens are left in an ERROR node.
 */
function macrosIn(error: Node, add: (name: Node | null, role: ResolvedDef['role'], outer: Node, full: boolean) => void): void {
  const kids = error.children;
  for (let i = 0; i + 1 < kids.length; i++) if (kids[i]?.type === '#define' && kids[i + 1]?.type === 'identifier') add(kids[i + 1], 'variable', error, true);
}

/**
 * A declaration the parser misread: an error or a missing token after its first declarator
 * (libuv's `typedef BOOL (PASCAL *LPFN_CONNECTEX)(SOCKET s, const struct sockaddr* name, …)` reads
 * as a typedef then a declaration of `name`). One before it (`UV_EXTERN int f(…);`) leaves it whole.
 */
function misread(item: Node): boolean {
  const first = item.childForFieldName('declarator');
  return !!first && item.children.some((c) => !!c && (c.type === 'ERROR' || c.isMissing) && c.startIndex >= first.startIndex);
}

/** The type a declaration's `type` node names, for member access. */
export function typeOf(file: string, t: Node | null): CType | undefined {
  if (!t) return undefined;
  if (t.type === 'type_identifier') return { k: 'name', name: t.text };
  if (t.type === 'struct_specifier' || t.type === 'union_specifier') {
    const body = t.childForFieldName('body');
    if (body) return { k: 'body', fields: fieldsOf(file, body) };
    const name = t.childForFieldName('name');
    return name ? { k: 'tag', name: name.text } : undefined;
  }
  return undefined;
}

/** A struct's or union's fields, anonymous members' fields included. */
export function fieldsOf(file: string, body: Node): Fields {
  const out: Fields = { own: new Map(), macros: [] };
  for (const f of body.namedChildren) {
    if (f?.type !== 'field_declaration') {
      if (f && BRANCHES.test(f.type)) for (const c of f.namedChildren) if (c?.type === 'field_declaration') addField(file, c, out);
      continue;
    }
    addField(file, f, out);
  }
  return out;
}

function addField(file: string, f: Node, out: Fields): void {
  const t = f.childForFieldName('type');
  const type = typeOf(file, t);
  // `UV_HANDLE_FIELDS` alone on a line: a macro the parser reads as a type.
  if (t?.type === 'type_identifier' && MACRO.test(t.text)) out.macros.push(t.text);
  const declarators = f.childrenForFieldName('declarator').filter((d): d is Node => !!d);
  if (!declarators.length && type?.k === 'body') {
    for (const [k, v] of type.fields.own) if (!out.own.has(k)) out.own.set(k, v);
    out.macros.push(...type.fields.macros);
  }
  for (const d of declarators) {
    const name = declaredName(d);
    if (name?.type === 'field_identifier' && !out.own.has(name.text)) out.own.set(name.text, { def: makeDef(file, name, 'attribute', f), type });
  }
}

/** The name a declarator declares (`*p`, `a[]`, `(*cb)(int)`, `f(void)`, `x = 1`). */
export function declaredName(d: Node | null): Node | null {
  let cur = d;
  while (cur && DECLARATOR.test(cur.type)) cur = cur.childForFieldName('declarator');
  return cur;
}

/** Whether a declarator declares a function (a prototype), not a pointer to one. */
function isFunction(d: Node): boolean {
  let cur: Node | null = d;
  while (cur && (cur.type === 'pointer_declarator' || cur.type === 'reference_declarator' || cur.type === 'init_declarator')) cur = cur.childForFieldName('declarator');
  return cur?.type === 'function_declarator' && cur.childForFieldName('declarator')?.type !== 'parenthesized_declarator';
}

/** A field a macro's replacement text declares (`uv_loop_t* loop;`): its line and type name, as the macro reads. */
export function macroField(file: string, m: { text: string; line: number }, name: string): Field | undefined {
  const re = new RegExp(`(?:\\bstruct\\s+|\\bunion\\s+)?\\b(\\w+)[\\s*]*\\b${name}\\s*(?:\\[[^\\]]*\\]\\s*)*;`);
  const found = re.exec(m.text);
  if (!found) return undefined;
  const line = m.line + (m.text.slice(0, found.index + found[0].lastIndexOf(name)).match(/\n/g)?.length ?? 0);
  const kw = /^(struct|union)\s/.exec(found[0]);
  const def: ResolvedDef = { file, name, role: 'attribute', startLine: line, endLine: line, declLine: line, line, column: 0 };
  return { def, type: kw ? { k: 'tag', name: found[1] } : { k: 'name', name: found[1] } };
}
