// A definition as the resolver returns it (types.ts), from the syntax node of its name and of its
// statement: shared by every language's reader without importing one another.
import type { Node } from 'web-tree-sitter';
import type { DefRole, ResolvedDef } from './types';

const endRow = (n: Node): number => (n.endPosition.column === 0 && n.endPosition.row > n.startPosition.row ? n.endPosition.row - 1 : n.endPosition.row);

export function makeDef(file: string, name: Node, role: DefRole, outer: Node): ResolvedDef {
  return { file, name: name.text, role, startLine: outer.startPosition.row, endLine: endRow(outer), declLine: outer.startPosition.row, line: name.startPosition.row, column: name.startPosition.column };
}
