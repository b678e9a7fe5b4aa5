// Incremental re-parsing of an edited buffer: typing changes a few characters, so the previous
// version's tree, told where the text changed, is re-parsed in about a millisecond where a full
// parse of a large file takes tens (test/bench/results/2026-11-25-ui-latency.md). Positions are in
// UTF-16 code units, as web-tree-sitter reports them for JavaScript strings.
import type { Edit, Parser, Tree } from 'web-tree-sitter';

interface Point {
  row: number;
  column: number;
}

function pointAt(text: string, index: number): Point {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: index - lineStart };
}

/** The one edit that turns `before` into `after` (their common head and tail kept), or null when equal. */
export function editBetween(before: string, after: string): Edit | null {
  if (before === after) return null;
  const max = Math.min(before.length, after.length);
  let head = 0;
  while (head < max && before.charCodeAt(head) === after.charCodeAt(head)) head++;
  let tail = 0;
  while (tail < max - head && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)) tail++;
  return {
    startIndex: head,
    oldEndIndex: before.length - tail,
    newEndIndex: after.length - tail,
    startPosition: pointAt(before, head),
    oldEndPosition: pointAt(before, before.length - tail),
    newEndPosition: pointAt(after, after.length - tail),
  } as Edit;
}

/**
 * Parses `text`, reusing `previous` (the tree of `previousText`) when given: the caller's tree is
 * left as it was (a copy is edited). Returns null when the parse was cancelled by `progress`.
 */
export function parseReusing(parser: Parser, text: string, previous: { tree: Tree; text: string } | undefined, progress: () => boolean): Tree | null {
  const tree = parseOnce(parser, text, previous, progress);
  // A cancelled parse is resumed by the parser's next call, whatever text that is (one parser
  // serves every file of a language): start the next one afresh.
  if (!tree) parser.reset();
  return tree;
}

function parseOnce(parser: Parser, text: string, previous: { tree: Tree; text: string } | undefined, progress: () => boolean): Tree | null {
  const options = { progressCallback: progress } as Parameters<Parser['parse']>[2];
  const edit = previous ? editBetween(previous.text, text) : null;
  if (!previous || !edit) return parser.parse(text, null, options);
  const base = previous.tree.copy();
  try {
    base.edit(edit);
    return parser.parse(text, base, options);
  } finally {
    base.delete();
  }
}
