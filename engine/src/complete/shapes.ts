// A line predicted from what followed the same two line shapes earlier in the current file and in
// the chunks retrieved for these lines, when most of those places agree on the very same line:
// after a JSDoc summary ` *`, after a `case` arm's assignment `break;`, after a call's arguments
// `this.logger,`. A line's shape is its tokens with names, numbers and strings folded (a comment
// line: its marker, its `@tag`, whether it has text). Used where no copy continues the lines
// (builtin.ts); evidence in PARAMS.md.
import { isBlank, isName, isWordChar, MAX_LINES, tokensOf, type CompletionSource } from './lines';

/** Places with the same shape before the cursor that a prediction needs, and the share of them that must agree (PARAMS.md). */
export const MIN_SHAPE_PLACES = 3;
export const MIN_SHAPE_SHARE = 0.75;
/** Earlier lines of the file read at most (held-out projects: 1,000 and 3,000 give the same EM; 1,000 costs a third of the time). */
const MAX_SHAPE_LINES = 1000;

/** The shape of a line (trimmed), or '' for a blank one. */
export function shapeOf(line: string): string {
  const t = line.trim();
  if (!t) return '';
  const comment = t.match(/^(\/\*\*|\/\*|\*\/|\*|\/\/|#)\s*(@\w+)?(.*)$/);
  if (comment) return `c${comment[1]}${comment[2] ?? ''}${comment[3].trim() ? '+' : ''}`;
  const folded = t.replace(/(['"`])(?:\\.|(?!\1).)*\1/g, '"s"');
  return tokensOf(folded).map((x) => (isName(x) ? 'a' : /^\d/.test(x) ? '0' : x)).join(' ');
}

/** What followed the two line shapes before the cursor: each next line (trimmed) with its count and indentation change, and the number of places. */
export interface NextLines {
  next: Map<string, { n: number; indent: number }>;
  places: number;
}

/** The line that usually follows a line shaped like the one before the cursor, re-indented, or undefined. */
export function guessUsualLine(prefixLines: string[], typed: string, seen: NextLines | undefined): { text: string; share: number; places: number } | undefined {
  if (typed.trim() || !seen) return undefined;
  const { next, places } = seen;
  if (places < MIN_SHAPE_PLACES) return undefined;
  const best = [...next.entries()].sort((a, b) => b[1].n - a[1].n || (a[0] < b[0] ? -1 : 1))[0];
  if (!best || best[1].n / places < MIN_SHAPE_SHARE) return undefined;
  const base = indentOf(prefixLines[prefixLines.length - 1]);
  const unit = base.startsWith('\t') ? '\t' : ' ';
  const cols = Math.max(0, base.length + best[1].indent);
  const indent = (cols <= base.length ? base.slice(0, cols) : base + unit.repeat(cols - base.length)).slice(Math.min(cols, typed.length));
  return { text: indent + best[0], share: best[1].n / places, places };
}

/** Counts what followed the last two lines' shapes at the earlier places of the file and in `others`; undefined after a blank line. */
export function nextLines(prefixLines: string[], others: CompletionSource[]): NextLines | undefined {
  const lines = prefixLines.slice(Math.max(0, prefixLines.length - MAX_SHAPE_LINES));
  const prev = lines.length - 1;
  if (prev < 1 || isBlank(lines[prev])) return undefined;
  // The shapes of the two lines before (one line's shape alone recurs with too many continuations).
  const edge = edgeOf(lines[prev]);
  const shape = (ls: string[], i: number) => (i < 0 ? '' : memoShape(ls[i]));
  const want = { before: shape(lines, prev - 1), last: shape(lines, prev) };
  const next = new Map<string, { n: number; indent: number }>();
  let places = 0;
  const count = (ls: string[], from: number, end: number) => {
    for (let i = from; i < end; i++) {
      // A cheap filter first: lines of one shape begin (and, outside comments, end) alike.
      if (edgeOf(ls[i]) !== edge || isBlank(ls[i + 1]) || shape(ls, i) !== want.last || shape(ls, i - 1) !== want.before) continue;
      places++;
      const t = ls[i + 1].trim();
      const e = next.get(t) ?? { n: 0, indent: indentOf(ls[i + 1]).length - indentOf(ls[i]).length };
      e.n++;
      next.set(t, e);
    }
  };
  count(lines, 0, prev);
  // …and in the chunks retrieved for these lines.
  for (const o of others) {
    const end = Math.min(o.limit ?? o.lines.length, o.lines.length, o.to + MAX_LINES) - 1;
    count(o.lines, Math.max(0, o.from - 2), end);
  }
  return { next, places };
}

/** First and (outside comments) last non-blank characters, word characters and quotes folded: equal for lines of one shape. */
function edgeOf(line: string): string {
  const t = line.trim();
  if (!t) return '';
  const fold = (c: string) => (isWordChar(c) ? 'w' : c === "'" || c === '`' ? '"' : c);
  return /^[*/#]/.test(t) ? t[0] : fold(t[0]) + fold(t[t.length - 1]);
}

const memo = new Map<string, string>();
/** A line's shape, remembered by its text (the same lines come back on every keystroke); forgets all past MEMO_LINES. */
function memoShape(line: string): string {
  let v = memo.get(line);
  if (v === undefined) {
    if (memo.size >= MEMO_LINES) memo.clear();
    memo.set(line, (v = shapeOf(line)));
  }
  return v;
}
const MEMO_LINES = 50_000;

const indentOf = (line: string) => line.slice(0, line.length - line.trimStart().length);
