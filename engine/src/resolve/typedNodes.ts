// A file's nodes of some types, found by tree-sitter's own walk (descendantsOfType, in wasm) instead
// of a walk in JavaScript over every named child: on a 2,800-line TypeScript file the JavaScript
// walks of a module summary took 60-200 ms of a hover (one Node object per child), the search a few.
import type { Node } from 'web-tree-sitter';

/**
 * The named nodes of `types` under `root` (itself excluded), in the order of the stack walk they
 * replace (pop a node, push its named children in order): later siblings first, a node before its
 * descendants. Callers whose first or last write wins see the same nodes first.
 */
export function namedOfTypes(root: Node, types: readonly string[]): Node[] {
  const found = root.descendantsOfType([...types]).filter((n): n is Node => !!n && n.isNamed && n.id !== root.id);
  // descendantsOfType lists in document order (an ancestor before its descendants): the stack walk
  // visits by end descending, then start ascending, then that order (an ancestor with its child's range first).
  const order = new Map(found.map((n, i) => [n.id, i]));
  return found.sort((a, b) => b.endIndex - a.endIndex || a.startIndex - b.startIndex || order.get(a.id)! - order.get(b.id)!);
}
