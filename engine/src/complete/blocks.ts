// Where a statement or block ends: bracket depths per line (strings and comments skipped), block
// braces told from object literals in TypeScript, indented bodies after a Python header.
import { indentCols, isBlank, MAX_LINES, type CompletionSource } from './lines';

type Opener = '(' | '[' | '{' | 'B'; // `B`: a `{` that opens a block, not an expression

/** Bracket stacks at the start of each line from `from` (depth 0 there) to `to` (inclusive). */
function bracketStacks(lines: string[], from: number, to: number, python: boolean): { stacks: Opener[][]; endsColon: boolean[] } {
  const stacks: Opener[][] = [];
  const endsColon: boolean[] = [];
  let st: Opener[] = [];
  let triple: string | null = null; // inside a Python triple-quoted string
  for (let i = from; i <= to && i < lines.length; i++) {
    stacks.push(st.slice());
    const line = lines[i];
    let last = '';
    for (let k = 0; k < line.length; k++) {
      const ch = line[k];
      if (triple) {
        if (line.startsWith(triple, k)) { triple = null; k += 2; }
        continue;
      }
      if (python && (line.startsWith('"""', k) || line.startsWith("'''", k))) { triple = line.slice(k, k + 3); k += 2; continue; }
      if (ch === '"' || ch === "'" || ch === '`') {
        // A string on one line: skip to its closing quote.
        let m = k + 1;
        while (m < line.length && line[m] !== ch) m += line[m] === '\\' ? 2 : 1;
        k = m;
        last = ch;
        continue;
      }
      if ((python && ch === '#') || (!python && ch === '/' && line[k + 1] === '/')) break;
      if (ch === '(' || ch === '[') st.push(ch);
      else if (ch === '{') st.push(!python && opensBlock(line, k, lines, i) ? 'B' : '{');
      else if (ch === ')' || ch === ']' || ch === '}') st.pop();
      if (!/\s/.test(ch)) last = ch;
    }
    st = st.slice();
    endsColon.push(last === ':');
  }
  return { stacks, endsColon };
}

/** TypeScript: does the `{` at `k` open a block (function body, if, class) rather than an object? */
function opensBlock(line: string, k: number, lines: string[], i: number): boolean {
  let before = line.slice(0, k).trimEnd();
  for (let j = i - 1; !before && j >= 0 && j > i - 3; j--) before = lines[j].trimEnd();
  if (!before) return true;
  if (/(=>|\)|\belse|\btry|\bfinally|\bdo)$/.test(before)) return true;
  if (/[=([,:?|&!]$/.test(before) || /\breturn$/.test(before)) return false;
  // `class X extends Y {`, `interface X {`, `namespace X {`, `get x() {` …
  return /^\s*(export\s+)?(default\s+)?(abstract\s+)?(class|interface|namespace|enum|module|switch|function)\b/.test(before) || /\)\s*:\s*[^=]*$/.test(before);
}

/** Bracket stacks per source, computed once per completion. */
const stackCache = new WeakMap<CompletionSource, { to: number; stacks: Opener[][]; endsColon: boolean[] }>();

/** Last line (inclusive) of the statement or block starting at `i`, or `i` when it cannot tell within bounds. */
export function statementEnd(src: CompletionSource, i: number, python: boolean): number {
  const limit = Math.min(src.limit ?? src.lines.length, src.lines.length);
  const last = Math.min(limit - 1, i + MAX_LINES * 3);
  let cached = stackCache.get(src);
  if (!cached || cached.to < last) {
    const to = Math.max(last, Math.min(limit - 1, src.to + MAX_LINES * 3));
    stackCache.set(src, (cached = { to, ...bracketStacks(src.lines, src.from, to, python) }));
  }
  const { stacks, endsColon } = cached;
  const at = (j: number) => stacks[j - src.from];
  const st = at(i);
  if (!st) return i;
  // Inside an expression (an argument list, an object literal): up to where it closes.
  let target = st.length;
  while (target > 0 && st[target - 1] !== 'B') target--;
  // (At statement level, target = st.length: until the stack is back where it was.)
  let end = -1;
  for (let j = i; j <= last; j++) {
    const next = j + 1 <= last ? at(j + 1) : undefined;
    const depthAfter = next ? next.length : undefined;
    if (depthAfter === undefined) break;
    if (depthAfter <= target) { end = j; break; }
  }
  if (end < 0) return i;
  // A Python block header (`if x:`, `for …:`, `with …:`): its indented body too, and the branches
  // that continue it at its own level (`elif`, `else`, `except`, `finally`) while they fit.
  if (python && endsColon[end - src.from]) {
    const base = indentCols(src.lines[i]);
    const body = pythonBody(src.lines, end, base, limit, i);
    if (body < 0) return i; // no body, or too long
    end = body;
    for (;;) {
      let j = end + 1;
      while (j < limit && isBlank(src.lines[j])) j++;
      if (j >= limit || indentCols(src.lines[j]) !== base || !BRANCH.test(src.lines[j])) break;
      const branchBody = pythonBody(src.lines, j, base, limit, i);
      if (branchBody < 0) break; // the branch does not fit: the block before it alone
      end = branchBody;
    }
  }
  return end - i + 1 <= MAX_LINES ? end : i;
}

/** A branch that continues a Python compound statement, on one line: `else:`, `elif x:`, `except E as e:`, `finally:`. */
const BRANCH = /^\s*(?:elif\b[^#]*|else\s*|except\b[^#]*|finally\s*):\s*(?:#.*)?$/;

/** Last line of the indented body after the header line `header` (indent `base`), or -1: none, or past MAX_LINES from `start`. */
function pythonBody(lines: string[], header: number, base: number, limit: number, start: number): number {
  let j = header + 1, lastBody = -1;
  while (j < limit && j - start < MAX_LINES) {
    const l = lines[j];
    if (!isBlank(l)) {
      if (indentCols(l) <= base) break;
      lastBody = j;
    }
    j++;
  }
  if (j < limit && j - start >= MAX_LINES && !isBlank(lines[j]) && indentCols(lines[j]) > base) return -1; // body too long
  return lastBody;
}
