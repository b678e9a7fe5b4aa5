// `continue`: Continue's autocomplete context, as its documentation and blog ("Root path context:
// the secret ingredient in Continue's autocomplete prompt", 2024) describe it: the definitions of
// the types named along the cursor's syntax path (the headers of the enclosing functions, methods
// and classes: parameter and return types, base classes), and the definitions of imported symbols
// whose names occur near the cursor; each source's snippets fill its share of the token budget.
// Approximated: the engine's tree-sitter definitions stand in for the language server's
// go-to-definition (a name resolves in the file itself, else through the file's import of it, else
// to the definition nearest by path); of Continue's other sources (recently edited and visited
// ranges, clipboard, open files) the bench has no editor history, so only these two are used and
// share the budget equally, a share left unused going to the other.
import type { Node } from 'web-tree-sitter';
import { getEncoding } from 'js-tiktoken';
import type { Task } from '../../split';
import { splitLines } from '../../split';
import { keywordsOf } from '../../protocols';
import type { BenchSystem } from '../system';
import { chunker, CorpusContextSystem, type DefinitionAt } from './corpus';
import { identifiersNearCursor } from './tabby';

export const CONTINUE = { nearCursorLines: 20 } as const;

/** Node types that open a scope whose header names types (functions, methods, classes), per grammar family. */
const PATH_NODES = new Set([
  // Python
  'function_definition', 'class_definition',
  // TypeScript / JavaScript
  'function_declaration', 'function_expression', 'arrow_function', 'method_definition', 'class_declaration', 'abstract_class_declaration', 'interface_declaration', 'generator_function_declaration',
  // Go
  'method_declaration', 'func_literal', 'type_declaration',
  // Java
  'constructor_declaration', 'record_declaration', 'enum_declaration',
  // Rust
  'function_item', 'impl_item', 'trait_item', 'struct_item', 'enum_item', 'closure_expression',
  // C / C++
  'struct_specifier', 'class_specifier', 'lambda_expression',
]);

/** The text of a scope node before its body: its header (signature, base classes). */
function headerOf(node: Node): string {
  const body = node.childForFieldName('body');
  const end = body && body.startIndex > node.startIndex ? body.startIndex : node.endIndex;
  return node.text.slice(0, end - node.startIndex);
}

/** Headers of the scopes enclosing `row` (innermost first), from a parse of `text`. */
export async function rootPathHeaders(file: string, text: string): Promise<string[]> {
  const grammar = await (await chunker()).grammarFor(file);
  if (!grammar) return [];
  const lines = text.split('\n');
  let row = lines.length - 1;
  while (row > 0 && !lines[row].trim()) row--;
  const tree = grammar.parser.parse(text);
  if (!tree) return [];
  try {
    const column = Math.max(0, lines[row].length - 1);
    let node: Node | null = tree.rootNode.descendantForPosition({ row, column });
    const out: string[] = [];
    for (; node; node = node.parent) if (PATH_NODES.has(node.type)) out.push(headerOf(node));
    return out;
  } finally {
    tree.delete();
  }
}

/**
 * Fills a budget from several sources, each first within an equal share (whole snippets that fit,
 * in order), then what is left over goes to the remaining snippets in source order, the first that
 * does not fit cut to the room left.
 */
export function fillShares(sources: string[][], budget: number, count: (s: string) => number, cut: (s: string, tokens: number) => string): string[] {
  const live = sources.filter((s) => s.length);
  if (!live.length) return [];
  const share = budget / live.length;
  const taken = live.map(() => new Set<number>());
  let used = 0;
  live.forEach((src, i) => {
    let mine = 0;
    src.forEach((s, j) => {
      const n = count(s);
      if (mine + n <= share) {
        taken[i].add(j);
        mine += n;
      }
    });
    used += mine;
  });
  const out = live.map((src, i) => src.filter((_, j) => taken[i].has(j)));
  for (let i = 0; i < live.length && used < budget; i++) {
    for (let j = 0; j < live[i].length && used < budget; j++) {
      if (taken[i].has(j)) continue;
      const n = count(live[i][j]);
      if (used + n <= budget) {
        out[i].push(live[i][j]);
        used += n;
      } else {
        out[i].push(cut(live[i][j], budget - used));
        used = budget;
      }
    }
  }
  return out.flat();
}

const enc = getEncoding('p50k_base');

/** Continue's autocomplete looks definitions up; it ranks no fragments. */
export class ContinueSystem extends CorpusContextSystem implements BenchSystem {
  readonly name = 'continue';
  /** Each source's share is a share of the budget. */
  readonly budgetAware = true;
  private cache: { task: Task; root: string[]; imports: string[] } | undefined;

  private async sources(task: Task): Promise<{ root: string[]; imports: string[] }> {
    if (this.cache?.task === task) return this.cache;
    const keywords = keywordsOf(task.language);
    const seen = new Set<string>();
    const inWindow = (d: DefinitionAt) => d.file === task.file && d.endLine >= task.context_start_line;
    const snippet = async (d: DefinitionAt | undefined): Promise<string | undefined> => {
      if (!d || inWindow(d)) return undefined;
      const key = `${d.file}:${d.startLine}`;
      if (seen.has(key)) return undefined;
      seen.add(key);
      return this.corpus.textOf(task, d);
    };
    // Root path: the types named in the headers of the enclosing scopes.
    const root: string[] = [];
    for (const header of await rootPathHeaders(task.file, task.left_context)) {
      const names = [...new Set(header.match(/[A-Za-z_$][A-Za-z0-9_$]*/g) ?? [])].filter((n) => !keywords.has(n));
      for (const n of names) {
        const d = await this.corpus.definitionOf(task, n);
        if (d && (d.kind === 'class' || d.kind === 'class-header' || d.kind === 'type')) {
          const s = await snippet(d);
          if (s) root.push(s);
        }
      }
    }
    // Imports: imported names used near the cursor (`name` or `module.member`).
    const here = await this.corpus.taskFile(task);
    const near = splitLines(task.left_context).slice(-CONTINUE.nearCursorLines);
    const imports: string[] = [];
    const nearIds = identifiersNearCursor(near, keywords);
    for (const id of nearIds) {
      const imp = here.chunked.imports.find((i) => i.local === id);
      if (!imp) continue;
      if (imp.imported === '*' || imp.imported === 'default') {
        // A module or namespace import: the members used on it near the cursor.
        const members = new Set<string>();
        for (const l of near) for (const m of l.matchAll(new RegExp(`\\b${id.replace(/\$/g, '\\$')}\\s*(?:\\.|::|->)\\s*([A-Za-z_$][A-Za-z0-9_$]*)`, 'g'))) members.add(m[1]);
        for (const m of members) {
          const s = await snippet(await this.corpus.definitionOf(task, m, { via: imp, member: true }));
          if (s) imports.push(s);
        }
      } else {
        const s = await snippet(await this.corpus.definitionOf(task, imp.imported, { via: imp }));
        if (s) imports.push(s);
      }
    }
    this.cache = { task, root, imports };
    return this.cache;
  }

  async context(task: Task, budgetTokens = 1024): Promise<string[]> {
    const { root, imports } = await this.sources(task);
    return fillShares([root, imports], budgetTokens, (s) => enc.encode(s).length, (s, n) => enc.decode(enc.encode(s).slice(0, n)));
  }
}
