// How a chunk relates to a name, read from the syntax node of each occurrence (tree-sitter), not
// from the text around it: a declaration of the name defines it (never "calls it"), a call
// expression calls it, an import statement imports it, an occurrence only in a string or comment
// merely mentions it. Hover and Find Related Code label their rows with it.
import type { Node, Tree } from 'web-tree-sitter';
import type { LoadedGrammar } from '../chunk/grammar';
import { parseReusing } from '../chunk/reparse';
import { RecentMap } from '../util/recentMap';

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
/** Chunk trees kept for the next names looked up (a few MB of parser memory at most), and the longest chunk kept. */
const KEPT_TREES = 48;
const KEPT_TREE_CHARS = 64_000;

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
  // The ancestors' types, read once: each `parent` is a search from the root in tree-sitter.
  const above: string[] = [];
  for (let p = node.parent; p; p = p.parent) above.push(p.type);
  for (const t of above) {
    if (INTERPOLATION.test(t)) break;
    if (NOT_CODE.test(t)) return 'mentions';
  }
  if (above.some((t) => IMPORT.test(t))) return 'imports';
  if (above[0] === 'export_specifier' || above[0] === 'import_specifier') return 'imports';
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
  // Rows where the name is written: only they are searched (a chunk's tree is thousands of nodes;
  // reading each as a Node costs more than the parse).
  const rows = rowsWith(source, name);
  if (!rows.length) return [];
  const parsed = CHUNK_TREES.parse(grammar, source);
  if (!parsed) return undefined;
  try {
    const out: Occurrence[] = [];
    const types = nameTypes(grammar);
    for (const [from, to] of rowRuns(rows)) {
      // tree-sitter's own search, in document order (as a walk of the tree would meet them).
      for (const n of parsed.tree.rootNode.descendantsOfType(types, { row: from, column: 0 }, { row: to + 1, column: 0 })) {
        if (!n?.isNamed || n.text !== name) continue;
        const kind = occurrenceKind(n);
        out.push({ kind, line: startLine + n.startPosition.row, ...(kind === 'defines' && /method|function_definition/.test(n.parent?.type ?? '') ? { method: true } : {}) });
      }
    }
    return out;
  } finally {
    if (!parsed.kept) parsed.tree.delete();
  }
}

/** Consecutive rows as [first, last] runs. */
function rowRuns(rows: readonly number[]): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (const r of rows) {
    const last = runs.at(-1);
    if (last && last[1] + 1 === r) last[1] = r;
    else runs.push([r, r]);
  }
  return runs;
}

/** The grammar's node types that are names (NAME_TYPES), for tree-sitter's search. */
const NAME_TYPE_LISTS = new WeakMap<LoadedGrammar, string[]>();
function nameTypes(grammar: LoadedGrammar): string[] {
  let types = NAME_TYPE_LISTS.get(grammar);
  if (!types) NAME_TYPE_LISTS.set(grammar, (types = [...new Set(grammar.parser.language!.types.filter((t) => t && NAME_TYPES.test(t)))]));
  return types;
}

/**
 * The last chunks' trees, by grammar and text: the hover looks up several names near one place,
 * whose retrievals find many of the same chunks, and each is parsed once for all of them.
 */
class ChunkTrees {
  private readonly trees: RecentMap<string, { grammar: LoadedGrammar; tree: Tree }>;

  constructor(capacity: number, private readonly maxChars: number) {
    this.trees = new RecentMap(capacity, (entry) => {
      try {
        entry.tree.delete();
      } catch {
        // A tree of a parser module reloaded since (after a wasm trap): gone with it.
      }
    });
  }

  /** The tree of `source` in `grammar`, kept or parsed; `kept`: the caller must not delete it. Undefined: not parsed in time. */
  parse(grammar: LoadedGrammar, source: string): { tree: Tree; kept: boolean } | undefined {
    const key = `${grammar.name}\0${source}`;
    const found = this.trees.get(key);
    if (found?.grammar === grammar) return { tree: found.tree, kept: true };
    const deadline = Date.now() + PARSE_TIMEOUT_MS;
    const tree = parseReusing(grammar.parser, source, undefined, () => Date.now() > deadline);
    if (!tree) return undefined;
    if (source.length > this.maxChars) return { tree, kept: false };
    this.trees.set(key, { grammar, tree });
    return { tree, kept: true };
  }
}

/** The 0-based rows of `text` where `name` appears (as a substring: the search checks the nodes). */
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

/** The chunk trees the lookups share (one parser per language: one set of trees). */
export const CHUNK_TREES = new ChunkTrees(KEPT_TREES, KEPT_TREE_CHARS);
