// A file's module-level names (definitions and imports), its classes with their members and bases,
// and its re-exports, read from its syntax tree: what another file's import of it can reach.
// Python and ECMAScript (TypeScript, TSX, JavaScript).
import type { Node, Tree } from 'web-tree-sitter';
import type { ClassInfo, DefRole, ModuleSummary, TopBinding } from './types';
import { makeDef } from './def';
import { patternNames } from './scopes';
import { namedOfTypes } from './typedNodes';
import { commonJsExports, constructorHolders, requireMember, requirePattern, requireSource } from './commonjs';

const unquote = (s: string): string => s.replace(/^['"`]|['"`]$/g, '');

export { makeDef } from './def';

export function summarize(file: string, tree: Tree, python: boolean): ModuleSummary {
  const s: ModuleSummary = { file, python, isModule: python || tree.rootNode.namedChildren.some((c) => c?.type === 'import_statement' || c?.type === 'export_statement'), top: new Map(), classes: new Map(), reexports: [] };
  const setTop = (name: string, b: TopBinding): void => {
    if (!s.top.has(name)) s.top.set(name, b);
  };
  if (python) pythonTop(file, tree.rootNode, s, setTop);
  else {
    ecmaTop(file, tree.rootNode, s, setTop);
    commonJsExports(file, tree.rootNode, s);
    // TypeScript's JavaScript service reads a file with CommonJS exports or requires as a module (its names are not global).
    if (s.commonjs || [...s.top.values()].some((b) => b.kind === 'import')) s.isModule = true;
  }
  collectClasses(file, tree.rootNode, python, s.classes);
  if (!python) constructorHolders(file, tree.rootNode, s.classes);
  return s;
}

// ---- Python -------------------------------------------------------------------------------------

/** Blocks at module level whose statements still bind module names (`if TYPE_CHECKING:`, `try: import x`). */
const PY_NESTED = new Set(['if_statement', 'elif_clause', 'else_clause', 'try_statement', 'except_clause', 'finally_clause', 'with_statement', 'block']);

function pythonTop(file: string, root: Node, s: ModuleSummary, setTop: (n: string, b: TopBinding) => void): void {
  const visit = (stmt: Node): void => {
    const def = stmt.type === 'decorated_definition' ? stmt.childForFieldName('definition') : stmt;
    if (def && (def.type === 'function_definition' || def.type === 'class_definition')) {
      const name = def.childForFieldName('name');
      if (name) setTop(name.text, { kind: 'def', def: makeDef(file, name, def.type === 'class_definition' ? 'class' : 'function', stmt) });
      return;
    }
    if (stmt.type === 'expression_statement') {
      for (const a of stmt.namedChildren) {
        if (a?.type !== 'assignment') continue;
        const left = a.childForFieldName('left');
        if (left) for (const id of patternNames(left)) setTop(id.text, { kind: 'def', def: makeDef(file, id, 'variable', stmt) });
      }
      return;
    }
    if (stmt.type === 'import_statement' || stmt.type === 'import_from_statement') {
      for (const b of pythonImport(stmt)) {
        if (b.local === '*') s.reexports.push({ local: '*', imported: '*', source: b.source });
        else setTop(b.local, { kind: 'import', source: b.source, imported: b.imported });
      }
      return;
    }
    if (PY_NESTED.has(stmt.type)) for (const c of stmt.namedChildren) if (c) visit(c);
  };
  for (const c of root.namedChildren) if (c) visit(c);
}

export interface ImportRef {
  local: string;
  imported: string;
  source: string;
}

/** The names a Python import statement binds: `import a.b` binds `a` (module `a`); `from m import x as y` binds `y`. */
export function pythonImport(stmt: Node): ImportRef[] {
  const out: ImportRef[] = [];
  if (stmt.type === 'import_statement') {
    for (const n of stmt.namedChildren) {
      if (n?.type === 'dotted_name') out.push({ local: n.namedChildren[0]!.text, imported: '*', source: n.namedChildren[0]!.text });
      else if (n?.type === 'aliased_import') out.push({ local: n.childForFieldName('alias')!.text, imported: '*', source: n.childForFieldName('name')!.text });
    }
    return out;
  }
  const source = stmt.childForFieldName('module_name')?.text;
  if (!source) return out;
  for (const n of stmt.namedChildren) {
    if (!n || n.id === stmt.childForFieldName('module_name')?.id) continue;
    if (n.type === 'wildcard_import') out.push({ local: '*', imported: '*', source });
    else if (n.type === 'dotted_name') out.push({ local: n.text, imported: n.text, source });
    else if (n.type === 'aliased_import') out.push({ local: n.childForFieldName('alias')!.text, imported: n.childForFieldName('name')!.text, source });
  }
  return out;
}

// ---- ECMAScript ---------------------------------------------------------------------------------

const ECMA_DECL_ROLE: Record<string, DefRole> = {
  function_declaration: 'function', generator_function_declaration: 'function', function_signature: 'function',
  class_declaration: 'class', abstract_class_declaration: 'class',
  interface_declaration: 'type', type_alias_declaration: 'type', enum_declaration: 'type', internal_module: 'module',
};

function ecmaTop(file: string, root: Node, s: ModuleSummary, setTop: (n: string, b: TopBinding) => void): void {
  const declare = (decl: Node, outer: Node, isDefault: boolean): void => {
    if (decl.type === 'ambient_declaration') {
      for (const c of decl.namedChildren) if (c) declare(c, outer, false);
      return;
    }
    const role = ECMA_DECL_ROLE[decl.type];
    if (role) {
      const name = decl.childForFieldName('name');
      if (!name) return;
      const def = makeDef(file, name, role, outer);
      setTop(name.text, { kind: 'def', def });
      if (isDefault) setTop('default', { kind: 'def', def });
      return;
    }
    if (decl.type === 'lexical_declaration' || decl.type === 'variable_declaration') {
      for (const d of decl.namedChildren) {
        if (d?.type !== 'variable_declarator') continue;
        const name = d.childForFieldName('name');
        const value = d.childForFieldName('value');
        const req = requireSource(value);
        if (name?.type === 'identifier' && req) {
          setTop(name.text, { kind: 'import', source: req, imported: 'default', decl: makeDef(file, name, 'variable', outer) });
          continue;
        }
        const member = requireMember(value);
        if (name?.type === 'identifier' && member) {
          setTop(name.text, { kind: 'import', ...member, decl: makeDef(file, name, 'variable', outer) });
          continue;
        }
        if (name?.type === 'object_pattern' && req) {
          for (const p of requirePattern(name)) setTop(p.local, { kind: 'import', source: req, imported: p.imported, decl: makeDef(file, p.node, 'variable', outer) });
          continue;
        }
        const fn = value && /function|arrow_function/.test(value.type);
        if (name) for (const id of patternNames(name)) setTop(id.text, { kind: 'def', def: makeDef(file, id, fn ? 'function' : 'variable', outer) });
      }
    }
  };
  for (const stmt of root.namedChildren) {
    if (!stmt) continue;
    if (stmt.type === 'import_statement') {
      for (const b of ecmaImport(stmt)) setTop(b.local, { kind: 'import', source: b.source, imported: b.imported });
    } else if (stmt.type === 'export_statement') {
      const source = stmt.childForFieldName('source');
      const decl = stmt.childForFieldName('declaration');
      const isDefault = stmt.children.some((c) => c?.type === 'default');
      if (decl) declare(decl, stmt, isDefault);
      else if (source) {
        const clause = stmt.namedChildren.find((c) => c?.type === 'export_clause');
        const ns = stmt.namedChildren.find((c) => c?.type === 'namespace_export')?.namedChildren[0];
        if (ns) s.reexports.push({ local: ns.text, imported: '*', source: unquote(source.text) });
        else if (!clause) s.reexports.push({ local: '*', imported: '*', source: unquote(source.text) });
        for (const spec of clause?.namedChildren ?? []) {
          const name = spec?.childForFieldName('name');
          if (name) s.reexports.push({ local: spec!.childForFieldName('alias')?.text ?? name.text, imported: name.text, source: unquote(source.text) });
        }
      } else if (!isDefault) {
        // `export { a as b }`: a local name exported under another.
        for (const spec of stmt.namedChildren.find((c) => c?.type === 'export_clause')?.namedChildren ?? []) {
          const name = spec?.childForFieldName('name');
          const alias = spec?.childForFieldName('alias');
          if (name && alias && alias.text !== name.text) s.reexports.push({ local: alias.text, imported: name.text, source: '' });
        }
      } else if (isDefault) {
        const value = stmt.childForFieldName('value') ?? stmt.namedChildren.find((c) => c && c.type !== 'comment');
        if (value?.type === 'identifier') s.reexports.push({ local: 'default', imported: value.text, source: '' });
      }
    } else declare(stmt, stmt, false);
  }
}

/** The names an ES import binds: default (`default`), namespace (`*`), named (`x as y`). */
export function ecmaImport(stmt: Node): ImportRef[] {
  const source = stmt.childForFieldName('source');
  const clause = stmt.namedChildren.find((c) => c?.type === 'import_clause');
  if (!source || !clause) return [];
  const from = unquote(source.text);
  const out: ImportRef[] = [];
  for (const c of clause.namedChildren) {
    if (c?.type === 'identifier') out.push({ local: c.text, imported: 'default', source: from });
    else if (c?.type === 'namespace_import') {
      const id = c.namedChildren.find((x) => x?.type === 'identifier');
      if (id) out.push({ local: id.text, imported: '*', source: from });
    } else if (c?.type === 'named_imports') {
      for (const spec of c.namedChildren) {
        const name = spec?.childForFieldName('name');
        if (name) out.push({ local: spec!.childForFieldName('alias')?.text ?? name.text, imported: name.text, source: from });
      }
    }
  }
  return out;
}

// ---- classes ------------------------------------------------------------------------------------

const CLASS_TYPES = new Set(['class_definition', 'class_declaration', 'abstract_class_declaration', 'class']);

function collectClasses(file: string, root: Node, python: boolean, out: Map<number, ClassInfo>): void {
  for (const n of namedOfTypes(root, [...CLASS_TYPES])) {
    const info = classInfo(file, n, python);
    if (info) out.set(info.def.declLine, info);
  }
}

/** A class's members (methods, fields, class variables, attributes assigned on self/this) and bases. */
export function classInfo(file: string, cls: Node, python: boolean): ClassInfo | undefined {
  const name = cls.childForFieldName('name');
  const body = cls.childForFieldName('body');
  if (!name || !body) return undefined;
  const outer = cls.parent && /decorated_definition|export_statement/.test(cls.parent.type) ? cls.parent : cls;
  const info: ClassInfo = { def: makeDef(file, name, 'class', outer), members: new Map(), bases: [] };
  const add = (id: Node | null | undefined, role: DefRole, stmt: Node): void => {
    if (id && !info.members.has(id.text)) info.members.set(id.text, makeDef(file, id, role, stmt));
  };
  const selfName = python ? 'self' : 'this';
  const methods: Node[] = [];
  for (const m of body.namedChildren) {
    if (!m) continue;
    const def = m.type === 'decorated_definition' ? m.childForFieldName('definition') : m;
    if (!def) continue;
    if (def.type === 'function_definition' || def.type === 'method_definition') {
      add(def.childForFieldName('name'), 'method', m);
      methods.push(def);
    } else if (/abstract_method_signature|method_signature/.test(def.type)) add(def.childForFieldName('name'), 'method', m);
    else if (def.type === 'public_field_definition' || def.type === 'field_definition') add(def.childForFieldName('name') ?? def.childForFieldName('property'), 'attribute', m);
    else if (CLASS_TYPES.has(def.type)) add(def.childForFieldName('name'), 'class', m);
    else if (python && def.type === 'expression_statement') {
      const a = def.namedChildren[0];
      const left = a?.type === 'assignment' ? a.childForFieldName('left') : undefined;
      if (left) for (const id of patternNames(left)) add(id, 'attribute', m);
    }
  }
  for (const fn of methods) {
    // TypeScript parameter properties: constructor(private readonly x: T).
    for (const p of fn.childForFieldName('parameters')?.namedChildren ?? []) {
      if (p?.type === 'required_parameter' && p.namedChildren.some((c) => c?.type === 'accessibility_modifier' || c?.type === 'override_modifier')) add(p.childForFieldName('pattern'), 'attribute', p);
      else if (p?.type === 'required_parameter' && p.children.some((c) => c?.type === 'readonly')) add(p.childForFieldName('pattern'), 'attribute', p);
    }
    selfAssignments(fn, selfName, python, (id, stmt) => add(id, 'attribute', stmt));
  }
  info.bases = basesOf(cls, python);
  return info;
}

/** `self.x = ...` / `this.x = ...` in a method body (not in nested classes). */
function selfAssignments(fn: Node, selfName: string, python: boolean, found: (id: Node, stmt: Node) => void): void {
  const stack: Node[] = [fn];
  while (stack.length) {
    const n = stack.pop()!;
    if (n !== fn && CLASS_TYPES.has(n.type)) continue;
    const isAssign = python ? n.type === 'assignment' || n.type === 'augmented_assignment' : n.type === 'assignment_expression';
    if (isAssign) {
      const left = n.childForFieldName('left');
      const targets = left?.type === 'pattern_list' || left?.type === 'tuple_pattern' ? left.namedChildren : [left];
      for (const t of targets) {
        if (t?.type !== (python ? 'attribute' : 'member_expression')) continue;
        const obj = t.childForFieldName('object');
        const prop = t.childForFieldName(python ? 'attribute' : 'property');
        if (obj?.text === selfName && prop) found(prop, n.parent?.type === 'expression_statement' ? n.parent : n);
      }
    }
    for (let i = n.namedChildCount - 1; i >= 0; i--) {
      const c = n.namedChild(i);
      if (c) stack.push(c);
    }
  }
}

function basesOf(cls: Node, python: boolean): string[] {
  if (python) {
    const args = cls.childForFieldName('superclasses');
    return (args?.namedChildren ?? []).filter((c) => c && (c.type === 'identifier' || c.type === 'attribute')).map((c) => c!.text);
  }
  const heritage = cls.namedChildren.find((c) => c?.type === 'class_heritage');
  if (!heritage) return [];
  const ext = heritage.namedChildren.find((c) => c?.type === 'extends_clause');
  const value = ext ? ext.childForFieldName('value') ?? ext.namedChildren[0] : heritage.namedChildren[0];
  return value && (value.type === 'identifier' || value.type === 'member_expression') ? [value.text] : [];
}
