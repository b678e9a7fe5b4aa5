// The built-in completion source (no language model). The lines just above the cursor are matched,
// token by token, against whole chunks of the repository and the current file's earlier lines.
// Names the code binds itself (RETROcode's normalisation, lexical/normalize.ts) may differ as long
// as they correspond one to one: the copy's `batchSignals` matching the user's `signal` is adapted
// to `signal` in what is offered; names the user's code does not contradict keep the repository's.
// What follows the match is offered up to the end of its statement or block (at most
// MAX_LINES lines), re-indented relative to the cursor's line, with its brackets closed as in the
// source. Whether to offer anything at all is decided by evidence: the summed IDF of the tokens that
// matched exactly (a bare `);` or `}` weighs nothing), never by line length. Distinct continuations
// are returned best first (more evidence, then more places in the repository that agree).
import type { CompletionAlternative, CompletionResult } from '../api';
import type { EditorState } from '../types';
import { boundNames, TOKEN } from '../lexical/normalize';

/** Lines offered at most (one statement or block). */
export const MAX_LINES = 12;
/** Context lines (non-blank, before the cursor) matched at most. */
const MAX_DEPTH = 4;
/** Minimal evidence (summed IDF of exactly matched tokens) for an offer. */
export const MIN_EVIDENCE = 6;
/**
 * An offer needs this share of the matching places to agree on its first line, unless… (0: off.
 * On 280 DEV line tasks 0.3 raised precision when offered from ~0.51 to ~0.58 but cost EM and
 * most of the API tasks' ES gain, whose near misses count: off until a better ranking pays for it.)
 */
const MIN_SHARE = 0;
/** …its evidence reaches this. */
const SURE_EVIDENCE = 15;
/** Evidence at which confidence no longer grows with it. */
const CONFIDENT_EVIDENCE = 20;
/** Weight of the number of agreeing places (log2) against evidence when ranking continuations. */
const VOTE_WEIGHT = 2;
/** Alternatives returned at most (the first is `text`). */
const MAX_ALTERNATIVES = 3;
/** Earlier lines of the current file scanned at most. */
const MAX_INFILE_LINES = 800;

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

export interface CompleteOptions {
  /** Specificity of a token (the BM25 index's IDF); a default weight without an index. */
  idf?: (token: string) => number;
  minEvidence?: number;
}

const KEYWORDS = new Set(
  ('and as assert async await break case catch class const continue def del elif else except export extends false ' +
    'finally for from function global if import in instanceof is lambda let new none nonlocal not null or pass raise ' +
    'return self static super switch this throw true try typeof undefined var void while with yield cls').split(' '),
);
const IDENT = /^[A-Za-z_$][\w$]*$/;
const isName = (t: string) => IDENT.test(t) && !KEYWORDS.has(t.toLowerCase());
const isWordChar = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '_' || c === '$';

/** First and last non-blank characters of a line, word characters folded to `w` (a filter before tokenising). */
function edgeKey(line: string): string {
  let a = 0, b = line.length - 1;
  while (a <= b && (line[a] === ' ' || line[a] === '\t')) a++;
  while (b >= a && (line[b] === ' ' || line[b] === '\t' || line[b] === '\r')) b--;
  if (a > b) return '';
  const fold = (c: string) => (isWordChar(c) ? 'w' : c);
  return fold(line[a]) + fold(line[b]);
}

/** Without an index: names weigh 2, keywords and punctuation little. */
const defaultIdf = (t: string): number => (isName(t) ? (t.length > 1 ? 2 : 0.5) : IDENT.test(t) ? 0.2 : /^\d/.test(t) ? 0.5 : 0);

const tokensOf = (line: string): string[] => line.match(TOKEN) ?? [];

const DECLARED = /\b(?:def|function|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/g;
/** Names a piece of code binds: RETROcode's (parameters, variables) plus the functions and classes it declares. */
function bindings(code: string): Set<string> {
  const out = boundNames(code);
  for (const m of code.matchAll(DECLARED)) out.add(m[1]);
  return out;
}
const isBlank = (line: string) => line.trim().length === 0;
const indentCols = (line: string): number => {
  let c = 0;
  for (const ch of line) {
    if (ch === ' ') c++;
    else if (ch === '\t') c += 4;
    else break;
  }
  return c;
};

// ---- brackets: where a statement or block ends ------------------------------------------------

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
  if (/[=(\[,:?|&!]$/.test(before) || /\breturn$/.test(before)) return false;
  // `class X extends Y {`, `interface X {`, `namespace X {`, `get x() {` …
  return /^\s*(export\s+)?(default\s+)?(abstract\s+)?(class|interface|namespace|enum|module|switch|function)\b/.test(before) || /\)\s*:\s*[^=]*$/.test(before);
}

/** Bracket stacks per source, computed once per completion. */
const stackCache = new WeakMap<CompletionSource, { to: number; stacks: Opener[][]; endsColon: boolean[] }>();

/** Last line (inclusive) of the statement or block starting at `i`, or `i` when it cannot tell within bounds. */
function statementEnd(src: CompletionSource, i: number, python: boolean): number {
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
  // A Python block header (`if x:`, `for …:`, `with …:`): its indented body too.
  if (python && endsColon[end - src.from]) {
    const base = indentCols(src.lines[i]);
    let j = end + 1, lastBody = -1;
    while (j < limit && j - i < MAX_LINES) {
      const l = src.lines[j];
      if (!isBlank(l)) {
        if (indentCols(l) <= base) break;
        lastBody = j;
      }
      j++;
    }
    if (j < limit && j - i >= MAX_LINES && !isBlank(src.lines[j]) && indentCols(src.lines[j]) > base) return i; // body too long
    if (lastBody < 0) return i;
    end = lastBody;
  }
  return end - i + 1 <= MAX_LINES ? end : i;
}

// ---- matching ----------------------------------------------------------------------------------

interface Match {
  src: CompletionSource;
  /** Line where the continuation starts. */
  at: number;
  evidence: number;
  depth: number;
  /** Copy's name → user's name. */
  map: Map<string, string>;
  /** Tokens of the cursor's line that matched (a prefix of the continuation's first line). */
  typedTokens: number;
  /** Characters of the last, partly typed token. */
  partial: number;
  /** The user's previous line (to re-indent against) and the copy's. */
  userPrev: string;
  copyPrev: string;
}

class Aligner {
  readonly map = new Map<string, string>();
  private readonly inverse = new Map<string, string>();
  evidence = 0;
  private bound: Set<string> | undefined;
  /** `copyBound` is asked for only when two names differ (most candidates never need it). */
  constructor(private readonly userBound: Set<string>, private readonly copyBound: () => Set<string>, private readonly idf: (t: string) => number) {}

  /** Does the copy's token `c` match the user's `u`? Records a new correspondence. */
  token(u: string, c: string): boolean {
    if (u === c) {
      if (this.map.has(c) && this.map.get(c) !== u) return false;
      if (this.inverse.has(u) && this.inverse.get(u) !== c) return false;
      this.evidence += this.idf(u);
      return true;
    }
    if (!isName(u) || !isName(c) || !this.userBound.has(u) || !(this.bound ??= this.copyBound()).has(c)) return false;
    const m = this.map.get(c), inv = this.inverse.get(u);
    if ((m !== undefined && m !== u) || (inv !== undefined && inv !== c)) return false;
    this.map.set(c, u);
    this.inverse.set(u, c);
    return true;
  }

  line(user: string[], copy: string[]): boolean {
    if (user.length !== copy.length) return false;
    const saveEvidence = this.evidence;
    const added: string[] = [];
    for (let k = 0; k < user.length; k++) {
      const had = this.map.has(copy[k]);
      if (!this.token(user[k], copy[k])) {
        for (const c of added) { this.inverse.delete(this.map.get(c)!); this.map.delete(c); }
        this.evidence = saveEvidence;
        return false;
      }
      if (!had && this.map.has(copy[k])) added.push(copy[k]);
    }
    return true;
  }
}

interface UserContext {
  /** Non-blank lines before the cursor, nearest last (at most MAX_DEPTH). */
  lines: string[];
  tokens: string[][];
  typed: string;
  typedTokens: string[];
  /** The last typed token may be incomplete (no space or punctuation after it). */
  partialLast: boolean;
  bound: Set<string>;
  python: boolean;
}

function userContext(state: EditorState): UserContext | undefined {
  const prefixLines = state.prefix.split('\n');
  const typed = prefixLines.pop() ?? '';
  const lines: string[] = [];
  for (let i = prefixLines.length - 1; i >= 0 && lines.length < MAX_DEPTH; i--) if (!isBlank(prefixLines[i])) lines.unshift(prefixLines[i]);
  if (!lines.length) return undefined;
  const typedTokens = tokensOf(typed);
  const partialLast = typedTokens.length > 0 && /[\w$]$/.test(typed);
  const window = prefixLines.slice(-80).join('\n') + '\n' + typed;
  const python = state.language === 'python' || /\.py$/.test(state.file);
  return { lines, tokens: lines.map(tokensOf), typed, typedTokens, partialLast, bound: bindings(window), python };
}

/** Matches of the user's context lines ending right before each line of `src` in [from, to). */
function matchSource(src: CompletionSource, user: UserContext, idf: (t: string) => number, minEvidence: number, out: Match[]): void {
  const { lines } = src;
  // Non-blank line indices from `from` (context lines may lie before `from` in a chunk: use the file).
  const scanFrom = Math.max(0, src.from - MAX_DEPTH * 3);
  const nb: number[] = [];
  for (let i = scanFrom; i < Math.min(src.to, lines.length); i++) if (!isBlank(lines[i])) nb.push(i);
  const last = user.tokens[user.tokens.length - 1];
  const lastEdges = edgeKey(user.lines[user.lines.length - 1]);
  const tokCache = new Map<number, string[]>();
  const toks = (i: number) => {
    let t = tokCache.get(i);
    if (!t) tokCache.set(i, (t = tokensOf(lines[i])));
    return t;
  };
  for (let q = 1; q < nb.length; q++) {
    const at = nb[q];
    if (at < src.from) continue;
    if (edgeKey(lines[nb[q - 1]]) !== lastEdges) continue;
    const prev = toks(nb[q - 1]);
    if (prev.length !== last.length) continue;
    // Cheap filter: the punctuation and keywords of the previous line must agree.
    if (lines[nb[q - 1]].trim() !== user.lines[user.lines.length - 1].trim() && !sameShape(prev, last)) continue;
    // Names the copy binds near the match (its parameters and locals).
    const copyBound = () => bindings(lines.slice(Math.max(0, src.from - MAX_DEPTH * 3, at - 60), Math.min(lines.length, at + MAX_LINES)).join('\n'));
    const al = new Aligner(user.bound, copyBound, idf);
    let depth = 0;
    while (depth < user.tokens.length && q - 1 - depth >= 0) {
      if (!al.line(user.tokens[user.tokens.length - 1 - depth], toks(nb[q - 1 - depth]))) break;
      depth++;
    }
    if (depth === 0) continue;
    // What is typed on the cursor's line must begin the continuation.
    const first = toks(at);
    let partial = 0;
    const ut = user.typedTokens;
    if (ut.length > first.length) continue;
    let ok = true;
    for (let k = 0; k < ut.length && ok; k++) {
      if (k === ut.length - 1 && user.partialLast && ut[k] !== first[k]) {
        const mapped = al.map.get(first[k]) ?? first[k];
        ok = mapped.startsWith(ut[k]) && mapped !== ut[k];
        partial = ut[k].length;
      } else ok = al.token(ut[k], first[k]);
    }
    if (!ok || al.evidence < minEvidence) continue;
    if (ut.length === first.length && !partial) continue; // nothing left to offer on this line
    out.push({
      src, at, evidence: al.evidence, depth, map: al.map, typedTokens: partial ? ut.length - 1 : ut.length, partial,
      userPrev: user.lines[user.lines.length - 1], copyPrev: lines[nb[q - 1]],
    });
  }
}

/** Same punctuation and keywords, names aside. */
function sameShape(a: string[], b: string[]): boolean {
  for (let k = 0; k < a.length; k++) {
    if (a[k] === b[k]) continue;
    if (!isName(a[k]) || !isName(b[k])) return false;
  }
  return true;
}

/** The copy's line with mapped names replaced by the user's. */
function adapt(line: string, map: Map<string, string>): string {
  if (!map.size) return line;
  return line.replace(/[A-Za-z_$][\w$]*/g, (name, off: number) => (off > 0 && /[\w$]/.test(line[off - 1]) ? name : map.get(name) ?? name));
}

/** The text a match offers at the cursor. */
function render(m: Match, user: UserContext): { text: string; first: string; end: number } {
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

/**
 * Completes at the cursor from `sources` (whole chunks of the repository) and the current file's
 * earlier lines (from `state.prefix`). With `sources` empty this is the no-retrieval baseline.
 */
export function completeFromSources(state: EditorState, sources: CompletionSource[], opts: CompleteOptions = {}): CompletionResult | null {
  const user = userContext(state);
  if (!user) return null;
  const idf = opts.idf ?? defaultIdf;
  const minEvidence = opts.minEvidence ?? MIN_EVIDENCE;
  const prefixLines = state.prefix.split('\n');
  prefixLines.pop();
  // The current file before the cursor; a continuation there ends before the user's context lines.
  const inFile: CompletionSource = { file: state.file, lines: prefixLines, from: Math.max(0, prefixLines.length - MAX_INFILE_LINES), to: prefixLines.length, limit: prefixLines.length };
  const matches: Match[] = [];
  // Every match is collected (a bare closer's too, with no evidence): they all count as places
  // that continue the same lines, so a continuation few of them agree on is recognised as such.
  for (const src of [...sources, inFile]) matchSource(src, user, idf, 0, matches);
  if (!matches.length) return null;
  // One candidate per distinct (adapted) first line: its best evidence and how many places agree.
  interface Group { first: string; evidence: number; votes: number; members: Match[] }
  const groups = new Map<string, Group>();
  const seen = new Set<string>();
  for (const m of matches) {
    const key = `${m.src.file}:${m.at}`;
    if (seen.has(key)) continue; // a file read both as a chunk and as the current file
    seen.add(key);
    const first = adapt(m.src.lines[m.at], m.map).trim();
    let g = groups.get(first);
    if (!g) groups.set(first, (g = { first, evidence: 0, votes: 0, members: [] }));
    g.evidence = Math.max(g.evidence, m.evidence);
    g.votes++;
    g.members.push(m);
  }
  const score = (g: Group) => g.evidence + VOTE_WEIGHT * Math.log2(g.votes);
  // Best first; ties by text so the answer never depends on the order sources arrived in.
  const ranked = [...groups.values()].sort((a, b) => score(b) - score(a) || (a.first < b.first ? -1 : a.first > b.first ? 1 : 0));
  const total = ranked.reduce((s, g) => s + g.votes, 0);
  const share = (g: Group) => g.votes / total;
  // Evidence decides: enough specific tokens matched, and either most places agree on what follows
  // or the match is so specific that disagreement elsewhere does not matter.
  const offered = (g: Group) => minEvidence <= 0 || (g.evidence >= minEvidence && (share(g) >= MIN_SHARE || g.evidence >= SURE_EVIDENCE));
  if (!offered(ranked[0])) {
    const g = ranked[0];
    const why = g.evidence < minEvidence
      ? `the lines before the cursor share only common tokens with the code that continues them (evidence ${g.evidence.toFixed(1)} < ${minEvidence})`
      : `the ${total} places that continue these lines disagree on what follows`;
    return { text: '', confidence: 0, abstained: why };
  }
  // Alternatives (shown when the user cycles) need the evidence, not the agreement.
  const items: CompletionAlternative[] = ranked.slice(0, MAX_ALTERNATIVES).filter((g, i) => i === 0 || g.evidence >= minEvidence).map((g) => {
    // The most common rendering among the group's strongest members (their statements may end differently).
    const texts = new Map<string, { n: number; evidence: number; m: Match; end: number }>();
    for (const m of [...g.members].sort((a, b) => b.evidence - a.evidence).slice(0, 8)) {
      const r = render(m, user);
      const t = texts.get(r.text) ?? { n: 0, evidence: m.evidence, m, end: r.end };
      t.n++;
      texts.set(r.text, t);
    }
    const [text, t] = [...texts.entries()].sort((a, b) => b[1].n - a[1].n || b[1].evidence - a[1].evidence || (a[0] < b[0] ? -1 : 1))[0];
    return {
      text,
      source: { file: t.m.src.file, startLine: t.m.at, endLine: t.end },
      confidence: Math.round(Math.min(1, g.evidence / CONFIDENT_EVIDENCE) * share(g) * 1000) / 1000,
      evidence: Math.round(g.evidence * 100) / 100,
    };
  }).filter((x) => x.text.trim().length > 0);
  if (!items.length) return null;
  const [best, ...alternatives] = items;
  return { ...best, ...(alternatives.length ? { alternatives } : {}) };
}

/** Kept for callers with packed excerpts: each excerpt is read as its own source. */
export function completeFromContext(state: EditorState, retrieved: { file: string; startLine: number; text: string }[], opts: CompleteOptions = {}): CompletionResult | null {
  return completeFromSources(state, retrieved.map((r) => {
    const lines = r.text.split('\n');
    return { file: r.file, lines, from: 0, to: lines.length };
  }), opts);
}
