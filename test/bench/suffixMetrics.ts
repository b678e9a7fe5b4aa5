// Protocol E with the text after the cursor (E_suffix, test/bench/README.md): the editor state holds
// the file's real right context, and each offered suggestion is checked for re-inserting what already
// follows the cursor and for names unbound at the cursor. Both checks are the benchmark's own, written
// apart from the engine's filter (engine/src/complete/scopeCheck.ts): lines and brackets by text, names
// against every identifier of the edited file and the repository's module-level definitions.
import { boundNames } from '../../engine/src/lexical/normalize';
import { builtinNames } from '../../engine/src/complete/builtinNames';
import { keywordsOf } from './protocols';
import type { Repo, Task } from './split';

/** The editor's cap on the text after the cursor (extension/src/editorState.ts MAX_SUFFIX_CHARS). */
const MAX_SUFFIX_CHARS = 4000;

/** The text after the cursor once the target lines are gone: the rest of the (empty) cursor line, then the lines after the target. */
export function rightContextOf(fileLines: string[], task: Task): string {
  const after = fileLines.slice(task.target_end_line + 1);
  return ('\n' + after.join('\n') + (after.length ? '\n' : '')).slice(0, MAX_SUFFIX_CHARS);
}

/** Code without its string literals and comments (Python and C-family forms), line breaks kept. */
export function codeOnly(text: string, python: boolean): string {
  const re = python
    ? /("""[\s\S]*?(?:"""|$)|'''[\s\S]*?(?:'''|$)|"(?:\\.|[^"\\\n])*"?|'(?:\\.|[^'\\\n])*'?|#[^\n]*)/g
    : /(`(?:\\.|[^`\\])*`?|"(?:\\.|[^"\\\n])*"?|'(?:\\.|[^'\\\n])*'?|\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$))/g;
  return text.replace(re, (m) => m.replace(/[^\n]/g, ' '));
}

/** Brackets a text leaves open at its end (`open`) and closers it has with no opener in it (`unmatched`). */
export function bracketBalance(code: string): { open: number; unmatched: number } {
  let depth = 0, unmatched = 0;
  for (const ch of code) {
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      if (depth > 0) depth--;
      else unmatched++;
    }
  }
  return { open: depth, unmatched };
}

/**
 * Does a suggestion re-insert what follows the cursor? Either one of its lines after the first is the
 * first non-blank line after the cursor's line (the following text resumes inside it), or it closes
 * a bracket opened before the cursor while the text after the cursor already closes every such bracket.
 */
export function duplicatesSuffix(suggestion: string, prefix: string, suffix: string, python: boolean): boolean {
  const lines = suggestion.split('\n');
  const following = suffix.split('\n').slice(1).find((l) => l.trim())?.trim();
  if (following && /[\w$]/.test(following) && lines.slice(1).some((l) => l.trim() === following)) return true;
  // Each side read after the prefix: a suggestion made inside a docstring or comment has no code brackets.
  const own = bracketBalance(codeOnly(prefix + suggestion, python).slice(prefix.length));
  if (own.unmatched === 0) return false;
  const openAtCursor = bracketBalance(codeOnly(prefix, python)).open;
  return bracketBalance(codeOnly(prefix + suffix, python).slice(prefix.length)).unmatched >= openAtCursor;
}

const IDENT = /[A-Za-z_$][\w$]*/g;

/** C and C++ sources and headers: their module-level definitions have their own forms. */
const C_FAMILY_FILE = /\.(?:c|h|cc|cpp|cxx|hpp|hh|hxx|ipp|inl|tpp)$/;
/**
 * C and C++ module-level definition forms (column 0, as these repositories write them): a macro
 * (`#define NAME`), a function or prototype (`UV_EXTERN int uv_os_getenv(`), a struct/union/enum/class
 * tag, a typedef's name (`typedef void (*uv_cb)(...)`, `} uv_buf_t;`).
 */
const C_DEFINITIONS = [
  /^\s*#\s*define\s+([A-Za-z_]\w*)/,
  /^(?!(?:return|if|while|for|switch|else|case|goto|do)\b)(?:[A-Za-z_][\w:<>,]*[\s*&]+)+\**([A-Za-z_]\w*)\s*\(/,
  /^(?:typedef\s+)?(?:struct|union|enum|class)\s+([A-Za-z_]\w*)/,
  /^typedef\b[^;(]*?\b([A-Za-z_]\w*)\s*;/,
  /^typedef\b[^;]*\(\s*\*\s*([A-Za-z_]\w*)\s*\)/,
  /^}\s*([A-Za-z_]\w*)\s*;/,
];

/** Module-level names the repository defines (declarations at column 0, `export`ed or not, Python module assignments, C and C++ forms). */
export function repositoryDefinitions(repo: Repo): Set<string> {
  const out = new Set<string>();
  const decl = /^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:def|class|function\*?|const|let|var|interface|type|enum|namespace)\s+([A-Za-z_$][\w$]*)/;
  for (const f of repo.files) {
    const cFamily = C_FAMILY_FILE.test(f.relPath);
    f.lines.forEach((line, i) => {
      const m = line.match(decl) ?? line.match(/^([A-Za-z_][\w]*)\s*(?::[^=]*)?=[^=]/);
      if (m) out.add(m[1]);
      // Not inside a macro's body (`#define RB_HEAD(name, type) \` then `struct name {  \`).
      if (cFamily && !/\\\s*$/.test(f.lines[i - 1] ?? '')) for (const re of C_DEFINITIONS) { const c = line.match(re); if (c) out.add(c[1]); }
    });
  }
  return out;
}

/**
 * Per language, the operators after which a name is a member or a path segment, qualified by what
 * precedes it (checked itself): `.` everywhere, `::` in Rust and C++ (`Duration::ZERO`), `->` in C
 * and C++ (`req->data`). Not `->` in Python, where a return annotation follows it.
 */
const QUALIFIED_AFTER: Record<string, RegExp> = {
  rust: /(?:\.|::)\s*$/, cpp: /(?:\.|::|->)\s*$/, c: /(?:\.|->)\s*$/,
};
const MEMBER_AFTER = /\.\s*$/;

/** C, C++ and Java declarations: `Type name` before `;`, `=`, `,`, `[`, `(`, `)` or the line's end binds `name` (`UCHAR PathBuffer[1];`, `void setUp() {`,
 * `char *p`; not `flags & MASK`). */
const C_DECLARATION = /\b([A-Za-z_]\w*)(?:\s*<[^<>;()]*>)?(?:\s+[*&]+(?=[A-Za-z_])|[*&]+\s+|\s+)\**([A-Za-z_]\w*)\s*(?=[;=,)[(]|$)/gm;
/** Words that precede an expression, never a type (`return x;`). */
const NOT_A_TYPE = new Set(['return', 'case', 'goto', 'else', 'throw', 'delete', 'new', 'sizeof', 'do', 'co_return', 'co_yield', 'yield', 'co_await', 'typeof', 'not', 'and', 'or']);
const C_DECLARING = new Set(['c', 'cpp', 'java']);

/** Names the suggestion's C, C++ or Java declarations bind. */
export function declaredNames(code: string, language: string): string[] {
  if (!C_DECLARING.has(language)) return [];
  const out: string[] = [];
  for (const m of code.matchAll(C_DECLARATION)) if (!NOT_A_TYPE.has(m[1])) out.push(m[2]);
  return out;
}

/**
 * Names a suggestion uses that nothing binds at the cursor: identifiers outside strings and
 * comments, not a member or path segment (`.name`; `::name`, `->name` where the language has them), a keyword argument or key (`name=`, `name:`), a keyword, or a
 * name the suggestion binds itself (C-family declarations included); bound are the edited file's identifiers (left and right
 * context), the repository's module-level definitions and the language's builtins.
 */
export function unboundNames(suggestion: string, typedLine: string, fileText: string, repoDefs: ReadonlySet<string>, language: string): string[] {
  const python = language === 'python';
  const keywords = keywordsOf(language);
  const builtins = builtinNames(language);
  const inFile = new Set(fileText.match(IDENT) ?? []);
  const whole = typedLine + suggestion;
  const own = boundNames(whole);
  for (const m of whole.matchAll(/\b(?:def|class|function|interface|type|enum)\s+([A-Za-z_$][\w$]*)/g)) own.add(m[1]);
  const code = codeOnly(whole, python);
  for (const n of declaredNames(code, language)) own.add(n);
  const qualified = QUALIFIED_AFTER[language] ?? MEMBER_AFTER;
  const out: string[] = [];
  for (const m of code.matchAll(IDENT)) {
    const at = m.index!, name = m[0];
    if (at < typedLine.length && at + name.length < typedLine.length) continue; // typed by the user
    if (/[\w$]/.test(code[at - 1] ?? '') || qualified.test(code.slice(Math.max(0, at - 4), at))) continue;
    const after = code.slice(at + name.length).match(/^\s*(\S\S?)/)?.[1] ?? '';
    if ((after[0] === '=' && after !== '==' && after !== '=>') || (after[0] === ':' && after !== '::')) continue;
    if (/^\d/.test(name) || keywords.has(name) || own.has(name) || inFile.has(name) || repoDefs.has(name) || builtins?.has(name)) continue;
    if (!out.includes(name)) out.push(name);
  }
  return out;
}
