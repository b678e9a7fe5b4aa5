// Which scope binds a name, from a grammar's `locals` query (grammars/queries/locals/NAME.scm,
// tree-sitter's convention: @local.scope, @local.definition.KIND). A definition belongs to the
// nearest scope around it, except that a function's or class's own name belongs to the scope around
// that function or class. A `pattern` definition binds every identifier of its target
// (`a, (b, *c) = ...`, `const { x, y: [z] } = ...`, parameters with defaults).
import type { Node, Query, Tree } from 'web-tree-sitter';

export type BindingKind = 'function' | 'class' | 'type' | 'namespace' | 'parameter' | 'var' | 'import';

export interface Binding {
  kind: BindingKind;
  /** The binding identifier. */
  node: Node;
  /** The scope it binds in; the tree's root for module level. */
  scope: Node;
}

/** Python class bodies are not visible from the functions inside them. */
const PY_FUNCTION_SCOPES = new Set(['function_definition', 'lambda', 'list_comprehension', 'set_comprehension', 'dictionary_comprehension', 'generator_expression']);
const BINDING_NAMES = new Set(['identifier', 'shorthand_property_identifier_pattern', 'type_identifier', 'shorthand_field_identifier']);

export class LocalScopes {
  private readonly scopes = new Set<number>();
  /** Scope node id -> name -> first binding. */
  private readonly defs = new Map<number, Map<string, Binding>>();

  constructor(tree: Tree, query: Query, private readonly python: boolean) {
    const captures = query.captures(tree.rootNode);
    const scopeNodes = new Map<number, Node>();
    for (const c of captures) if (c.name === 'local.scope') scopeNodes.set(c.node.id, c.node);
    for (const id of scopeNodes.keys()) this.scopes.add(id);
    const found: Array<{ id: Node; kind: BindingKind }> = [];
    for (const c of captures) {
      if (!c.name.startsWith('local.definition.')) continue;
      const kind = c.name.slice('local.definition.'.length);
      if (kind === 'pattern') for (const id of patternNames(c.node)) found.push({ id, kind: 'var' });
      else found.push({ id: c.node, kind: kind as BindingKind });
    }
    const around = enclosingScopes([...scopeNodes.values()], found.map((f) => f.id));
    found.forEach((f, i) => this.add(f.id, f.kind, around ? around[i] : this.ancestorScopes(f.id)));
  }

  /** `scopes`: the scopes around `id`, innermost first. */
  private add(id: Node, kind: BindingKind, scopes: readonly Node[]): void {
    const scope = scopeAround(id, scopes);
    if (!scope) return;
    let m = this.defs.get(scope.id);
    if (!m) this.defs.set(scope.id, (m = new Map()));
    const prev = m.get(id.text);
    // Python: an assignment anywhere in a function makes the name local; the first binding is shown.
    if (!prev || (prev.node.startIndex > id.startIndex)) m.set(id.text, { kind, node: id, scope });
  }

  /** The scopes among `id`'s ancestors, innermost first. */
  private ancestorScopes(id: Node): Node[] {
    const out: Node[] = [];
    for (let p = id.parent; p; p = p.parent) if (this.scopes.has(p.id)) out.push(p);
    return out;
  }

  /**
   * The binding of the name `node` refers to, innermost scope first, or undefined when nothing in
   * the file binds it (a builtin, a global, or a typo).
   */
  bindingOf(node: Node): Binding | undefined {
    const name = node.text;
    let crossedFunction = false;
    for (let p = node.parent; p; p = p.parent) {
      if (!this.scopes.has(p.id)) continue;
      const namesIt = p.childForFieldName('name')?.id === node.id;
      if (this.python && p.type === 'class_definition' && crossedFunction) continue;
      if (!namesIt) {
        const b = this.defs.get(p.id)?.get(name);
        if (b) return b;
      }
      if (this.python && PY_FUNCTION_SCOPES.has(p.type) && !namesIt) crossedFunction = true;
    }
    return undefined;
  }

  /** Every name bound in the scopes around `node` (as bindingOf would find them), for checking code inserted there. */
  visibleAt(node: Node): Set<string> {
    const out = new Set<string>();
    let crossedFunction = false;
    for (let p: Node | null = node; p; p = p.parent) {
      if (!this.scopes.has(p.id)) continue;
      if (!(this.python && p.type === 'class_definition' && crossedFunction)) for (const name of this.defs.get(p.id)?.keys() ?? []) out.add(name);
      if (this.python && PY_FUNCTION_SCOPES.has(p.type)) crossedFunction = true;
    }
    return out;
  }

  /** Every name the file binds in some scope. */
  definedNames(): Set<string> {
    const out = new Set<string>();
    for (const m of this.defs.values()) for (const name of m.keys()) out.add(name);
    return out;
  }

  isScope(node: Node): boolean {
    return this.scopes.has(node.id);
  }
}

/** The nearest of `scopes` (around a binding identifier, innermost first) that it does not name. */
function scopeAround(id: Node, scopes: readonly Node[]): Node | undefined {
  return scopes.find((p) => p.childForFieldName('name')?.id !== id.id);
}

/**
 * For each of `ids`, the `scopes` whose range holds it, innermost first, found by one sweep over
 * the ranges instead of a walk up each identifier's ancestors (a wasm call per step: half of a
 * 2,800-line file's scopes). Nodes of one tree nest, so a range that holds a node is an ancestor's;
 * undefined when two scopes share a range (which is inner is not in the ranges): walk instead.
 */
export function enclosingScopes(scopes: readonly Node[], ids: readonly Node[]): Node[][] | undefined {
  const ranged = scopes.map((node) => ({ node, start: node.startIndex, end: node.endIndex })).sort((a, b) => a.start - b.start || b.end - a.end);
  for (let i = 1; i < ranged.length; i++) if (ranged[i].start === ranged[i - 1].start && ranged[i].end === ranged[i - 1].end) return undefined;
  const order = ids.map((id, i) => ({ i, start: id.startIndex, end: id.endIndex })).sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Node[][] = new Array(ids.length);
  const open: typeof ranged = [];
  let next = 0;
  for (const d of order) {
    // Scopes that start at or before the identifier opened; those that end before it closed.
    while (next < ranged.length && ranged[next].start <= d.start) {
      while (open.length && open[open.length - 1].end <= ranged[next].start && open[open.length - 1].end < ranged[next].end) open.pop();
      open.push(ranged[next++]);
    }
    out[d.i] = open.filter((s) => s.start <= d.start && d.end <= s.end && !(s.start === d.start && s.end === d.end)).reverse().map((s) => s.node);
  }
  return out;
}

/** The identifiers a binding target binds (not keys, defaults' values, attributes or subscripts). */
export function patternNames(target: Node): Node[] {
  const out: Node[] = [];
  const walk = (n: Node): void => {
    if (BINDING_NAMES.has(n.type)) {
      out.push(n);
      return;
    }
    switch (n.type) {
      case 'pair_pattern': {
        const v = n.childForFieldName('value');
        if (v) walk(v);
        return;
      }
      case 'assignment_pattern':
      case 'object_assignment_pattern': {
        const l = n.childForFieldName('left');
        if (l) walk(l);
        return;
      }
      case 'required_parameter':
      case 'optional_parameter': {
        const pat = n.childForFieldName('pattern');
        if (pat) walk(pat);
        return;
      }
      // Rust patterns: a struct's or tuple struct's type is no binding; a match arm's guard neither.
      case 'tuple_struct_pattern': case 'struct_pattern': case 'match_pattern':
        for (const c of n.namedChildren) if (c && c.id !== n.childForFieldName('type')?.id && c.id !== n.childForFieldName('condition')?.id) walk(c);
        return;
      case 'field_pattern': {
        const v = n.childForFieldName('pattern') ?? n.namedChildren.find((c) => c?.type === 'shorthand_field_identifier');
        if (v) walk(v);
        return;
      }
      case 'parameter': {
        const pat = n.childForFieldName('pattern');
        if (pat) walk(pat);
        return;
      }
      // C and C++ declarators: the name they declare, not the initializer or array size.
      case 'init_declarator': case 'pointer_declarator': case 'array_declarator': case 'function_declarator': case 'attributed_declarator': {
        const d = n.childForFieldName('declarator');
        if (d) walk(d);
        return;
      }
      case 'mut_pattern': case 'ref_pattern': case 'reference_pattern': case 'or_pattern': case 'slice_pattern': case 'captured_pattern':
      case 'parenthesized_declarator': case 'reference_declarator': case 'structured_binding_declarator': case 'variadic_declarator':
      case 'object_pattern': case 'array_pattern': case 'rest_pattern': case 'pattern_list': case 'tuple_pattern':
      case 'list_pattern': case 'tuple': case 'list': case 'as_pattern_target': case 'list_splat_pattern':
      case 'parenthesized_expression': case 'list_splat':
        for (const c of n.namedChildren) if (c) walk(c);
        return;
      default:
        return; // attribute, subscript, member_expression: not a new name
    }
  };
  walk(target);
  return out;
}
