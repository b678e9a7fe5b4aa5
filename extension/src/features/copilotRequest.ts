// Where a Copilot context request's cursor is: `position` (the deprecated `offset` when a caller
// sends no position), in the document as Copilot's proposed edits would leave it when it sends
// some (the item selected in the suggest widget, a next-edit suggestion). vscode-free.
import type { DocumentContext, Position, ProposedTextEdit } from './copilotApi';

/** Offsets of each line's start, with the editor's line rule (CRLF, LF or a lone CR ends a line). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 13 && text.charCodeAt(i + 1) === 10) i++;
    if (ch === 13 || ch === 10) starts.push(i + 1);
  }
  return starts;
}

/** The offset of a position in `text`, clamped to the text as VS Code's offsetAt does. */
export function offsetAt(text: string, pos: Position, starts = lineStarts(text)): number {
  if (pos.line < 0) return 0;
  if (pos.line >= starts.length) return text.length;
  const lineEnd = pos.line + 1 < starts.length ? starts[pos.line + 1] : text.length;
  let end = lineEnd;
  while (end > starts[pos.line] && (text[end - 1] === '\n' || text[end - 1] === '\r')) end--;
  return Math.min(starts[pos.line] + Math.max(0, pos.character), end);
}

/**
 * The text after the proposed edits (all ranges in the original text, applied back to front) and
 * the cursor's offset in it: the last edit's `positionAfterEdit`.
 */
export function applyProposedEdits(text: string, edits: readonly ProposedTextEdit[]): { text: string; offset: number } {
  const starts = lineStarts(text);
  const spans = edits.map((e) => ({ from: offsetAt(text, e.range.start, starts), to: offsetAt(text, e.range.end, starts), newText: e.newText }))
    .sort((a, b) => b.from - a.from);
  let out = text;
  for (const s of spans) out = out.slice(0, s.from) + s.newText + out.slice(Math.max(s.from, s.to));
  return { text: out, offset: offsetAt(out, edits[edits.length - 1].positionAfterEdit) };
}

/** The request's cursor in the document as Copilot sees it (position, or the deprecated offset). */
export function requestPosition(dc: DocumentContext, positionAt: (offset: number) => Position): Position {
  const p = dc.position as Position | undefined;
  return p && Number.isInteger(p.line) && Number.isInteger(p.character) ? p : positionAt(dc.offset);
}

/** Identifies a document state and cursor: the cache key of the context computed for it. */
export function contextKey(uri: string, version: number, offset: number, edits?: readonly ProposedTextEdit[]): string {
  const edited = edits?.length ? `\u0000${JSON.stringify(edits.map((e) => [e.range, e.newText]))}` : '';
  return `${uri}\u0000${version}\u0000${offset}${edited}`;
}
