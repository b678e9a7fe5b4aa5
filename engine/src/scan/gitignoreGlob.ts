// One gitignore line, parsed as git does (dir.c) and matched in time linear in the path's length
// times the pattern's: git's wildmatch semantics (WM_PATHNAME) without its backtracking.
//
// Why not the `ignore` package's regexes: they backtrack (docs/investigations/ignore-rules-scale.md).
// A path is matched segment by segment with the two-pointer wildcard algorithm (`*` within a
// segment, `**` over whole segments): exact for globs, never worse than O(path × pattern).

/** Lines longer than this are not applied (git has no limit; no real ignore line comes close). */
export const MAX_PATTERN_CHARS = 1024;
/** Wildcards (`*`, `?`, classes) in one line, after runs of stars are collapsed. */
export const MAX_PATTERN_WILDCARDS = 64;

type Token =
  | { kind: 'lit'; ch: string }
  | { kind: 'any' }
  | { kind: 'class'; test: (ch: string) => boolean }
  | { kind: 'star'; count: number }
  | { kind: 'slash' };

type SegmentToken = Exclude<Token, { kind: 'slash' }>;
/** A pattern segment: tokens matching exactly one path segment, or `**` (any number of segments). */
type Segment = SegmentToken[] | 'globstar';

export interface GlobRule {
  /** The line as written (for the skip reason). */
  pattern: string;
  negative: boolean;
  dirOnly: boolean;
  /** No slash but a trailing one: matched against the basename at any depth. */
  basenameOnly: boolean;
  segments: Segment[];
  /** Wildcards in the line (the matching budget counts them). */
  wildcards: number;
}

export type ParsedLine = GlobRule | { skip: string } | null;

const POSIX_CLASSES: Record<string, (c: string) => boolean> = {
  alnum: (c) => /[A-Za-z0-9]/.test(c), alpha: (c) => /[A-Za-z]/.test(c), blank: (c) => c === ' ' || c === '\t',
  cntrl: (c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127, digit: (c) => c >= '0' && c <= '9',
  graph: (c) => c > ' ' && c < '\x7f', lower: (c) => c >= 'a' && c <= 'z', print: (c) => c >= ' ' && c < '\x7f',
  punct: (c) => /[!-/:-@[-`{-~]/.test(c), space: (c) => /[ \t\n\r\f\v]/.test(c), upper: (c) => c >= 'A' && c <= 'Z',
  xdigit: (c) => /[0-9A-Fa-f]/.test(c),
};

/** git's trim_trailing_spaces: trailing spaces go unless the last one is escaped. */
function trimTrailingSpaces(line: string): string {
  let lastSpace = -1;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === ' ') { if (lastSpace < 0) lastSpace = i; continue; }
    if (c === '\\') { i++; if (i >= line.length) return line; }
    lastSpace = -1;
  }
  return lastSpace >= 0 ? line.slice(0, lastSpace) : line;
}

/**
 * Parses one line of an ignore file. null: blank or a comment. `{ skip }`: a line not applied,
 * with the reason (too long, too many wildcards); a line git would never match (an unterminated
 * `[`, a trailing backslash) parses to a rule with no segments, which matches nothing.
 */
export function parseGitignoreLine(raw: string, ignoreCase: boolean): ParsedLine {
  const line = trimTrailingSpaces(raw.endsWith('\r') ? raw.slice(0, -1) : raw);
  if (!line || line.startsWith('#')) return null;
  if (line.length > MAX_PATTERN_CHARS) return { skip: `line of ${line.length} characters (at most ${MAX_PATTERN_CHARS})` };
  let body = line;
  const negative = body.startsWith('!');
  if (negative) body = body.slice(1);
  const dirOnly = body.endsWith('/');
  if (dirOnly) body = body.slice(0, -1);
  const tokens = tokenize(body, ignoreCase);
  const base = { pattern: line, negative, dirOnly, basenameOnly: false, wildcards: 0 };
  if (!tokens) return { ...base, segments: [] };
  const wildcards = tokens.filter((t) => t.kind === 'star' || t.kind === 'any' || t.kind === 'class').length;
  if (wildcards > MAX_PATTERN_WILDCARDS) return { skip: `${wildcards} wildcards in one line (at most ${MAX_PATTERN_WILDCARDS})` };
  const hasSlash = tokens.some((t) => t.kind === 'slash');
  // A leading slash only anchors (git skips it); the pattern is anchored anyway once it has one.
  if (tokens[0]?.kind === 'slash') tokens.shift();
  return { ...base, basenameOnly: !hasSlash, wildcards, segments: toSegments(tokens) };
}

/** The line as tokens, runs of stars folded into one; null when git would match nothing. */
function tokenize(body: string, ignoreCase: boolean): Token[] | null {
  const out: Token[] = [];
  const fold = (c: string) => (ignoreCase ? c.toLowerCase() : c);
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') {
      if (++i >= body.length) return null; // trailing backslash: git matches nothing
      out.push(body[i] === '/' ? { kind: 'slash' } : { kind: 'lit', ch: fold(body[i]) });
    } else if (c === '*') {
      const last = out[out.length - 1];
      if (last?.kind === 'star') last.count++;
      else out.push({ kind: 'star', count: 1 });
    } else if (c === '?') out.push({ kind: 'any' });
    else if (c === '/') out.push({ kind: 'slash' });
    else if (c === '[') {
      const parsed = parseClass(body, i, ignoreCase);
      if (!parsed) return null; // unterminated or malformed class: git's WM_ABORT_ALL
      out.push({ kind: 'class', test: parsed.test });
      i = parsed.end;
    } else out.push({ kind: 'lit', ch: fold(c) });
  }
  return out;
}

/** A bracket expression starting at `start` (the `[`), as wildmatch reads it; `end` is its `]`. */
function parseClass(s: string, start: number, ignoreCase: boolean): { test: (ch: string) => boolean; end: number } | null {
  let i = start + 1;
  const negated = s[i] === '!' || s[i] === '^';
  if (negated) i++;
  const tests: Array<(c: string) => boolean> = [];
  let prev = '';
  let first = true;
  for (; first || s[i] !== ']'; i++, first = false) {
    if (i >= s.length) return null;
    let c = s[i];
    if (c === '\\') {
      if (++i >= s.length) return null;
      c = s[i];
      tests.push(((x) => (ch: string) => ch === x)(c));
    } else if (c === '-' && prev && i + 1 < s.length && s[i + 1] !== ']') {
      let hi = s[++i];
      if (hi === '\\') { if (++i >= s.length) return null; hi = s[i]; }
      const lo = prev;
      tests.push((ch) => ch >= lo && ch <= hi);
      prev = '';
      continue;
    } else if (c === '[' && s[i + 1] === ':') {
      const close = s.indexOf(']', i + 2);
      if (close < 0) return null;
      if (s[close - 1] === ':' && close - 1 > i + 1) {
        const cls = POSIX_CLASSES[s.slice(i + 2, close - 1)];
        if (!cls) return null; // malformed [:class:]
        tests.push(cls);
        i = close;
        prev = '';
        continue;
      }
      tests.push((ch) => ch === '['); // no ":]": a plain '['
    } else tests.push(((x) => (ch: string) => ch === x)(c));
    prev = c;
  }
  const hit = (ch: string) => tests.some((t) => t(ch));
  const test = ignoreCase ? (ch: string) => hit(ch) || hit(ch.toUpperCase()) || hit(ch.toLowerCase()) : hit;
  return { test: (ch) => ch !== '/' && test(ch) !== negated, end: i };
}

/** Splits at slashes; a segment of stars alone is `**`; consecutive `**` are one (as in git). */
function toSegments(tokens: Token[]): Segment[] {
  const segments: Segment[] = [];
  let current: SegmentToken[] = [];
  const close = () => {
    const only = current.length === 1 ? current[0] : undefined;
    const seg: Segment = only?.kind === 'star' && only.count >= 2 ? 'globstar' : current.map(singleStar);
    if (!(seg === 'globstar' && segments[segments.length - 1] === 'globstar')) segments.push(seg);
    current = [];
  };
  for (const t of tokens) {
    if (t.kind === 'slash') close();
    else current.push(t);
  }
  close();
  // A trailing `/**` matches everything inside, not the directory itself: one segment or more.
  if (segments.length > 1 && segments[segments.length - 1] === 'globstar') {
    segments.splice(segments.length - 1, 0, [{ kind: 'star', count: 1 }]);
  }
  return segments;
}

/** `**` next to other characters is a plain `*`. */
const singleStar = (t: SegmentToken): SegmentToken => (t.kind === 'star' && t.count > 1 ? { kind: 'star', count: 1 } : t);

/**
 * What a path must contain for the rule to match: a segment equal to a literal one of the rule's
 * (the longest), or else, for a name pattern ending in a literal `.ext`, that extension. Folded
 * like the rule's literals; empty when neither holds.
 */
export function literalKeys(rule: GlobRule): { segment?: string; extension?: string } {
  let segment: string | undefined;
  for (const seg of rule.segments) {
    if (seg === 'globstar' || !seg.length || !seg.every((t) => t.kind === 'lit')) continue;
    const text = seg.map((t) => (t as { ch: string }).ch).join('');
    if (segment === undefined || text.length > segment.length) segment = text;
  }
  if (segment !== undefined) return { segment };
  const only = rule.basenameOnly ? rule.segments[0] : undefined;
  if (!only || only === 'globstar') return {};
  let start = only.length;
  while (start > 0 && only[start - 1].kind === 'lit') start--;
  const tail = only.slice(start).map((t) => (t as { ch: string }).ch).join('');
  const dot = tail.lastIndexOf('.');
  return dot >= 0 ? { extension: tail.slice(dot) } : {};
}

/** Whether a rule matches a path relative to its file's directory (forward slashes, no trailing slash). */
export function ruleMatches(rule: GlobRule, local: string, isDir: boolean, ignoreCase: boolean): boolean {
  if (rule.dirOnly && !isDir) return false;
  if (!rule.segments.length) return false;
  const text = ignoreCase ? local.toLowerCase() : local;
  if (rule.basenameOnly) {
    const seg = rule.segments[0];
    return seg === 'globstar' || segmentMatches(seg, text.slice(text.lastIndexOf('/') + 1));
  }
  return pathMatches(rule.segments, text.split('/'));
}

/** Segments against path parts: `**` is the star, each other segment one part; resume at the last `**`. */
function pathMatches(pattern: Segment[], parts: string[]): boolean {
  let p = 0, t = 0, starP = -1, starT = 0;
  while (t < parts.length) {
    const seg = pattern[p];
    if (seg === 'globstar') { starP = p++; starT = t; continue; }
    if (seg && segmentMatches(seg, parts[t])) { p++; t++; continue; }
    if (starP < 0) return false;
    p = starP + 1;
    t = ++starT;
  }
  while (pattern[p] === 'globstar') p++;
  return p === pattern.length;
}

/** Tokens against one path segment: the same algorithm over characters, `*` being the star. */
function segmentMatches(tokens: SegmentToken[], text: string): boolean {
  let p = 0, t = 0, starP = -1, starT = 0;
  while (t < text.length) {
    const tok = tokens[p];
    if (tok?.kind === 'star') { starP = p++; starT = t; continue; }
    if (tok && charMatches(tok, text[t])) { p++; t++; continue; }
    if (starP < 0) return false;
    p = starP + 1;
    t = ++starT;
  }
  while (tokens[p]?.kind === 'star') p++;
  return p === tokens.length;
}

function charMatches(tok: SegmentToken, ch: string): boolean {
  switch (tok.kind) {
    case 'lit': return tok.ch === ch;
    case 'any': return true;
    case 'class': return tok.test(ch);
    default: return false;
  }
}
