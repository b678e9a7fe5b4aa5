// Lines and tokens as the built-in completion source (builtin.ts) reads them: what a name is, what a
// piece of code binds, indentation, and where candidate continuations are read from.
import { boundNames, TOKEN } from '../lexical/normalize';

/** Lines offered at most (one statement or block). */
export const MAX_LINES = 12;

/** Where candidate continuations are read: lines of a file, scanned for matches in [from, to). */
export interface CompletionSource {
  file: string;
  /** The file's lines (or a prefix of them). */
  lines: string[];
  /** First line where a continuation may start, and the syntactic start bracket depths are 0. */
  from: number;
  /** Continuations start before this line (exclusive); they may run past it up to `limit`. */
  to: number;
  /** Lines at and after this one are never offered (default: lines.length). */
  limit?: number;
}

export const KEYWORDS = new Set(
  ('and as assert async await break case catch class const continue def del elif else except export extends false ' +
    'finally for from function global if import in instanceof is lambda let new none nonlocal not null or pass raise ' +
    'return self static super switch this throw true try typeof undefined var void while with yield cls').split(' '),
);
export const IDENT = /^[A-Za-z_$][\w$]*$/;
export const isName = (t: string) => IDENT.test(t) && !KEYWORDS.has(t.toLowerCase());
export const isWordChar = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '_' || c === '$';

/** First and last non-blank characters of a line, word characters folded to `w` (a filter before tokenising). */
export function edgeKey(line: string): string {
  let a = 0, b = line.length - 1;
  while (a <= b && (line[a] === ' ' || line[a] === '\t')) a++;
  while (b >= a && (line[b] === ' ' || line[b] === '\t' || line[b] === '\r')) b--;
  if (a > b) return '';
  const fold = (c: string) => (isWordChar(c) ? 'w' : c);
  return fold(line[a]) + fold(line[b]);
}

/** Without an index: names weigh 2, keywords and punctuation little. */
export const defaultIdf = (t: string): number => (isName(t) ? (t.length > 1 ? 2 : 0.5) : IDENT.test(t) ? 0.2 : /^\d/.test(t) ? 0.5 : 0);

export const tokensOf = (line: string): string[] => line.match(TOKEN) ?? [];

export const DECLARED = /\b(?:def|function|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/g;
/** Names a piece of code binds: RETROcode's (parameters, variables) plus the functions and classes it declares. */
export function bindings(code: string): Set<string> {
  const out = boundNames(code);
  for (const m of code.matchAll(DECLARED)) out.add(m[1]);
  return out;
}
export const isBlank = (line: string) => line.trim().length === 0;
export const indentCols = (line: string): number => {
  let c = 0;
  for (const ch of line) {
    if (ch === ' ') c++;
    else if (ch === '\t') c += 4;
    else break;
  }
  return c;
};

/** Two token lists of one length with the same punctuation and keywords, names aside. */
export function sameShape(a: string[], b: string[]): boolean {
  for (let k = 0; k < a.length; k++) {
    if (a[k] === b[k]) continue;
    if (!isName(a[k]) || !isName(b[k])) return false;
  }
  return true;
}
