// Small pieces of the resolver (resolver.ts) that read no module graph: a module as a definition,
// where a binding sits, a cache key for a file's text.
import type { Node, Tree } from 'web-tree-sitter';
import { summarize } from './summary';
import type { ModuleSummary, ResolvedDef } from './types';
import { collectValues } from './values';

const FUNCTION_LIKE = /^(function_declaration|function_expression|function|arrow_function|method_definition|generator_function|generator_function_declaration|class_body|class_static_block)$/;
export const inFunction = (n: Node): boolean => {
  for (let p: Node | null = n; p; p = p.parent) if (FUNCTION_LIKE.test(p.type)) return true;
  return false;
};
/** The statement declaring a binding (its `const`, `for`, `catch`). */
export const statementOf = (n: Node): Node => {
  let p = n;
  while (p.parent && !/(declaration|statement|clause)$/.test(p.type)) p = p.parent;
  return p;
};

/** A module as a definition: its first lines, up to its first statement (the language service's answer for it). */
export function moduleDef(file: string, text?: string): ResolvedDef {
  const lead = text ? /^(?:[ \t]*(?:\/\/[^\n]*|#![^\n]*|\/\*[\s\S]*?\*\/[^\n]*)?\r?\n)*/.exec(text)![0] : '';
  const endLine = lead.split('\n').length - 1;
  return { file, name: file, role: 'module', startLine: 0, endLine, declLine: 0, line: 0, column: 0 };
}

/** FNV-1a with the length: a cache key for a file's text. */
export function cacheKey(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return `${text.length}:${h >>> 0}`;
}

/** A file's summary, with ECMAScript's declared values and member holders. */
export function summarizeAll(file: string, tree: Tree, python: boolean): ModuleSummary {
  const s = summarize(file, tree, python);
  if (!python) collectValues(file, tree.rootNode, s);
  return s;
}
