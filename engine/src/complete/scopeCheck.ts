// The checks every multi-line suggestion passes before it is shown (the built-in source's and a
// model's alike): it stops where the text after the cursor resumes, closes no bracket that text
// already closes, introduces no name unbound at the cursor, and leaves no line below it indented
// inside a block it has closed. A suggestion is cut to its last safe line before the first line
// that fails, or withdrawn when its first line does.
import { indentCols } from './lines';

/** Names bound at the cursor (scopes, imports, the module, the repository's definitions, builtins). */
export interface NameScope {
  has(name: string): boolean;
}

export interface SuggestionContext {
  /** Text before the cursor (its last line is what is typed on the cursor's line). */
  prefix: string;
  /** Text after the cursor, as the editor holds it ('' or undefined when unknown). */
  suffix?: string;
  python: boolean;
  /** Undefined: names are not checked (a language the check cannot bind names for). */
  names?: NameScope;
  /** JSX or TSX: a lowercase `<tag` is an element, not a name. */
  jsx?: boolean;
  /** C, C++ or Java: `Type name` declares `name` (`uv_buf_t copy;`, `String s = …`, `void setUp() {`). */
  declarators?: boolean;
}

export interface Vetted {
  text: string;
  /** Why the suggestion was cut (absent when it is shown whole). */
  cut?: { line: number; reason: 'suffix' | 'closer' | 'unbound' | 'block'; name?: string };
}

const CLOSE_OF: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/** Code without string literals and comments (same length, line breaks kept), so brackets and names are counted in code only. */
export function maskNonCode(text: string, python: boolean): string {
  return text.replace(nonCodePattern(python), (m) => m.replace(/[^\n]/g, ' '));
}

/** String literals and comments, each one match (an unterminated one runs to the end). */
function nonCodePattern(python: boolean): RegExp {
  return python
    ? /("""[\s\S]*?(?:"""|$)|'''[\s\S]*?(?:'''|$)|[rbfuRBFU]{0,2}"(?:\\.|[^"\\\n])*"?|[rbfuRBFU]{0,2}'(?:\\.|[^'\\\n])*'?|#[^\n]*)/g
    : /(`(?:\\.|[^`\\])*`?|"(?:\\.|[^"\\\n])*"?|'(?:\\.|[^'\\\n])*'?|\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$))/g;
}

/**
 * The string or comment the cursor is in (`before` it and after it, to its end), or undefined in code:
 * there a suggestion is prose or a doctest, whose brackets are its own text's.
 */
function nonCodeAround(tail: string, suffix: string, python: boolean): { before: string; after: string } | undefined {
  for (const m of (tail + suffix).matchAll(nonCodePattern(python))) {
    const start = m.index!, end = start + m[0].length;
    if (start >= tail.length) break;
    if (end > tail.length || (end === tail.length && /^(?:#|\/\/)/.test(m[0]))) return { before: tail.slice(start), after: (tail + suffix).slice(tail.length, end) };
  }
  return undefined;
}

/** Brackets open at the end of `code`, innermost last (closers without an opener are ignored). */
function openBrackets(code: string): string[] {
  const st: string[] = [];
  for (const ch of code) {
    if (ch === '(' || ch === '[' || ch === '{') st.push(ch);
    else if ((ch === ')' || ch === ']' || ch === '}') && st.length && CLOSE_OF[st[st.length - 1]] === ch) st.pop();
  }
  return st;
}

/** Closers of `code` with no opener in it, in order. */
function unmatchedClosers(code: string, max = 64): string[] {
  let depth = 0;
  const out: string[] = [];
  for (const ch of code) {
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      if (depth > 0) depth--;
      else if (out.push(ch) >= max) break;
    }
  }
  return out;
}

/**
 * How many of the brackets open at the cursor (innermost first) the text after it leaves unclosed:
 * in a file balanced but for what the user is inserting, the text after the cursor closes the outer
 * ones. Counted, not matched by kind: removing an inner `}` leaves the next outer `}` below.
 */
function unclosedBySuffix(prefix: string, suffix: string): number {
  const open = openBrackets(prefix).length;
  return Math.max(0, open - unmatchedClosers(suffix, open + 1).length);
}

/** Prefix text read to know whether the cursor is in a string or comment (and which brackets are open there). */
const MASK_WINDOW = 16_000;

/** The editor's text around the cursor with strings and comments masked, each side read in context of the prefix. */
interface MaskedAround {
  tail: string;
  prefix: string;
  suffix: string;
  /** Set when the cursor is in a string or comment (nonCodeAround). */
  inText?: { before: string; after: string };
}

const maskedAroundCache = new WeakMap<SuggestionContext, MaskedAround>();

function maskedAround(ctx: SuggestionContext): MaskedAround {
  let m = maskedAroundCache.get(ctx);
  if (!m) {
    const tail = ctx.prefix.slice(-MASK_WINDOW);
    m = { tail, prefix: maskNonCode(tail, ctx.python), suffix: maskInContext(tail, ctx.suffix ?? '', ctx.python), inText: nonCodeAround(tail, ctx.suffix ?? '', ctx.python) };
    maskedAroundCache.set(ctx, m);
  }
  return m;
}

/** `text` masked as it reads after `before`: a suggestion made inside a docstring or comment is prose, not code. */
function maskInContext(before: string, text: string, python: boolean): string {
  return maskNonCode(before + text, python).slice(before.length);
}

/** Where (line, column) the suggestion closes its `k`-th bracket opened before the cursor (1-based), or undefined. */
function outerCloserAt(lines: string[], k: number): { line: number; col: number } | undefined {
  let depth = 0, seen = 0;
  for (let i = 0; i < lines.length; i++) {
    for (let c = 0; c < lines[i].length; c++) {
      const ch = lines[i][c];
      if (ch === '(' || ch === '[' || ch === '{') depth++;
      else if (ch === ')' || ch === ']' || ch === '}') {
        if (depth > 0) depth--;
        else if (++seen === k) return { line: i, col: c };
      }
    }
  }
  return undefined;
}

const NAME = /[A-Za-z_$][\w$]*/g;
const KEYWORDS = new Set(('and as assert async await break case catch class const continue debugger def default del delete do elif else enum ' +
  'except export extends false finally for from function global if import in instanceof is lambda let match new nonlocal not null or ' +
  'pass raise return static super switch this throw true try typeof undefined var void while with yield of get set type interface ' +
  'implements keyof readonly declare namespace abstract private protected public satisfies infer asserts override ' +
  'fn impl mut pub use mod struct trait where loop move ref dyn unsafe crate self Self extern func go defer chan map range package ' +
  'select fallthrough goto None True False nil using out unique global is asserts accessor constructor').split(' '));
/** Names a line binds itself: assignments, loop and `with`/`except` targets, parameters, declarations, closure and lambda parameters. */
const BINDS = [
  /\b(?:const|let|var|def|class|function|interface|type|enum|fn|struct|trait|mod|static|mut|ref|func|namespace)\s+([A-Za-z_$][\w$]*)/g,
  /\b(?:for|as|except\s+[\w.]+\s+as)\s+\(?([A-Za-z_$][\w$]*(?:\s*,\s*[A-Za-z_$][\w$]*)*)/g,
  /^\s*([A-Za-z_$][\w$]*(?:\s*,\s*[A-Za-z_$][\w$]*)*)\s*(?::[^=]*)?(?:=|:=)(?!=)/g,
  /\blambda\s+([^:]*):/g,
  /\|([^|]*)\|/g,
];

/** A C-family declaration: a type (maybe templated, then `*`/`&` or a space) and the declared name before `;`, `=`, `,`, `[`, `(`, `)` or the end. */
const C_DECLARATOR = /\b([A-Za-z_]\w*)(?:\s*<[^<>;()]*>)?(?:\s+[*&]+(?=[A-Za-z_])|[*&]+\s+|\s+)\**([A-Za-z_]\w*)\s*(?=[;=,)[(]|$)/gm;
/** Words before an expression, never a type (`return x;`, `case X:`). */
const NOT_A_TYPE = /^(?:return|case|goto|else|throw|delete|new|sizeof|do|co_return|co_yield|co_await|yield|typeof|not|and|or)$/;

/** Names `code` (one line, strings and comments masked) binds; parameters of a declaration on the line too. */
function lineBindings(code: string, out: Set<string>, declarators = false): void {
  if (declarators) for (const m of code.matchAll(C_DECLARATOR)) if (!NOT_A_TYPE.test(m[1])) out.add(m[2]);
  for (const re of BINDS) for (const m of code.matchAll(re)) for (const n of m[1].match(NAME) ?? []) out.add(n);
  // Parameters: `def f(a, b=1)`, `function f(a: T)`, `(a, b) =>`, `fn f(a: T)`, `func f(a T)`.
  const lists = [...code.matchAll(/\b(?:def|function|fn|func)\s*[\w$]*\s*(?:<[^>]*>)?\s*\(([^)]*)\)?/g), ...code.matchAll(/\(([^()]*)\)\s*(?::\s*[^=]+)?=>/g), ...code.matchAll(/(?:^|[=(,:]\s*)(?:async\s+)?([A-Za-z_$][\w$]*)\s*=>/g)];
  for (const params of lists) for (const p of params[1].split(',')) { const n = p.trim().replace(/^[*.&]+|^(?:mut|readonly|public|private|protected)\s+/g, '').match(/^[A-Za-z_$][\w$]*/)?.[0]; if (n) out.add(n); }
  // Destructuring: `const { a, b: c } = …`, `let [x, y] = …`, `(a, b) = …`.
  const destructure = code.match(/^\s*(?:const|let|var)?\s*[{[(]([^=]*)[}\])]\s*(?::[^=]*)?=(?!=)/);
  if (destructure) for (const part of destructure[1].split(',')) { const n = part.split(':').pop()!.trim().replace(/^\.\.\./, '').match(/^[A-Za-z_$][\w$]*/)?.[0]; if (n) out.add(n); }
}

/** Names the suggestion's lines bind, a parameter list or destructuring pattern spread over lines included. */
function ownBindings(codes: string[], declarators?: boolean): Set<string> {
  const own = new Set<string>();
  let open = 0; // depth of a parameter list or pattern still open from an earlier line
  for (const code of codes) {
    lineBindings(code, own, declarators);
    if (open > 0) {
      const first = code.match(/^\s*(?:\*{1,2}|\.\.\.)?([A-Za-z_$][\w$]*)/)?.[1];
      if (first) own.add(first);
    }
    const opens = (code.match(/[([{]/g) ?? []).length - (code.match(/[)\]}]/g) ?? []).length;
    if (open > 0) open = Math.max(0, open + opens);
    else if (opens > 0 && /\b(?:def|function|fn|func)\b[^(]*\([^)]*$|^\s*(?:const|let|var)\s*[{[]\s*$|^\s*(?:async\s+)?\(\s*$/.test(code)) open = opens;
  }
  return own;
}

/** The first name of `code` (one line) that nothing binds, from column `from` on; undefined when every name is bound. */
function firstUnbound(code: string, from: number, own: Set<string>, ctx: SuggestionContext): string | undefined {
  for (const m of code.matchAll(NAME)) {
    const at = m.index!, name = m[0];
    if (at + name.length <= from) continue; // typed by the user
    const before = code.slice(0, at);
    if (/[\w$]$/.test(before) || /(?:\.|\?\.|::|->)\s*$/.test(before)) continue; // a member or a path segment
    if (/^\s*!/.test(code.slice(at + name.length)) && !/^\s*!=/.test(code.slice(at + name.length))) continue; // a macro (`name!`)
    const after = code.slice(at + name.length).match(/^\s*(\S\S?)/)?.[1] ?? '';
    if ((after[0] === '=' && after !== '==' && after !== '=>') || (after[0] === ':' && after !== '::')) continue; // keyword argument, key, annotated target
    if (ctx.jsx && /<\/?\s*$/.test(before) && /^[a-z]/.test(name)) continue; // an intrinsic element
    if (/^\d/.test(name) || KEYWORDS.has(name) || own.has(name) || ctx.names!.has(name)) continue;
    return name;
  }
  return undefined;
}

/** The suggestion cut where it fails a check (`Vetted.cut` says where and why); '' when its first line fails. */
export function vetSuggestion(text: string, ctx: SuggestionContext): Vetted {
  const lines = text.split('\n');
  const suffix = ctx.suffix ?? '';
  let cut: Vetted['cut'];
  const cutAt = (line: number, reason: NonNullable<Vetted['cut']>['reason'], name?: string) => {
    if (!cut || line < cut.line) cut = { line, reason, ...(name ? { name } : {}) };
  };
  // 1. Where the following text resumes: a line after the first that is the next line after the cursor's.
  const following = suffix.split('\n').slice(1).find((l) => l.trim())?.trim();
  if (following && /[\w$]/.test(following)) {
    const i = lines.findIndex((l, k) => k > 0 && l.trim() === following);
    if (i > 0) cutAt(i, 'suffix');
  }
  // 2. A closer for a bracket opened before the cursor that the text after it already closes.
  const around = maskedAround(ctx);
  const masked = maskInContext(around.tail, text, ctx.python).split('\n');
  let trimmedLine: { line: number; col: number } | undefined;
  if (suffix.trim()) {
    // In a string or comment (a doctest, prose in parentheses) its own text's brackets count.
    const closing = around.inText ? lines : masked;
    const at = outerCloserAt(closing, (around.inText ? unclosedBySuffix(around.inText.before, around.inText.after) : unclosedBySuffix(around.prefix, around.suffix)) + 1);
    if (at) {
      if (closing[at.line].slice(0, at.col).trim() || at.line === 0) trimmedLine = at;
      cutAt(trimmedLine ? at.line + 1 : at.line, 'closer');
    }
  }
  // 3. Names: the first line that uses a name nothing binds at the cursor (nor the suggestion before it).
  if (ctx.names) {
    const typed = ctx.prefix.slice(ctx.prefix.lastIndexOf('\n') + 1);
    const typedMasked = around.prefix;
    const codeOf = (i: number) => (i === 0 ? typedMasked.slice(typedMasked.lastIndexOf('\n') + 1) + masked[0] : masked[i]);
    // What the suggestion binds anywhere in it (a comprehension's `for` may follow its use).
    const own = ownBindings(lines.map((_, i) => codeOf(i)), ctx.declarators);
    for (let i = 0; i < lines.length && (!cut || i < cut.line); i++) {
      const code = codeOf(i);
      const name = firstUnbound(code, i === 0 ? typed.length : 0, own, ctx);
      if (name) { cutAt(i, 'unbound', name); break; }
    }
  }
  let shown = text;
  if (cut) {
    if (cut.line === 0 && cut.reason !== 'closer') return { text: '', cut };
    const kept = lines.slice(0, cut.line);
    if (trimmedLine && trimmedLine.line === cut.line - 1) kept[trimmedLine.line] = kept[trimmedLine.line].slice(0, trimmedLine.col).trimEnd();
    shown = lastSafe(kept, masked, ctx.python).join('\n').trimEnd();
  }
  // 4. The line below indented inside a block the suggestion does not leave open.
  const block = around.inText ? undefined : blockLeftBehind(shown, ctx, around);
  if (block) return block;
  return cut ? { text: shown, cut } : { text };
}

/** A line below the cursor that begins with these continues the expression above it (`.then(…)`, `&& b`, `: c`). */
const CONTINUES = /^(?:[.?:&|+\-*/%=<>^,)\]}]|->)/;

/**
 * Check 4: the first code line below the cursor is indented deeper than the suggestion's last line,
 * which ends a statement (`;`, `}`; in Python any line outside brackets but a block's header): that
 * line can only be inside a block the cursor's line opens. The suggestion keeps its first line
 * where that line opens one (the text below is its body), or is withdrawn.
 */
function blockLeftBehind(shown: string, ctx: SuggestionContext, around: MaskedAround): Vetted | undefined {
  if (!shown.trim()) return undefined;
  // The first line below with code (not a comment's), read as written (a string element is code).
  const at = around.suffix.split('\n').findIndex((l, i) => i > 0 && l.trim());
  const below = at > 0 ? (ctx.suffix ?? '').split('\n')[at] : undefined;
  if (below === undefined || CONTINUES.test(below.trim())) return undefined;
  const typed = around.prefix.slice(around.prefix.lastIndexOf('\n') + 1);
  const code = maskInContext(around.tail, shown, ctx.python).split('\n');
  code[0] = typed + code[0];
  const depthAtCursor = ctx.python ? openBrackets(around.prefix).length : 0;
  const ends = (line: string, depth: number) => depth <= 0 && (ctx.python ? depthAtCursor + depth <= 0 && !/[:\\]$/.test(line.trimEnd()) : /[;}]$/.test(line.trimEnd()));
  let depth = 0, firstDepth = 0, last = 0;
  for (let i = 0; i < code.length; i++) {
    for (const ch of code[i]) {
      if (ch === '(' || ch === '[' || ch === '{') depth++;
      else if (ch === ')' || ch === ']' || ch === '}') depth--;
    }
    if (i === 0) firstDepth = depth;
    if (code[i].trim()) last = i;
  }
  const indentBelow = indentCols(below);
  if (!ends(code[last], depth) || indentBelow <= indentCols(code[last])) return undefined;
  const opens = firstDepth > 0 || (ctx.python && /:$/.test(code[0].trimEnd()));
  if (last > 0 && opens && indentCols(code[0]) < indentBelow) return { text: shown.split('\n')[0], cut: { line: 1, reason: 'block' } };
  return { text: '', cut: { line: 0, reason: 'block' } };
}

/** The kept lines up to the last one that leaves no bracket of the suggestion's own open and, in Python, no header without its body. */
function lastSafe(kept: string[], masked: string[], python: boolean): string[] {
  let depth = 0, first = 0, end = 0;
  for (let i = 0; i < kept.length; i++) {
    for (const ch of masked[i].slice(0, kept[i].length)) {
      if (ch === '(' || ch === '[' || ch === '{') depth++;
      else if ((ch === ')' || ch === ']' || ch === '}') && depth > 0) depth--;
    }
    if (i === 0) first = depth;
    const header = python && /:\s*$/.test(masked[i].slice(0, kept[i].length));
    if (i === 0 || (depth <= first && !header && !/\\\s*$/.test(kept[i]))) end = i;
  }
  return kept.slice(0, end + 1);
}
