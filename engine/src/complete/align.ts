// Matching the lines before the cursor against a source, token by token: names the code binds may
// differ if they correspond one to one (the copy's name is then adapted to the user's); evidence is
// the summed IDF of the tokens that matched exactly.
import { SUBTOKEN } from '../lexical/tokenize';
import type { EditorState } from '../types';
import { bindings, edgeKey, isBlank, isName, MAX_LINES, sameShape, tokensOf, type CompletionSource } from './lines';

/** Context lines (non-blank, before the cursor) matched at most. */
const MAX_DEPTH = 4;
/** A last line that differs from the user's is matched only when they share this much (weighted Dice). */
export const MIN_SIMILARITY = 0.6;
/** …and contains one of the user's two rarest names, of IDF at least this (1: rarer than in a third of the chunks). */
const MIN_KEY_IDF = 1;
/** A context line that differs from the user's tells renamed names when they share this much (weighted Dice; held-out projects: 0.4 adapted one more line right than 0.6, none wrong). */
const MIN_RENAMING_SIMILARITY = 0.4;

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
  /** Set when the line before the continuation only resembles the user's: how alike they are (0..1). */
  similar?: number;
}

class Aligner {
  readonly map = new Map<string, string>();
  private readonly inverse = new Map<string, string>();
  evidence = 0;
  private bound: Set<string> | undefined;
  /** `copyBound` is asked for only when two names differ (most candidates never need it). */
  constructor(private readonly userBound: Set<string>, private readonly copyBound: () => Set<string>, private readonly idf: (t: string) => number) {}

  /** Whether the user's name `u` already stands for one of the copy's names. */
  maps(u: string): boolean {
    return this.inverse.has(u);
  }

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

  /** Records that the copy's name `c` stands where the user wrote `u` (no evidence); false when it contradicts the map. */
  pair(c: string, u: string): boolean {
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
  const fuzzy = fuzzyKeys(last, idf);
  const tokCache = new Map<number, string[]>();
  const toks = (i: number) => {
    let t = tokCache.get(i);
    if (!t) tokCache.set(i, (t = tokensOf(lines[i])));
    return t;
  };
  const lastTrim = user.lines[user.lines.length - 1].trim();
  let q = 0;
  /** Aligns the user's context lines from `depth` up with the copy's lines before `nb[q]`; the depth reached. */
  const alignDeeper = (al: Aligner, depth: number, swapped: [string, string][]): number => {
    while (depth < user.tokens.length && q - 1 - depth >= 0) {
      const u = user.tokens[user.tokens.length - 1 - depth], c = toks(nb[q - 1 - depth]);
      if (!al.line(u, c)) {
        // The first line that differs may still say which of the copy's names the user renamed, or swapped for another.
        if (similarity(u, c, tokenWeight(idf)) >= MIN_RENAMING_SIMILARITY) {
          noteSubstitutions(al, u, c, u.some((t) => user.bound.has(t) && !c.includes(t)) ? user.bound : undefined, swapped);
        }
        break;
      }
      depth++;
    }
    return depth;
  };
  for (q = 1; q < nb.length; q++) {
    const at = nb[q];
    if (at < src.from) continue;
    const prevLine = lines[nb[q - 1]];
    // Cheap filters: the same first and last characters, as many tokens, the same punctuation and keywords.
    let prev = edgeKey(prevLine) === lastEdges ? toks(nb[q - 1]) : undefined;
    const shaped = prev !== undefined && prev.length === last.length && (prevLine.trim() === lastTrim || sameShape(prev, last));
    // Names the copy binds near the match (its parameters and locals).
    const copyBound = () => bindings(lines.slice(Math.max(0, src.from - MAX_DEPTH * 3, at - 60), Math.min(lines.length, at + MAX_LINES)).join('\n'));
    let al = shaped ? new Aligner(user.bound, copyBound, idf) : undefined;
    const swapped: [string, string][] = [];
    let depth = al ? alignDeeper(al, 0, swapped) : 0;
    let sim = 1;
    const exact = depth > 0;
    if (!exact) {
      // A last line that only resembles the user's (another literal, another name, `self.` in front):
      // matched on its rarest names first, then by the share of weight the two lines have in common;
      // it counts with the IDF of the tokens both have, scaled by how alike they are.
      if (!fuzzy || !fuzzy.keys.some((k) => prevLine.includes(k))) continue;
      prev ??= toks(nb[q - 1]);
      sim = similarity(last, prev, fuzzy.weight);
      if (sim < MIN_SIMILARITY) continue;
      al = new Aligner(user.bound, copyBound, idf);
      al.evidence = sharedEvidence(last, prev, idf) * sim;
      noteSubstitutions(al, last, prev, user.bound, swapped);
      depth = alignDeeper(al, 1, swapped);
    }
    if (depth === 0 || !al) continue;
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
    const compared = Math.min(depth + 1, user.tokens.length, q); // lines compared on each side: those matched, the first that differs
    swapNames(al, swapped, user.tokens.slice(-compared).flat(), nb.slice(q - compared, q).flatMap(toks), lines.slice(at, at + MAX_LINES));
    out.push({
      src, at, evidence: al.evidence, depth, map: al.map, typedTokens: partial ? ut.length - 1 : ut.length, partial,
      userPrev: user.lines[user.lines.length - 1], copyPrev: prevLine, ...(exact ? {} : { similar: sim }),
    });
  }
}

/** Weight of a token when comparing resembling lines: its IDF for names and numbers, a little for punctuation. */
const tokenWeight = (idf: (t: string) => number) => (t: string): number => (/^[\w$]/.test(t) ? Math.max(idf(t), 0.5) : 0.25);

/** The user's last line's rarest names (a resembling line contains one of them), or undefined: nothing specific to look for. */
function fuzzyKeys(last: string[], idf: (t: string) => number): { keys: string[]; weight: (t: string) => number } | undefined {
  const names = [...new Set(last.filter(isName))].filter((t) => idf(t) >= MIN_KEY_IDF).sort((a, b) => idf(b) - idf(a) || (a < b ? -1 : 1));
  return names.length ? { keys: names.slice(0, 2), weight: tokenWeight(idf) } : undefined;
}

/** Dice similarity of two token lists, weighted, over their longest common subsequence. */
export function similarity(a: string[], b: string[], w: (t: string) => number): number {
  // Lines of very different lengths cannot reach MIN_SIMILARITY's share in common often enough to pay for the comparison.
  if (a.length > 64 || b.length > 64 || b.length > 2 * a.length + 2 || a.length > 2 * b.length + 2) return 0;
  let prevRow = new Float64Array(b.length + 1), row = new Float64Array(b.length + 1);
  const wb = b.map(w);
  for (let i = 1; i <= a.length; i++) {
    const wa = w(a[i - 1]);
    for (let j = 1; j <= b.length; j++) row[j] = a[i - 1] === b[j - 1] ? prevRow[j - 1] + wa : Math.max(prevRow[j], row[j - 1]);
    [prevRow, row] = [row, prevRow];
  }
  const total = a.reduce((s, t) => s + w(t), 0) + wb.reduce((s, x) => s + x, 0);
  return total > 0 ? (2 * prevRow[b.length]) / total : 0;
}

/**
 * Names that stand in the same place of two resembling lines: where their longest common
 * subsequence leaves exactly one name on each side between two common tokens (the copy's
 * `ad_rep_numpy = represent(…)` against the user's `ad_rep_scipy = represent(…)`). Copy → user.
 */
export function substitutions(user: string[], copy: string[]): [string, string][] {
  const n = user.length, m = copy.length;
  const L: Uint8Array[] = Array.from({ length: n + 1 }, () => new Uint8Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) L[i][j] = user[i] === copy[j] ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]);
  const out: [string, string][] = [];
  let i = 0, j = 0, gapI = 0, gapJ = 0;
  const close = () => {
    if (i - gapI === 1 && j - gapJ === 1 && isName(user[gapI]) && isName(copy[gapJ])) out.push([copy[gapJ], user[gapI]]);
  };
  while (i < n && j < m) {
    if (user[i] === copy[j]) { close(); i++; j++; gapI = i; gapJ = j; }
    else if (L[i + 1][j] >= L[i][j + 1]) i++;
    else j++;
  }
  i = n; j = m;
  close();
  return out;
}

/** Notes the names `copy` has where `user` has others (`swapped`), and pairs those whose user's name is in `bound`. */
function noteSubstitutions(al: Aligner, user: string[], copy: string[], bound: Set<string> | undefined, swapped: [string, string][]): void {
  for (const [c, u] of substitutions(user, copy)) {
    if (bound?.has(u)) al.pair(c, u);
    swapped.push([c, u]);
  }
}

/** Summed IDF of the user's tokens that the copy's line also has (each occurrence once). */
function sharedEvidence(user: string[], copy: string[], idf: (t: string) => number): number {
  const left = new Map<string, number>();
  for (const t of copy) left.set(t, (left.get(t) ?? 0) + 1);
  let e = 0;
  for (const t of user) {
    const n = left.get(t) ?? 0;
    if (n > 0) { e += idf(t); left.set(t, n - 1); }
  }
  return e;
}

/** Words of a name: camel-case humps, runs of capitals, digits, and the underscores between them. */
const WORD = new RegExp(`${SUBTOKEN.source}|[_$]+`, 'g'); // the lexical index's sub-tokens, separators kept
/** A swapped word shorter than this is too common to follow into longer names (`Is`, `On`). */
const MIN_SWAPPED_WORD = 3;

/** The words two names differ by, after their common leading and trailing words (`beginArray`, `beginObject` → `Array`, `Object`). */
export function differingWords(c: string, u: string): [string, string] {
  const cw = c.match(WORD) ?? [], uw = u.match(WORD) ?? [];
  let head = 0, tail = 0;
  while (head < cw.length && head < uw.length && cw[head] === uw[head]) head++;
  while (tail < cw.length - head && tail < uw.length - head && cw[cw.length - 1 - tail] === uw[uw.length - 1 - tail]) tail++;
  return [cw.slice(head, cw.length - tail).join(''), uw.slice(head, uw.length - tail).join('')];
}

/** `name` with the words `from` replaced by `to`, or undefined when `from` is not a run of its words. */
export function replaceWords(name: string, from: string, to: string): string | undefined {
  const words = name.match(WORD) ?? [];
  if (words.join('') !== name) return undefined; // a name of other characters: no word boundaries to trust
  for (let i = 0, off = 0; i < words.length; off += words[i].length, i++) {
    let end = i, joined = '';
    while (end < words.length && joined.length < from.length) joined += words[end++];
    if (joined === from) return name.slice(0, off) + to + name.slice(off + from.length);
  }
  return undefined;
}

/**
 * Names of the copy that the user's matched lines replace by another name (the copy's
 * `From<PathRejection>` where the user wrote `From<JsonRejection>`, `beginArray()` where the user
 * wrote `beginObject()`): the continuation is the user's variant, so its uses of them, whole or as
 * the words of a longer name (`endArray`; `OffsetDateTime` where `LocalDateTime` became `LocalTime`; also for a renamed local), are adapted. Not when either
 * side writes both names.
 */
function swapNames(al: Aligner, swapped: [string, string][], userCompared: string[], copyCompared: string[], continuation: string[]): void {
  if (!swapped.length && !al.map.size) return;
  const userToks = new Set(userCompared), copyToks = new Set(copyCompared);
  // The names the aligned lines renamed, then those they swapped.
  for (const [c, u] of [...al.map, ...swapped]) {
    if (userToks.has(c) || copyToks.has(u)) continue;
    if (al.map.get(c) !== u && (al.map.has(c) || al.maps(u) || !al.pair(c, u))) continue;
    const [from, to] = differingWords(c, u);
    if (from.length < MIN_SWAPPED_WORD || !/[A-Za-z]/.test(from)) continue;
    for (const name of new Set(continuation.flatMap(tokensOf))) {
      const renamed = isName(name) && !al.map.has(name) ? replaceWords(name, from, to) : undefined;
      if (renamed && isName(renamed) && !copyToks.has(renamed) && !al.maps(renamed)) al.pair(name, renamed);
    }
  }
}
