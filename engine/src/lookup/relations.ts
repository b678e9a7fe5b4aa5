// How a chunk relates to a name, read from the syntax node of each occurrence (tree-sitter), not
// from the text around it: a declaration of the name defines it (never "calls it"), a call
// expression calls it, an import statement imports it, an occurrence only in a string or comment
// merely mentions it. Hover and Find Related Code label their rows with it.
import type { Node } from 'web-tree-sitter';
import type { LoadedGrammar } from '../chunk/grammar';
import { parseReusing } from '../chunk/reparse';

/** Strongest first: a chunk's relation is its strongest occurrence's. */
export type RelationKind = 'defines' | 'overrides' | 'calls' | 'uses' | 'imports' | 'mentions';

export interface ChunkRelation {
  kind: RelationKind;
  /** The line of that occurrence (0-based, in its file). */
  line: number;
}

const RANK: Record<RelationKind, number> = { defines: 0, overrides: 0, calls: 1, uses: 2, imports: 3, mentions: 4 };
/** Node types that are names in the chunker's grammars. */
const NAME_TYPES = /identifier$|^constant$|^shorthand_property_identifier(_pattern)?$/;
/** Text, not code: inside one of these an occurrence is only a mention (unless interpolated). */
const NOT_CODE = /comment|string|heredoc|regex|char_literal/;
const INTERPOLATION = /^(template_substitution|interpolation)$/;
const IMPORT = /^(import_statement|import_from_statement|future_import_statement|import_declaration|use_declaration|preproc_include|import_spec|namespace_import|import_clause)$/;
const DECLARATION_PARENT = /definition|declaration|declarator|signature|method|class|function|spec|item/;
const CALL = /call|invocation|new_expression/;
const MEMBER = /member_expression|attribute|field_expression|selector_expression|scoped_identifier|field_access/;
const PARSE_TIMEOUT_MS = 50;

/** Whether `node` is the name its parent declares (`def f`, `function f`, `class C`, a method's name). */
function isDeclaredName(node: Node): boolean {
  const parent = node.parent;
  if (!parent || !DECLARATION_PARENT.test(parent.type)) return false;
  return parent.childForFieldName('name')?.id === node.id;
}

function isCalled(node: Node): boolean {
  let callee: Node = node;
  const parent = node.parent;
  if (parent && MEMBER.test(parent.type)) {
    const prop = parent.childForFieldName('property') ?? parent.childForFieldName('attribute') ?? parent.childForFieldName('field') ?? parent.childForFieldName('name');
    if (prop?.id === node.id) callee = parent;
  }
  const call = callee.parent;
  if (!call || !CALL.test(call.type)) return false;
  const fn = call.childForFieldName('function') ?? call.childForFieldName('constructor') ?? call.childForFieldName('name');
  return fn?.id === callee.id || fn?.id === node.id;
}

/** The relation of one occurrence of the name, from its node and ancestors. */
export function occurrenceKind(node: Node): RelationKind {
  for (let p = node.parent; p; p = p.parent) {
    if (INTERPOLATION.test(p.type)) break;
    if (NOT_CODE.test(p.type)) return 'mentions';
  }
  for (let p = node.parent; p; p = p.parent) if (IMPORT.test(p.type)) return 'imports';
  if (node.parent?.type === 'export_specifier' || node.parent?.type === 'import_specifier') return 'imports';
  if (isDeclaredName(node)) return 'defines';
  return isCalled(node) ? 'calls' : 'uses';
}

/** The text with its common indentation removed (a method cut from its class parses as top-level code). */
function dedent(text: string): string {
  const lines = text.split('\n');
  let indent = Infinity;
  for (const l of lines) if (l.trim()) indent = Math.min(indent, l.length - l.trimStart().length);
  return Number.isFinite(indent) && indent > 0 ? lines.map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length))).join('\n') : text;
}

export interface Occurrence {
  kind: RelationKind;
  line: number;
  /** Set for declarations: the node, to ask whether it overrides (read before the tree is freed). */
  method?: boolean;
}

/**
 * Every occurrence of `name` as a name node in `text` (a chunk's lines, the first of which is
 * `startLine` of its file), with its kind; undefined when the text cannot be parsed in time.
 */
export function occurrencesIn(grammar: LoadedGrammar, text: string, startLine: number, name: string): Occurrence[] | undefined {
  const source = dedent(text);
  // Rows where the name is written: only subtrees spanning one are walked (a chunk's tree is
  // thousands of nodes; reading each as a Node costs more than the parse).
  const rows = rowsWith(source, name);
  if (!rows.length) return [];
  const deadline = Date.now() + PARSE_TIMEOUT_MS;
  const tree = parseReusing(grammar.parser, source, undefined, () => Date.now() > deadline);
  if (!tree) return undefined;
  try {
    const out: Occurrence[] = [];
    const cursor = tree.walk();
    const spansRow = (from: number, to: number): boolean => rows.some((r) => r >= from && r <= to);
    const visit = (): void => {
      if (!spansRow(cursor.startPosition.row, cursor.endPosition.row)) return;
      if (cursor.nodeIsNamed && NAME_TYPES.test(cursor.nodeType) && cursor.nodeText === name) {
        const n = cursor.currentNode;
        const kind = occurrenceKind(n);
        out.push({ kind, line: startLine + n.startPosition.row, ...(kind === 'defines' && /method|function_definition/.test(n.parent?.type ?? '') ? { method: true } : {}) });
      }
      if (cursor.gotoFirstChild()) {
        do visit(); while (cursor.gotoNextSibling());
        cursor.gotoParent();
      }
    };
    visit();
    cursor.delete();
    return out;
  } finally {
    tree.delete();
  }
}

/** The 0-based rows of `text` where `name` appears (as a substring: the walk checks the nodes). */
function rowsWith(text: string, name: string): number[] {
  const rows: number[] = [];
  let row = 0;
  let from = 0;
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + name.length)) {
    for (let nl = text.indexOf('\n', from); nl >= 0 && nl < at; nl = text.indexOf('\n', nl + 1)) {
      row++;
      from = nl + 1;
    }
    if (rows[rows.length - 1] !== row) rows.push(row);
  }
  return rows;
}

/** The strongest of the occurrences (the first of its kind), or undefined when there are none. */
export function strongest(occurrences: readonly Occurrence[]): Occurrence | undefined {
  let best: Occurrence | undefined;
  for (const o of occurrences) if (!best || RANK[o.kind] < RANK[best.kind]) best = o;
  return best;
}
