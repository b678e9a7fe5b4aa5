// What a match offers at the cursor: the copy's statement or block, names adapted, re-indented
// relative to the user's lines, after what is already typed.
import { TOKEN } from '../lexical/normalize';
import type { Match, UserContext } from './align';
import { statementEnd } from './blocks';
import { indentCols, isBlank } from './lines';

/** The copy's line with mapped names replaced by the user's. */
export function adapt(line: string, map: Map<string, string>): string {
  if (!map.size) return line;
  return line.replace(/[A-Za-z_$][\w$]*/g, (name, off: number) => (off > 0 && /[\w$]/.test(line[off - 1]) ? name : map.get(name) ?? name));
}

/** The text a match offers at the cursor. */
export function render(m: Match, user: UserContext): { text: string; first: string; end: number } {
  const end = statementEnd(m.src, m.at, user.python);
  const lines = m.src.lines.slice(m.at, end + 1).map((l) => adapt(l, m.map));
  const firstCopy = lines[0];
  const useTabs = /^\t/.test(m.userPrev);
  const pad = (cols: number) => (useTabs ? '\t'.repeat(Math.max(0, Math.round(cols / 4))) : ' '.repeat(Math.max(0, cols)));
  // The first line's indentation: as far from the user's previous line as the copy's is from its own.
  const want = indentCols(m.userPrev) + indentCols(firstCopy) - indentCols(m.copyPrev);
  let head: string, base: number;
  if (!user.typed.trim()) {
    const have = indentCols(user.typed);
    base = Math.max(have, Math.max(0, want));
    head = pad(base - have) + firstCopy.trimStart();
  } else {
    base = indentCols(user.typed);
    // After the tokens already typed (and the typed part of a last, unfinished one).
    let off = 0;
    const toks = [...firstCopy.matchAll(TOKEN)];
    if (m.typedTokens > 0) off = toks[m.typedTokens - 1].index! + toks[m.typedTokens - 1][0].length;
    if (m.partial) off = toks[m.typedTokens].index! + m.partial;
    head = firstCopy.slice(off);
    if (/\s$/.test(user.typed)) head = head.trimStart();
  }
  const delta = indentCols(firstCopy);
  const rest = lines.slice(1).map((l) => (isBlank(l) ? '' : pad(base + indentCols(l) - delta) + l.trimStart()));
  return { text: [head, ...rest].join('\n'), first: head.trim(), end };
}
