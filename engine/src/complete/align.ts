// Matching the lines before the cursor against a source, token by token: names the code binds may
// differ if they correspond one to one (the copy's name is then adapted to the user's); evidence is
// the summed IDF of the tokens that matched exactly.
import type { EditorState } from '../types';
import { TOKEN } from '../lexical/normalize';
import { bindings, edgeKey, isBlank, isName, MAX_LINES, tokensOf, type CompletionSource } from './lines';

/** Context lines (non-blank, before the cursor) matched at most. */
const MAX_DEPTH = 4;

export interface Match {
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

export interface UserContext {
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

export function userContext(state: EditorState): UserContext | undefined {
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
export function matchSource(src: CompletionSource, user: UserContext, idf: (t: string) => number, minEvidence: number, out: Match[]): void {
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
