// A line predicted from what followed the same two line shapes earlier in the current file, when
// most of those places agree on the very same line: after a JSDoc summary this file writes ` *`,
// after a `case` arm's assignment `break;`, after a call's arguments `this.logger,`. A line's shape
// is its tokens with names, numbers and strings folded (a comment line: its marker, its `@tag`,
// whether it has text).
// Used where no copy elsewhere continues the lines (builtin.ts); evidence in PARAMS.md.
import { isBlank, isName, tokensOf } from './lines';

/** Places with the same shape before the cursor that a prediction needs, and the share of them that must agree (PARAMS.md). */
export const MIN_SHAPE_PLACES = 2;
export const MIN_SHAPE_SHARE = 0.6;
/** Earlier lines of the file read at most. */
const MAX_SHAPE_LINES = 3000;

/** The shape of a line (trimmed), or '' for a blank one. */
export function shapeOf(line: string): string {
  const t = line.trim();
  if (!t) return '';
  const comment = t.match(/^(\/\*\*|\/\*|\*\/|\*|\/\/|#)\s*(@\w+)?(.*)$/);
  if (comment) return `c${comment[1]}${comment[2] ?? ''}${comment[3].trim() ? '+' : ''}`;
  const folded = t.replace(/(['"`])(?:\\.|(?!\1).)*\1/g, '"s"');
  return tokensOf(folded).map((x) => (isName(x) ? 'a' : /^\d/.test(x) ? '0' : x)).join(' ');
}

/** The line that usually follows a line shaped like the one before the cursor, re-indented, or undefined. */
export function guessUsualLine(prefixLines: string[], typed: string): { text: string; share: number; places: number } | undefined {
  if (typed.trim()) return undefined;
  const lines = prefixLines.slice(Math.max(0, prefixLines.length - MAX_SHAPE_LINES));
  const prev = lines.length - 1;
  if (prev < 1 || isBlank(lines[prev])) return undefined;
  // The shapes of the two lines before (one line's shape alone recurs with too many continuations).
  const shapes = lines.map(shapeOf);
  const key = (i: number) => (shapes[i - 1] ?? '') + '|' + shapes[i];
  const want = key(prev);
  const next = new Map<string, { n: number; indent: number }>();
  let places = 0;
  for (let i = 0; i < prev; i++) {
    if (isBlank(lines[i + 1]) || key(i) !== want) continue;
    places++;
    const t = lines[i + 1].trim();
    const e = next.get(t) ?? { n: 0, indent: indentOf(lines[i + 1]).length - indentOf(lines[i]).length };
    e.n++;
    next.set(t, e);
  }
  if (places < MIN_SHAPE_PLACES) return undefined;
  const best = [...next.entries()].sort((a, b) => b[1].n - a[1].n || (a[0] < b[0] ? -1 : 1))[0];
  if (!best || best[1].n / places < MIN_SHAPE_SHARE) return undefined;
  const base = indentOf(lines[prev]);
  const unit = base.startsWith('\t') ? '\t' : ' ';
  const cols = Math.max(0, base.length + best[1].indent);
  const indent = (cols <= base.length ? base.slice(0, cols) : base + unit.repeat(cols - base.length)).slice(Math.min(cols, typed.length));
  return { text: indent + best[0], share: best[1].n / places, places };
}

const indentOf = (line: string) => line.slice(0, line.length - line.trimStart().length);
