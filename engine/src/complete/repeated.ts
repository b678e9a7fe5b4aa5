// A statement the current file already wrote: when the cursor's line begins like an earlier line of
// the file (`let mut styled = ` where the file has `let mut styled = StyledStr::new();`), the rest of
// that line is what usually follows. Used where no copy continues the lines (builtin.ts).
import { isName, tokensOf } from './lines';

/** Earlier lines of the file read at most. */
const MAX_REPEAT_LINES = 1000;
/** Tokens typed on the cursor's line before an earlier line can be taken as the same statement, and the length of a name among them. */
const MIN_TYPED_TOKENS = 2;
const MIN_NAME_CHARS = 3;

/** The rest of the latest earlier line that begins with what is typed (the most common such rest when several differ), or undefined. */
export function guessRepeatedLine(prefixLines: string[], typed: string): { text: string; places: number } | undefined {
  const head = typed.trimStart();
  const toks = tokensOf(head);
  if (toks.length < MIN_TYPED_TOKENS || !toks.some((t) => isName(t) && t.length >= MIN_NAME_CHARS)) return undefined;
  const rests = new Map<string, { n: number; last: number }>();
  for (let i = Math.max(0, prefixLines.length - MAX_REPEAT_LINES); i < prefixLines.length; i++) {
    const line = prefixLines[i].trim();
    if (line.length <= head.length || !line.startsWith(head)) continue;
    const rest = line.slice(head.length);
    const r = rests.get(rest) ?? { n: 0, last: i };
    r.n++;
    r.last = i;
    rests.set(rest, r);
  }
  const best = [...rests.entries()].sort((a, b) => b[1].n - a[1].n || b[1].last - a[1].last)[0];
  return best ? { text: best[0], places: best[1].n } : undefined;
}
