// Go RE2 syntax (the language of gitleaks' rules) to a JavaScript RegExp source. The engine runs on
// Node 20 (the editor's too), whose RegExp has no inline flag groups, so case-insensitive parts are
// spelled out ([aA], [a-zA-Z]) and `(?s:.)` becomes [\s\S]; named groups become non-capturing (a
// rule's secret is its first non-empty capture group, as gitleaks takes it). Anything RE2 has and
// this does not convert throws UnsupportedRegex, so a rule is skipped with a reason, never misread.

export class UnsupportedRegex extends Error {}

interface Flags {
  ci: boolean;
  dotAll: boolean;
  multiLine: boolean;
}

interface ClassItem {
  lo: number;
  hi: number;
  /** A class escape kept as written (\w, \d, \s and their negations). */
  raw?: string;
}

const POSIX: Record<string, string> = {
  alpha: 'A-Za-z', digit: '0-9', alnum: '0-9A-Za-z', upper: 'A-Z', lower: 'a-z', space: '\\t\\n\\v\\f\\r ',
  xdigit: '0-9A-Fa-f', word: '\\w', punct: '!-\\/:-@\\[-`{-~', blank: ' \\t', print: ' -~', graph: '!-~', cntrl: '\\x00-\\x1f\\x7f',
};

const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

function hex(code: number): string {
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One character as a class member or literal, escaped where JS would read it otherwise. */
function charText(code: number, inClass: boolean): string {
  if (code < 0x20 || code > 0x7e) return hex(code);
  const ch = String.fromCharCode(code);
  const special = inClass ? '\\]^-[' : '\\^$.|?*+()[]{}/';
  return special.includes(ch) ? `\\${ch}` : ch;
}

const SIMPLE_ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11, a: 7 };

/** Reads the escape at `go[i] === '\\'`: a code point, or a class escape kept raw; and the next index. */
function readEscape(go: string, i: number): { code?: number; raw?: string; next: number } {
  const c = go[i + 1];
  if (c === undefined) throw new UnsupportedRegex('trailing backslash');
  if ('dDwWsS'.includes(c)) return { raw: `\\${c}`, next: i + 2 };
  if (c in SIMPLE_ESCAPES) return { code: SIMPLE_ESCAPES[c], next: i + 2 };
  if (c === 'x') {
    if (go[i + 2] === '{') {
      const end = go.indexOf('}', i + 3);
      if (end < 0) throw new UnsupportedRegex('unterminated \\x{');
      return { code: parseInt(go.slice(i + 3, end), 16), next: end + 1 };
    }
    return { code: parseInt(go.slice(i + 2, i + 4), 16), next: i + 4 };
  }
  if (/[0-7]/.test(c)) {
    const m = /^[0-7]{1,3}/.exec(go.slice(i + 1))!;
    return { code: parseInt(m[0], 8), next: i + 1 + m[0].length };
  }
  if (/[A-Za-z0-9]/.test(c)) throw new UnsupportedRegex(`escape \\${c}`);
  return { code: c.charCodeAt(0), next: i + 2 };
}

/** Converts the class starting at `go[i] === '['`; returns its JS text and the index after it. */
function convertClass(go: string, i: number, flags: Flags): { text: string; next: number } {
  let j = i + 1;
  const negate = go[j] === '^';
  if (negate) j++;
  const items: ClassItem[] = [];
  let first = true;
  while (j < go.length && (go[j] !== ']' || first)) {
    first = false;
    if (go.startsWith('[:', j)) {
      const end = go.indexOf(':]', j + 2);
      const name = end > 0 ? go.slice(j + 2, end) : '';
      if (!(name in POSIX)) throw new UnsupportedRegex(`class [:${name}:]`);
      items.push({ lo: -1, hi: -1, raw: POSIX[name] });
      j = end + 2;
      continue;
    }
    let lo: number;
    if (go[j] === '\\') {
      const e = readEscape(go, j);
      j = e.next;
      if (e.raw !== undefined) {
        items.push({ lo: -1, hi: -1, raw: e.raw });
        continue;
      }
      lo = e.code!;
    } else {
      lo = go.charCodeAt(j++);
    }
    let hi = lo;
    if (go[j] === '-' && go[j + 1] !== ']' && j + 1 < go.length) {
      if (go[j + 1] === '\\') {
        const e = readEscape(go, j + 1);
        if (e.raw !== undefined) throw new UnsupportedRegex('range to a class escape');
        hi = e.code!;
        j = e.next;
      } else {
        hi = go.charCodeAt(j + 1);
        j += 2;
      }
    }
    items.push({ lo, hi });
  }
  if (go[j] !== ']') throw new UnsupportedRegex('unterminated class');
  const folded: ClassItem[] = [];
  if (flags.ci) {
    for (const it of items) {
      if (it.raw !== undefined) continue;
      for (const [a, z, shift] of [[97, 122, -32], [65, 90, 32]] as const) {
        const lo = Math.max(it.lo, a);
        const hi = Math.min(it.hi, z);
        if (lo <= hi) folded.push({ lo: lo + shift, hi: hi + shift });
      }
    }
  }
  const body = [...items, ...folded]
    .map((it) => it.raw ?? (it.lo === it.hi ? charText(it.lo, true) : `${charText(it.lo, true)}-${charText(it.hi, true)}`))
    .join('');
  return { text: `[${negate ? '^' : ''}${body}]`, next: j + 1 };
}

/** Applies a flag string (`i`, `-i`, `is`, `i-s`) to a copy of `base`. */
function withFlags(base: Flags, spec: string): Flags {
  const out = { ...base };
  let on = true;
  for (const f of spec) {
    if (f === '-') on = false;
    else if (f === 'i') out.ci = on;
    else if (f === 's') out.dotAll = on;
    else if (f === 'm') out.multiLine = on;
    else throw new UnsupportedRegex(`flag ${f}`);
  }
  return out;
}

/** Converts an open paren at `go[i]`; returns the JS text, the scope change and the next index. */
function convertGroup(go: string, i: number, flags: Flags, stack: Flags[]): { text: string; next: number } {
  if (!go.startsWith('(?', i)) {
    stack.push({ ...flags });
    return { text: '(', next: i + 1 };
  }
  const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(go.slice(i, i + 64));
  if (named) {
    stack.push({ ...flags });
    return { text: '(?:', next: i + named[0].length };
  }
  const m = /^\(\?([a-zA-Z-]*)([:)])/.exec(go.slice(i, i + 16));
  if (!m) throw new UnsupportedRegex(`group ${go.slice(i, i + 4)}`);
  const next = withFlags(flags, m[1]);
  if (m[2] === ')') {
    stack[stack.length - 1] = next; // (?i) sets the flags for the rest of the enclosing group
    return { text: '', next: i + m[0].length };
  }
  stack.push(next);
  return { text: '(?:', next: i + m[0].length };
}

/** The JavaScript source (no flags needed) of Go regexp `go`. */
export function goRegexToJs(go: string): string {
  const stack: Flags[] = [{ ci: false, dotAll: false, multiLine: false }];
  let out = '';
  let i = 0;
  while (i < go.length) {
    const flags = stack[stack.length - 1];
    const ch = go[i];
    if (ch === '\\') {
      const c = go[i + 1];
      if (c === 'z') { out += '(?![\\s\\S])'; i += 2; }
      else if (c === 'A') { out += flags.multiLine ? '(?<![\\s\\S])' : '^'; i += 2; }
      else if (c === 'b' || c === 'B') { out += `\\${c}`; i += 2; }
      else {
        const e = readEscape(go, i);
        out += e.raw ?? (flags.ci && isLetter(e.code!) ? caseClass(e.code!) : charText(e.code!, false));
        i = e.next;
      }
    } else if (ch === '[') {
      const c = convertClass(go, i, flags);
      out += c.text;
      i = c.next;
    } else if (ch === '(') {
      const g = convertGroup(go, i, flags, stack);
      out += g.text;
      i = g.next;
    } else if (ch === ')') {
      if (stack.length === 1) throw new UnsupportedRegex('unbalanced )');
      stack.pop();
      out += ')';
      i++;
    } else if (ch === '.') {
      out += flags.dotAll ? '[\\s\\S]' : '[^\\n]';
      i++;
    } else if (ch === '^' || ch === '$') {
      out += !flags.multiLine ? ch : ch === '^' ? '(?<=^|\\n)' : '(?=\\n|$)';
      i++;
    } else if (ch === '{' && !/^\{\d+(?:,\d*)?\}/.test(go.slice(i, i + 12))) {
      out += '\\{'; // a literal brace in RE2
      i++;
    } else if (ch === '}' && !/\{\d+(?:,\d*)?$/.test(go.slice(Math.max(0, i - 12), i))) {
      out += '\\}';
      i++;
    } else {
      const code = go.charCodeAt(i);
      out += flags.ci && isLetter(code) ? caseClass(code) : ch;
      i++;
    }
  }
  if (stack.length !== 1) throw new UnsupportedRegex('unbalanced (');
  return out;
}

function caseClass(code: number): string {
  const c = String.fromCharCode(code);
  return `[${c.toLowerCase()}${c.toUpperCase()}]`;
}
