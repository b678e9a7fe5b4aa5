// Closing lines (`);`, `}`, `})`, `],`) predicted from the bracket structure of the current file
// when no copy elsewhere says what comes next: a line inside an open argument list or literal that
// ends an element without a trailing comma or an operator can only be followed by the closer, and a
// `return`/`throw` that ends a block is followed by its `}`. The closer is written as the file writes
// its statements (semicolons or not) and re-indented to the line that opened it. Rules and their
// precision on the held-out projects: PARAMS.md ("Built-in completion"), 2026-11-26-dev-builtin-completion-2.md.
import { isBlank } from './lines';

type Kind = '(' | '[' | '{' | 'B'; // `B`: a TypeScript `{` that opens a block
interface Open { kind: Kind; line: number }

export interface CloserGuess {
  text: string;
  /** Which rule produced it (tests and the evidence files name them). */
  rule: 'element' | 'return';
  /** How often the rule was followed by a closer earlier in the file (with a prior). */
  rate: number;
}

/** Lines scanned at most before the cursor (brackets are assumed balanced before them; held-out projects: 1,000 and 3,000 give the same EM). */
const MAX_SCAN_LINES = 1000;
/**
 * A rule is used where its in-file rate reaches this. At positions chosen the benchmark's way (code lines,
 * unique targets: the RepoEval-rules held-out split) a closer is rarely the line: 0.5 offered 6, 1 right; 0.9 offers
 * almost none (PARAMS.md). At every position (the first held-out split) 0.5 kept 10 of 13 closers right.
 */
export const MIN_IN_FILE_RATE = 0.7;
/** Prior of the in-file rate: PRIOR_HITS closers in PRIOR_PLACES places. */
const PRIOR_HITS = 1, PRIOR_PLACES = 2;
const CLOSE: Record<Kind, string> = { '(': ')', '[': ']', '{': '}', B: '}' };

/** Bracket stacks at the start of each line of `lines` (strings, comments, templates skipped). */
function scan(lines: string[], python: boolean): Open[][] {
  const stacks: Open[][] = [];
  let st: Open[] = [];
  let inString: string | null = null; // a triple-quoted Python string, a template literal or a block comment (`*/`)
  for (let i = 0; i < lines.length; i++) {
    stacks.push(st.slice());
    const line = lines[i];
    for (let k = 0; k < line.length; k++) {
      const ch = line[k];
      if (inString) {
        if (inString !== '`' && line.startsWith(inString, k)) { k += inString.length - 1; inString = null; }
        else if (inString === '`' && ch === '\\') k++;
        else if (inString === '`' && ch === '`') inString = null;
        continue;
      }
      if (python && (line.startsWith('"""', k) || line.startsWith("'''", k))) { inString = line.slice(k, k + 3); k += 2; continue; }
      if (!python && ch === '/' && line[k + 1] === '*') { inString = '*/'; k++; continue; }
      if (!python && ch === '`') { inString = '`'; continue; }
      if (ch === '"' || ch === "'") {
        let m = k + 1;
        while (m < line.length && line[m] !== ch) m += line[m] === '\\' ? 2 : 1;
        k = m;
        continue;
      }
      if ((python && ch === '#') || (!python && ch === '/' && line[k + 1] === '/')) break;
      if (ch === '(' || ch === '[') st.push({ kind: ch, line: i });
      else if (ch === '{') st.push({ kind: !python && opensBlock(line.slice(0, k)) ? 'B' : '{', line: i });
      else if (ch === ')' || ch === ']' || ch === '}') st.pop();
    }
    st = st.slice();
  }
  stacks.push(st);
  return stacks;
}

/** TypeScript: does a `{` after `before` open a block rather than an object or a type literal? */
function opensBlock(before: string): boolean {
  const b = before.trimEnd();
  if (!b) return true;
  if (/(=>|\)|\belse|\btry|\bfinally|\bdo)$/.test(b)) return true;
  if (/[=([,:?|&!]$/.test(b) || /\breturn$/.test(b)) return false;
  return /^\s*(export\s+)?(default\s+)?(abstract\s+)?(declare\s+)?(class|interface|namespace|enum|module|switch|function)\b/.test(b) || /\)\s*:\s*[^=]*$/.test(b);
}

/** The line without a trailing comment (a rough cut: `#`/`//` outside quotes). */
function code(line: string, python: boolean): string {
  const m = python ? line.match(/^([^#'"]*(?:(['"])(?:\\.|(?!\2).)*\2[^#'"]*)*)#/) : line.match(/^([^/'"`]*(?:(['"`])(?:\\.|(?!\2).)*\2[^/'"`]*)*)\/\//);
  return (m ? m[1] : line).trim();
}

/** Does a line end an element (nothing suggests the expression goes on)? */
function endsElement(c: string, python: boolean): boolean {
  if (!c || /[,([{+\-*/%=&|^!~?:<>.\\]$/.test(c) || /=>$/.test(c)) return false;
  if (/^[|&?:]/.test(c) || /^<|>$/.test(c)) return false; // union members, ternary arms, JSX
  if (/^[rbfuRBFU]*(['"`]).*\1$/.test(c) && !/,$/.test(c)) return false; // a bare string may be concatenated with the next
  if (python && /\b(?:and|or|not|in|is|if|else|for|lambda)$/.test(c)) return false;
  if (!python && /\b(?:as|extends|keyof|typeof|in|of|new|await|return)$/.test(c)) return false;
  return true;
}

/** Does the file end statements with `;` (TypeScript)? */
function usesSemicolons(lines: string[]): boolean {
  let semi = 0, other = 0;
  for (let i = Math.max(0, lines.length - 400); i < lines.length; i++) {
    const c = lines[i].trimEnd();
    if (!c || /^\s*(\/\/|\*|\/\*)/.test(c)) continue;
    if (c.endsWith(';')) semi++;
    else if (/[\w)\]'"`]$/.test(c)) other++;
  }
  return semi > other / 2;
}

/** Line where the statement containing line `i` (at stack depth `depth`) starts. */
function statementStart(stacks: Open[][], lines: string[], i: number, depth: number): number {
  let s = i;
  while (s > 0 && (stacks[s].length > depth || /^\s*[.?:|&]/.test(lines[s]) || /^\s*(?:\)|\]|\})/.test(lines[s]) && stacks[s].length > depth)) s--;
  return s;
}

/** The rule that says line `p` should close a bracket (from the stack at its start and the line before it), or undefined. */
function ruleAt(lines: string[], stacks: Open[][], p: number, python: boolean): { rule: CloserGuess['rule']; key: string; top: Open } | undefined {
  const here = stacks[p];
  if (!here.length || p < 1 || isBlank(lines[p - 1])) return undefined;
  const top = here[here.length - 1];
  const prevCode = code(lines[p - 1], python);
  if (!prevCode || /^(\/\/|\/\*|\*|#)/.test(prevCode)) return undefined;
  if (top.kind !== 'B') {
    // An element inside an open bracket opened on an earlier line, ended without a comma.
    if (top.line >= p - 1 || !endsElement(prevCode, python)) return undefined;
    return { rule: 'element', key: `element${top.kind}${prevCode.endsWith(';') ? ';' : ''}`, top };
  }
  // A block whose last statement leaves it: `return …;`, `throw …;`.
  const s = statementStart(stacks, lines, p - 1, here.length);
  if (!/^\s*(return|throw)\b/.test(lines[s]) || /^\s*(\}\s*)?(switch|case|default|if|else|try|catch)\b/.test(lines[top.line])) return undefined;
  return { rule: 'return', key: 'return', top };
}

/** Share of the places in the file where a rule held that a closer followed (a prior of PRIOR_HITS in PRIOR_PLACES). */
function inFileRate(lines: string[], stacks: Open[][], key: string, python: boolean): number {
  let hits = 0, places = 0;
  for (let p = 1; p < lines.length; p++) {
    if (isBlank(lines[p])) continue;
    const r = ruleAt(lines, stacks, p, python);
    if (!r || r.key !== key) continue;
    places++;
    if (lines[p].trimStart().startsWith(CLOSE[r.top.kind])) hits++;
  }
  return (hits + PRIOR_HITS) / (places + PRIOR_PLACES);
}

/** The closing line at the cursor, or undefined where the structure does not force one. */
export function guessCloser(prefixLines: string[], typed: string, python: boolean, minRate = MIN_IN_FILE_RATE): CloserGuess | undefined {
  if (typed.trim()) return undefined;
  const lines = prefixLines.slice(Math.max(0, prefixLines.length - MAX_SCAN_LINES));
  if (!lines.length || isBlank(lines[lines.length - 1])) return undefined; // after a blank line anything may start
  const stacks = scan(lines, python);
  const found = ruleAt(lines, stacks, lines.length, python);
  if (!found) return undefined;
  const { rule, top } = found;
  const rate = inFileRate(lines, stacks, found.key, python);
  if (rate < minRate) return undefined;
  const here = stacks[lines.length];
  // Close every bracket the opening line left open (`foo({` closes with `})`).
  let n = 1;
  while (n < here.length && here[here.length - 1 - n].line === top.line && (here[here.length - 1 - n].kind !== 'B' || top.kind === 'B')) n++;
  const closing = here.slice(here.length - n).reverse().map((o) => CLOSE[o.kind]).join('');
  const rest = here.slice(0, here.length - n);
  const outer = rest[rest.length - 1];
  const openerLine = lines[top.line];
  let tail = '';
  if (outer && outer.kind !== 'B') tail = ',';
  else if (python) {
    if (/^\s*(def|class|if|elif|while|for|with|async|except)\b/.test(openerLine)) return undefined; // `):` or `) -> T:` follows
  } else {
    const head = lines[statementStart(stacks, lines, top.line, rest.length)];
    if (closing.endsWith(')') && /^\s*(\}\s*)?(if|else if|for|while|switch|catch)\b|^\s*(export\s+)?(async\s+)?function\b|^\s*(public|private|protected|static|async|abstract|get|set|readonly|constructor)\b/.test(head)) return undefined;
    if (closing === '}' && top.kind === 'B' && !/=\s*(async\s+)?(\([^)]*\)|[\w$]+)\s*(:\s*[^=]+)?=>\s*\{\s*$/.test(openerLine)) tail = '';
    else if (usesSemicolons(lines)) tail = ';';
  }
  const pad = openerLine.slice(0, openerLine.length - openerLine.trimStart().length);
  const indent = pad.slice(Math.min(pad.length, typed.length)); // what the cursor's line lacks of the opener's indentation
  return { text: indent + closing + tail, rule, rate };
}
