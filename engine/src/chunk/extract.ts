// Runs a grammar's query over a parsed tree and turns the captures into plain facts:
// definitions (with their full line range, doc and signature), call sites and import bindings.
// Capture conventions are documented in grammars/README.md.
import type { Node, Query } from 'web-tree-sitter';
import type { ImportBinding } from '../types';
import type { GrammarSpec } from './languages';
import type { LineIndex } from './lines';

/** What a query pattern says a definition is; `impl` = Rust impl block (container, not a definition). */
export type DefinitionRole = 'function' | 'method' | 'class' | 'type' | 'impl';

export interface FoundDefinition {
  role: DefinitionRole;
  name: string;
  /** Owner type named by the syntax itself (Go receiver, C++ `A::m`). */
  container?: string;
  node: Node;
  /** Line range including wrappers, decorators and the leading doc comment. */
  startLine: number;
  endLine: number;
  /** First line of the declaration proper (after doc comments and decorators). */
  declLine: number;
  signature: string;
  doc?: string;
}

export interface CallSite {
  name: string;
  line: number;
}

export interface Extracted {
  definitions: FoundDefinition[];
  calls: CallSite[];
  imports: ImportBinding[];
}

const MAX_SIGNATURE = 200;
const MAX_DOC = 2000;

export function endLineOf(node: Node): number {
  const end = node.endPosition;
  // A node ending right after a newline ends on the previous line.
  return end.column === 0 && end.row > node.startPosition.row ? end.row - 1 : end.row;
}

export function extract(
  root: Node,
  query: Query,
  spec: GrammarSpec,
  content: string,
  lines: LineIndex,
  deadlineMs: number,
): Extracted {
  const definitions: FoundDefinition[] = [];
  const calls: CallSite[] = [];
  const imports: ImportBinding[] = [];
  const seenDefinitionNodes = new Set<number>();

  const matches = query.matches(root, {
    matchLimit: 4096,
    progressCallback: () => Date.now() > deadlineMs,
  } as Parameters<Query['matches']>[1]);

  for (const match of matches) {
    let defNode: Node | undefined;
    let role: DefinitionRole | undefined;
    let name: string | undefined;
    let container: string | undefined;
    const importParts: Record<string, Node> = {};
    for (const capture of match.captures) {
      const captureName = capture.name;
      if (captureName === 'call') {
        calls.push({ name: capture.node.text, line: capture.node.startPosition.row });
      } else if (captureName === 'name') {
        name = capture.node.text;
      } else if (captureName === 'container') {
        container = capture.node.text.replace(/<.*$/s, ''); // `Box<T>::get` belongs to Box
      } else if (captureName.startsWith('definition.')) {
        defNode = capture.node;
        role = captureName.slice('definition.'.length) as DefinitionRole;
      } else if (captureName.startsWith('import.')) {
        importParts[captureName.slice('import.'.length)] = capture.node;
      }
    }
    if (defNode && role && name && !seenDefinitionNodes.has(defNode.id)) {
      seenDefinitionNodes.add(defNode.id);
      definitions.push(describeDefinition({ node: defNode, role, name, container }, spec, { content, lines }));
    }
    const binding = importBinding(importParts);
    if (binding) imports.push(binding);
  }
  return { definitions, calls, imports };
}

/** A definition as the query captured it, before its lines and signature are known. */
interface CapturedDefinition {
  node: Node;
  role: DefinitionRole;
  name: string;
  container: string | undefined;
}

function describeDefinition(
  { node, role, name, container }: CapturedDefinition,
  spec: GrammarSpec,
  { content, lines }: { content: string; lines: LineIndex },
): FoundDefinition {
  // Grow to wrappers (export, decorators, template<>), remembering where the signature starts.
  let outer = node;
  let signatureStart = node;
  for (let parent = node.parent; parent && spec.wrappers.has(parent.type); parent = parent.parent) {
    outer = parent;
    if (spec.signatureWrappers.has(parent.type)) signatureStart = parent;
  }
  const declLine = outer.startPosition.row;
  // Attach comment / decorator / attribute lines directly above (no blank line in between).
  let startLine = declLine;
  while (startLine > 0 && spec.attachedLine.test(lines.lines[startLine - 1])) startLine--;
  const endLine = endLineOf(outer);

  let doc = commentText(lines, startLine, declLine);
  if (spec.docstrings) doc = pythonDocstring(node) ?? doc;

  return {
    role,
    name,
    container,
    node,
    startLine,
    endLine,
    declLine: signatureStart.startPosition.row,
    signature: signatureOf(signatureStart, node, content),
    doc,
  };
}

/** The declaration text before the body, whitespace collapsed, at most MAX_SIGNATURE chars. */
function signatureOf(start: Node, definition: Node, content: string): string {
  const body = findBody(definition);
  let text: string;
  if (body && body.startIndex > start.startIndex) {
    // Stop before a comment between the header and the body (`def f(x):  # note`).
    let end = body.startIndex;
    for (const child of definition.children) {
      if (child && child.startIndex < end && child.startIndex > start.startIndex && child.type.includes('comment')) end = child.startIndex;
    }
    text = content.slice(start.startIndex, end);
  } else {
    // No body (type alias, struct without fields...): the first line of the declaration.
    const from = start.startIndex;
    const newline = content.indexOf('\n', from);
    text = content.slice(from, Math.min(newline < 0 ? start.endIndex : newline, start.endIndex));
  }
  text = text.replace(/\s+/g, ' ').trim();
  if (text.endsWith('{')) text = text.slice(0, -1).trimEnd();
  if (text.endsWith('=>')) text = text.slice(0, -2).trimEnd();
  return text.length > MAX_SIGNATURE ? text.slice(0, MAX_SIGNATURE - 1) + '…' : text;
}

/** The body of a definition: its `body` field, or the body of the function it is assigned. */
function findBody(node: Node): Node | null {
  const direct = node.childForFieldName('body');
  if (direct) return direct;
  // `const f = () => {...}` (declarator value) / `a.b = function () {...}` (assignment right side).
  for (const child of node.namedChildren) {
    const assigned = child?.childForFieldName('value') ?? child?.childForFieldName('right');
    const body = assigned?.childForFieldName('body');
    if (body) return body;
  }
  return null;
}

function commentText(lines: LineIndex, startLine: number, declLine: number): string | undefined {
  const parts: string[] = [];
  for (let i = startLine; i < declLine; i++) {
    const line = lines.lines[i].trim();
    if (line.startsWith('@') || line.startsWith('#[') || line.startsWith('[[')) continue; // decorators/attributes
    const text = line
      .replace(/^\/\*\*?/, '')
      .replace(/\*\/$/, '')
      .replace(/^\/\/[/!]?/, '')
      .replace(/^\*(?!\/)/, '')
      .replace(/^#/, '')
      .trim();
    parts.push(text);
  }
  const doc = parts.join('\n').trim();
  return doc ? clip(doc) : undefined;
}

function pythonDocstring(definition: Node): string | undefined {
  const body = definition.childForFieldName('body');
  const first = body?.firstNamedChild;
  if (!first || first.type !== 'expression_statement') return undefined;
  const string = first.firstNamedChild;
  if (!string || string.type !== 'string') return undefined;
  const text = string.text.replace(/^[rRbBuUfF]*("""|'''|"|')/, '').replace(/("""|'''|"|')$/, '');
  const doc = dedent(text).trim();
  return doc ? clip(doc) : undefined;
}

function dedent(text: string): string {
  const lines = text.split('\n');
  let indent = Infinity;
  for (const line of lines.slice(1)) {
    if (/\S/.test(line)) indent = Math.min(indent, line.length - line.trimStart().length);
  }
  if (!Number.isFinite(indent)) return text;
  return [lines[0], ...lines.slice(1).map((line) => line.slice(indent))].join('\n');
}

function clip(text: string): string {
  return text.length > MAX_DOC ? text.slice(0, MAX_DOC - 1) + '…' : text;
}

function unquote(text: string): string {
  return text.replace(/^["'`]|["'`]$/g, '');
}

/** One binding from the captures of one import pattern match (see grammars/README.md). */
function importBinding(parts: Record<string, Node>): ImportBinding | undefined {
  const alias = parts['alias']?.text;
  if (parts['default'] && parts['source']) {
    return { local: parts['default'].text, imported: 'default', source: unquote(parts['source'].text) };
  }
  if (parts['namespace'] && parts['source']) {
    return { local: parts['namespace'].text, imported: '*', source: unquote(parts['source'].text) };
  }
  if (parts['name'] && parts['source']) {
    const imported = parts['name'].text;
    return { local: alias ?? imported.split('.').pop()!, imported, source: unquote(parts['source'].text) };
  }
  if (parts['module']) {
    const source = unquote(parts['module'].text);
    if (alias === '_' || alias === '.') return undefined; // Go blank / dot imports bind no name
    let local = alias;
    if (!local) {
      if (source.includes('/')) {
        const segments = source.split('/').filter((s) => !/^v\d+$/.test(s)); // Go: drop /v2 suffixes
        local = segments[segments.length - 1].replace(/\.v\d+$/, ''); // gopkg.in/yaml.v3 -> yaml
      } else {
        local = source.split('.')[0]; // Python: `import a.b` binds `a`
      }
    }
    return local ? { local, imported: '*', source } : undefined;
  }
  if (parts['path']) {
    const path = parts['path'].text;
    const separator = path.includes('::') ? '::' : '.';
    const segments = path.split(separator);
    const imported = segments.pop()!;
    return { local: alias ?? imported, imported, source: segments.join(separator) };
  }
  return undefined;
}
