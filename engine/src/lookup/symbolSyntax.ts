// The syntax behind a symbol lookup (symbols.ts): the name node at a position, its role, and a
// definition's declaration, doc and copy note as written.
import type { Node, Tree } from 'web-tree-sitter';
import type { FoundDefinition } from '../chunk/extract';

const MAX_DOC_LINES = 6;

export type SymbolRole = 'call' | 'definition' | 'reference';

/** Node types that are names in the chunker's grammars (anonymous nodes are keywords and punctuation). */
/** The hover's lookups parse files up to this size, within this time (symbols.ts, fileDefinitions.ts). */
export const MAX_PARSE_CHARS = 1_000_000;
export const PARSE_TIMEOUT_MS = 250;

export const NAME_TYPES = new Set([
  'identifier', 'type_identifier', 'property_identifier', 'field_identifier', 'shorthand_property_identifier',
  'shorthand_property_identifier_pattern', 'private_property_identifier', 'namespace_identifier', 'package_identifier',
  'statement_identifier', 'constant', 'scoped_identifier', 'primitive_type',
]);
/** Ancestors inside which an identifier-typed node is still not code the user means (docstrings are strings). */
export const NOT_CODE = /comment|string|heredoc|regex|char_literal|number|integer|float/;

/** The target of a `Copied from X` note among the lines attached above a definition. */
export function copyNote(lines: readonly string[], from: number, to: number): string | undefined {
  for (let i = Math.max(0, from - 1); i < to; i++) {
    const m = /copied from\s+([^\s]+)/i.exec(lines[i] ?? '');
    if (m) return m[1];
  }
  return undefined;
}

/** The smallest node at the position if it is a name in code, else undefined. */
export function nameNodeAt(tree: Tree, row: number, column: number): Node | undefined {
  const node = tree.rootNode.descendantForPosition({ row, column });
  if (!node || !node.isNamed || !NAME_TYPES.has(node.type)) return undefined;
  // descendantForPosition may return a node ending right before the position.
  if (node.startPosition.row !== row || column < node.startPosition.column || column >= node.endPosition.column) return undefined;
  // Inside a comment or string it is text, unless a `${...}` / f-string `{...}` lies in between.
  for (let p = node.parent; p; p = p.parent) {
    if (p.type === 'template_substitution' || p.type === 'interpolation') break;
    if (NOT_CODE.test(p.type)) return undefined;
  }
  return node;
}

export function roleOf(node: Node): SymbolRole {
  const parent = node.parent;
  if (!parent) return 'reference';
  const nameField = parent.childForFieldName('name');
  if (nameField && nameField.id === node.id && /definition|declaration|declarator|signature|method|class|function|spec|item/.test(parent.type)) return 'definition';
  // f(...), obj.f(...), obj.f<T>(...)
  let callee: Node = node;
  if (/member_expression|attribute|field_expression|selector_expression|scoped_identifier|field_access/.test(parent.type)) {
    const prop = parent.childForFieldName('property') ?? parent.childForFieldName('attribute') ?? parent.childForFieldName('field') ?? parent.childForFieldName('name');
    if (prop && prop.id === node.id) callee = parent;
  }
  const call = callee.parent;
  if (call && /call|invocation/.test(call.type)) {
    const fn = call.childForFieldName('function') ?? call.childForFieldName('name');
    if (fn && (fn.id === callee.id || fn.id === node.id)) return 'call';
  }
  return 'reference';
}

/** The declaration up to its body as written: the declaration line and, for a long header, up to 2 more. */
export function declarationText(d: FoundDefinition, lines: readonly string[]): string {
  const out: string[] = [];
  for (let i = d.declLine; i <= d.endLine && out.length < 3; i++) {
    out.push(lines[i]);
    // A header ends at the line that opens the body (`{`, `:`) or is the whole declaration.
    if (/[{:;]\s*(\/\/.*|#.*)?$|=>\s*\S*$/.test(lines[i].trimEnd()) || i === d.endLine) break;
  }
  const indent = Math.min(...out.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  return out.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)).join('\n').trimEnd();
}

export function cleanDoc(doc: string | undefined): string | undefined {
  if (!doc) return undefined;
  const kept = doc.split('\n').filter((l) => !/^\s*copied from\b/i.test(l));
  while (kept.length && !kept[0].trim()) kept.shift();
  const lines = kept.slice(0, MAX_DOC_LINES);
  if (kept.length > MAX_DOC_LINES) lines.push('…');
  const text = lines.join('\n').trim();
  return text || undefined;
}

export function sliceLines(text: string, from: number, to: number): string {
  let start = 0;
  for (let i = 0; i < from && start >= 0; i++) start = text.indexOf('\n', start) + 1 || -1;
  if (start < 0) return '';
  let end = start;
  for (let i = from; i <= to && end >= 0; i++) {
    const next = text.indexOf('\n', end);
    end = next < 0 ? -1 : next + 1;
  }
  return text.slice(start, end < 0 ? undefined : end);
}

/** FNV-1a over the text (a cache key with the length; collisions only cost a stale tree for one hover). */
export function quickHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** `name` as a whole word in code text. */
export function wordPattern(name: string): RegExp {
  return new RegExp(`(^|[^A-Za-z0-9_$])${name.replace(/[$]/g, '\\$')}(?![A-Za-z0-9_$])`);
}

const FUNCTION_LIKE = /function|method|closure|lambda|arrow|constructor|^block$|_block$|for_statement|catch_clause/;

/** Whether a name node lies inside a function, closure or block (other than as the name it declares): a local. */
export function insideFunction(node: Node): boolean {
  for (let p = node.parent; p; p = p.parent) {
    if (!FUNCTION_LIKE.test(p.type)) continue;
    if (p.id === node.parent?.id && p.childForFieldName('name')?.id === node.id) continue;
    return true;
  }
  return false;
}

/** A definition as a file's hover lookups keep it (symbols.ts fileDefinitions). */
export interface FoundDefinitionLite {
  name: string;
  role: FoundDefinition['role'];
  startLine: number;
  endLine: number;
  declLine: number;
  declaration: string;
  doc?: string;
  copyOf?: string;
}
