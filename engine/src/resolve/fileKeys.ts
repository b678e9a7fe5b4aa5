// What the resolver keeps per file text: a key for the text, and the file's summary with ECMAScript's
// declared values (resolver.ts).
import type { Tree } from 'web-tree-sitter';
import { summarize } from './summary';
import type { ModuleSummary, ResolvedDef } from './types';
import { collectValues } from './values';

/** A file's summary, with ECMAScript's declared values and member holders. */
export function summarizeAll(file: string, tree: Tree, python: boolean): ModuleSummary {
  const s = summarize(file, tree, python);
  if (!python) collectValues(file, tree.rootNode, s);
  return s;
}

export function moduleDef(file: string): ResolvedDef {
  return { file, name: file, role: 'module', startLine: 0, endLine: 0, declLine: 0, line: 0, column: 0 };
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
