// Protocol R's sample: identifier occurrences of a repository, stratified by syntactic kind, chosen
// with a seeded PRNG (util/prng.ts). Positions come from tree-sitter (the chunker's grammars); what
// each name refers to comes from a language service (truthTs.ts, truthPython.ts, truthClang.ts), never from us.
// Only names the hover would look at: not keywords, comments, strings or numbers, not the names a
// declaration introduces (a declaration is not a reference), at least MIN_NAME characters.
import type { Node } from 'web-tree-sitter';
import type { Chunker } from '../../../engine/src/chunk';
import { KEYWORD_NAMES, MIN_NAME } from '../../../engine/src/lookup/symbols';
import { mulberry32 } from '../../../engine/src/util/prng';
import type { Repo } from '../split';
import { cSyntaxKind } from './sampleC';

/** Syntactic strata: a bare callee, a member access, a type reference, a name in an import, any other bare name (mostly locals). */
export type SyntaxKind = 'call' | 'member' | 'type' | 'import' | 'name';
export const SYNTAX_KINDS: SyntaxKind[] = ['call', 'member', 'type', 'import', 'name'];

export interface Occurrence {
  file: string;
  line: number;
  column: number;
  name: string;
  syntax: SyntaxKind;
}

const NOT_CODE = /comment|string|heredoc|regex|number|integer|float/;
/** Parents of which a name child is a declaration, not a reference. */
const PY_DECL = new Set(['function_definition', 'class_definition', 'parameters', 'default_parameter', 'typed_parameter', 'typed_default_parameter', 'lambda_parameters', 'list_splat_pattern', 'dictionary_splat_pattern', 'keyword_argument', 'global_statement', 'nonlocal_statement', 'as_pattern_target', 'pattern_list', 'tuple_pattern']);
const TS_DECL = new Set(['function_declaration', 'generator_function_declaration', 'class_declaration', 'abstract_class_declaration', 'variable_declarator', 'method_definition', 'public_field_definition', 'field_definition',
  'interface_declaration', 'type_alias_declaration', 'enum_declaration', 'required_parameter', 'optional_parameter', 'type_parameter', 'pair', 'property_signature', 'method_signature', 'abstract_method_signature',
  'formal_parameters', 'export_specifier', 'enum_body', 'enum_assignment', 'object_pattern', 'array_pattern', 'pair_pattern', 'rest_pattern', 'assignment_pattern', 'internal_module', 'function_signature', 'labeled_statement', 'catch_clause', 'jsx_attribute']);

function syntaxKind(node: Node, grammar: string): SyntaxKind | undefined {
  if (grammar === 'c' || grammar === 'cpp') return cSyntaxKind(node);
  const python = grammar === 'python';
  const parent = node.parent;
  if (!parent) return undefined;
  for (let p: Node | null = parent; p; p = p.parent) {
    if (p.type === 'template_substitution' || p.type === 'interpolation') break;
    if (NOT_CODE.test(p.type)) return undefined;
  }
  if (python) {
    if (node.type !== 'identifier') return undefined;
    for (let p: Node | null = parent; p; p = p.parent) {
      if (p.type === 'import_statement' || p.type === 'future_import_statement') return undefined;
      if (p.type === 'import_from_statement') return p.childForFieldName('module_name') && inside(node, p.childForFieldName('module_name')!) ? undefined : 'import';
    }
    if (PY_DECL.has(parent.type) && parent.type !== 'keyword_argument') return undefined;
    if (parent.type === 'keyword_argument' && parent.childForFieldName('name')?.id === node.id) return undefined;
    if ((parent.type === 'assignment' || parent.type === 'augmented_assignment' || parent.type === 'for_statement' || parent.type === 'for_in_clause') && parent.childForFieldName('left')?.id === node.id) return undefined;
    if (parent.type === 'attribute' && parent.childForFieldName('attribute')?.id === node.id) return 'member';
    if (parent.type === 'call' && parent.childForFieldName('function')?.id === node.id) return 'call';
    for (let p: Node | null = parent; p && !/statement|definition/.test(p.type); p = p.parent) if (p.type === 'type') return 'type';
    return 'name';
  }
  if (!['identifier', 'property_identifier', 'type_identifier', 'private_property_identifier'].includes(node.type)) return undefined;
  for (let p: Node | null = parent; p; p = p.parent) {
    if (p.type === 'import_statement') return parent.type === 'import_specifier' && parent.childForFieldName('name')?.id === node.id ? 'import' : undefined;
  }
  if (TS_DECL.has(parent.type)) return undefined;
  if (parent.type === 'arrow_function' && parent.childForFieldName('parameter')?.id === node.id) return undefined;
  if (parent.type === 'member_expression' && parent.childForFieldName('property')?.id === node.id) return 'member';
  if (node.type === 'property_identifier' || node.type === 'private_property_identifier') return undefined;
  if ((parent.type === 'call_expression' && parent.childForFieldName('function')?.id === node.id) || (parent.type === 'new_expression' && parent.childForFieldName('constructor')?.id === node.id)) return 'call';
  if (node.type === 'type_identifier') return 'type';
  return 'name';
}

const inside = (n: Node, outer: Node): boolean => n.startIndex >= outer.startIndex && n.endIndex <= outer.endIndex;

/** Every candidate occurrence of the repository, by stratum, in file and position order. */
export async function candidates(repo: Repo, chunker: Chunker): Promise<Map<SyntaxKind, Occurrence[]>> {
  const out = new Map<SyntaxKind, Occurrence[]>(SYNTAX_KINDS.map((k) => [k, []]));
  for (const f of repo.files) {
    const grammar = await chunker.grammarFor(f.relPath, f.content);
    if (!grammar) continue;
    const keywords = KEYWORD_NAMES[grammar.name];
    const tree = grammar.parser.parse(f.content);
    if (!tree) continue;
    try {
      const stack: Node[] = [tree.rootNode];
      while (stack.length) {
        const n = stack.pop()!;
        for (let i = n.namedChildCount - 1; i >= 0; i--) stack.push(n.namedChild(i)!);
        if (n.namedChildCount > 0 || n.text.length < MIN_NAME || keywords?.has(n.text)) continue;
        const line = f.lines[n.startPosition.row];
        if (line === undefined || /\P{ASCII}/u.test(line)) continue; // columns agree only on ASCII lines
        const kind = syntaxKind(n, grammar.name);
        if (kind) out.get(kind)!.push({ file: f.relPath, line: n.startPosition.row, column: n.startPosition.column, name: n.text, syntax: kind });
      }
    } finally {
      tree.delete();
    }
  }
  return out;
}

/** `perKind` occurrences of each stratum (a short stratum gives all it has), shuffled with `seed`. */
export function stratifiedSample(all: Map<SyntaxKind, Occurrence[]>, perKind: number, seed: number): Occurrence[] {
  const rand = mulberry32(seed);
  const out: Occurrence[] = [];
  for (const kind of SYNTAX_KINDS) {
    const xs = [...all.get(kind)!];
    for (let i = xs.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [xs[i], xs[j]] = [xs[j], xs[i]];
    }
    out.push(...xs.slice(0, perKind));
  }
  return out;
}
