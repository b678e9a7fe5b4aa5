// The one line-splitting rule used everywhere, the editor's: \r\n, \n and a lone \r each end a
// line (VS Code splits so); the final empty element of a text ending with a line break is dropped.
// Text read from disk has its lone CRs turned into LF on the way in (scan/decode.ts), the same
// length, so tree-sitter's rows (it counts LF only) are the editor's lines too.

/** Any line break: CRLF, LF or a lone CR. */
export const LINE_BREAK = /\r\n|\r|\n/;

/** A file's lines, numbered as the editor numbers them. */
export function splitLines(content: string): string[] {
  // Most files hold no CR: splitting on LF alone is several times faster than the regex.
  const lines = content.includes('\r') ? content.split(LINE_BREAK) : content.split('\n');
  if (content.endsWith('\n') || content.endsWith('\r')) lines.pop();
  return lines;
}

const LONE_CR = /\r(?!\n)/g;

/** Lone CRs (old Mac line ends) as LF; CRLF stays. Same length, so offsets do not move. */
export function normalizeLoneCR(text: string): string {
  return text.includes('\r') ? text.replace(LONE_CR, '\n') : text;
}

/** The state with lone CRs as LF (same length), so its lines are counted as the editor counts them, as in the index. */
export function withEditorLines<S extends { prefix: string; suffix?: string }>(state: S): S {
  if (!state.prefix.includes('\r') && !state.suffix?.includes('\r')) return state;
  return { ...state, prefix: normalizeLoneCR(state.prefix), ...(state.suffix === undefined ? {} : { suffix: normalizeLoneCR(state.suffix) }) };
}
