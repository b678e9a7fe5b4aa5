// C++ libraries wrap declarations in macros the parser cannot read (`FMT_CONSTEXPR auto f()`,
// `class FMT_API pipe`, `FMT_BEGIN_NAMESPACE` for `namespace fmt { inline namespace v12 {`): the
// tree loses namespaces and classes to error recovery. Before parsing for cpp.ts, the uses of
// object-like macros the file's include graph defines are replaced in place, each by text no longer
// than its name (so every position stays): an attribute-like macro (empty, keywords, `__attribute__`,
// `__declspec`, `[[…]]`, other such macros) by spaces, a namespace opener by its named namespaces
// (inline namespaces are transparent to lookup), a closer by as many braces as those openers open.
// A function-like macro that expands to attributes or pragmas (`FMT_PRAGMA_CLANG(…)`,
// `class FMT_SO_VISIBILITY("default") format_error`) is replaced with its arguments by spaces; one
// that expands to a defaulted template parameter (`FMT_ENABLE_IF(…)` → `enable_if_t<…, int> = 0`) by
// `int=0`; an object-like one whose definitions are nothing or extra parameters (`, monostate`) by
// spaces; exception macros (`FMT_TRY`, `JSON_CATCH(e)`) by `try` and `catch(...)`; a template header
// (`NLOHMANN_BASIC_JSON_TPL_DECLARATION` → `template<…>`) by spaces: the class after it reads whole;
// an access label's (`JSON_PRIVATE_UNLESS_TESTED` → `public` or `private`) by its first.
const DEFINE = /^[ \t]*#[ \t]*define[ \t]+(\w+)(?![\w(])((?:[^\n\\]|\\\n|\\)*)/gm;
const DEFINE_FUNCTION = /^[ \t]*#[ \t]*define[ \t]+(\w+)\(([^)\n]*)\)((?:[^\n\\]|\\\n|\\)*)/gm;
/** Function-like macros are keyed by their name and `(`. */
const CALL = '(';
/** Between a function-like macro's definitions in one file. */
const ALTERNATIVE = '\u0001';
/** How far a blanked macro's argument list may run. */
const MAX_ARGS_CHARS = 2000;
const ATTRIBUTE_WORDS = new Set(['constexpr', 'consteval', 'constinit', 'inline', 'static', 'noexcept', 'explicit', 'virtual', 'extern', 'const', 'volatile', 'thread_local', 'friend', '__forceinline', '__inline', '__cdecl', '__stdcall', '__restrict', 'nodiscard']);
/** A defaulted template parameter (`fmt::enable_if_t<(…), int> = 0`), as a macro's whole expansion. */
const DEFAULTED_PARAMETER = /^[\w:]+\s*<[^;{}]*>\s*=\s*\w+$/;
/** What a call of a macro expanding to a defaulted template parameter becomes: one of the same shape. */
const TEMPLATE_PARAMETER = 'int=0';
const ACCESS = /^(public|protected|private)$/;
/** A whole template header as a macro's expansion (`template<class T, template<typename> class A>`). */
const TEMPLATE_HEADER = /^template\s*<[^;{}]*>$/;
const ATTRIBUTE_CALL = /(__attribute__|__declspec|alignas|_Pragma|__pragma)\s*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)|\[\[[^\]]*\]\]/g;

/** Macro definitions in `text`: name → replacement text, comments and continuations removed; function-like ones as `NAME(`, their parameters blanked in the text. */
export function objectMacros(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const clean = (v: string): string => v.replace(/\\\n/g, ' ').replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/.*$/, '').trim();
  // An object-like macro's first definition in the file, then its others (read only for FMT_BUILTIN's kind).
  for (const m of text.matchAll(DEFINE)) out.set(m[1], out.has(m[1]) ? out.get(m[1])! + ALTERNATIVE + clean(m[2]) : clean(m[2]));
  for (const m of text.matchAll(DEFINE_FUNCTION)) {
    const params = m[2].split(',').map((p) => p.trim()).filter((p) => /^\w+$/.test(p));
    const value = params.length ? clean(m[3]).replace(new RegExp(`#*\\b(${params.join('|')})\\b`, 'g'), ' ') : clean(m[3]);
    // Every definition (`#ifdef FMT_DOC` may define one empty): each must be an attribute's for its uses to go.
    const key = m[1] + CALL;
    out.set(key, (out.has(key) ? out.get(key)! + ALTERNATIVE : '') + value.replace(/__VA_ARGS__/g, ' '));
  }
  return out;
}

/** `text` less the calls of the function-like macros `attribute` holds (`NAME(`). */
const withoutCalls = (text: string, attribute: ReadonlySet<string>): string => text.replace(/\b(\w+)\s*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)/g, (m, name: string) => (attribute.has(name + CALL) ? ' ' : m));

/** What each macro's use is replaced by (by name), from the definitions the include graph holds. */
export function blankings(defs: ReadonlyArray<Map<string, string>>): Map<string, string> {
  const all = new Map<string, string[]>();
  const every = new Map<string, string[]>();
  for (const d of defs) {
    for (const [k, v] of d) {
      const alternatives = v.split(ALTERNATIVE);
      all.set(k, [...(all.get(k) ?? []), ...(k.endsWith(CALL) ? alternatives : alternatives.slice(0, 1))]);
      every.set(k, [...(every.get(k) ?? []), ...alternatives]);
    }
  }
  const attribute = new Set<string>();
  // An attribute-like macro may be built of others (`FMT_INLINE` → `FMT_ALWAYS_INLINE`): a few rounds.
  for (let round = 0; round < 3; round++) {
    for (const [name, values] of all) {
      if (values.every((v) => withoutCalls(v.replace(ATTRIBUTE_CALL, ' '), attribute).split(/\s+/).every((w) => !w || ATTRIBUTE_WORDS.has(w) || attribute.has(w)))) attribute.add(name);
    }
  }
  const out = new Map<string, string>();
  let inlineOpened = 0;
  for (const [name, values] of all) {
    if (attribute.has(name) || (!name.endsWith(CALL) && values.every((v) => TEMPLATE_HEADER.test(v)))) out.set(name, '');
    else if (name.endsWith(CALL) && values.every((v) => !v.trim() || DEFAULTED_PARAMETER.test(v.trim())) && values.some((v) => v.trim())) out.set(name, TEMPLATE_PARAMETER);
    // `FMT_TRY {…} FMT_CATCH(…) {…}` (`if (true)`/`if (false)` where exceptions are off): the try-catch reads whole.
    else if (!name.endsWith(CALL) && values[0] === 'try') out.set(name, 'try');
    // `JSON_PRIVATE_UNLESS_TESTED:` (`public` or `private` by a build option): an access label either way.
    else if (!name.endsWith(CALL) && every.get(name)!.every((v) => ACCESS.test(v)) && values[0].length <= name.length) out.set(name, values[0]);
    else if (name.endsWith(CALL) && /^catch\s*\(\s*\)$/.test(values[0])) out.set(name, 'catch(...)');
    // `value(unsigned char x FMT_BUILTIN)` with `, monostate` or nothing: the parse reads the same without it.
    else if (!name.endsWith(CALL) && ((vs) => vs.some((v) => !v) && vs.every((v) => !v || v.startsWith(',')))(every.get(name)!)) out.set(name, '');
    const v = values[0];
    if (name.endsWith(CALL) || values.length !== 1 || !/^(inline\s+)?namespace\b/.test(v) || v.includes(';')) continue;
    const named = [...v.matchAll(/(?<!inline\s+)namespace\s+(\w+)\s*\{/g)].map((m) => `namespace ${m[1]} {`).join(' ');
    inlineOpened = Math.max(inlineOpened, (v.match(/inline\s+namespace/g) ?? []).length);
    if (named && named.length <= name.length) out.set(name, named);
  }
  for (const [name, values] of all) {
    const v = values[0];
    if (!name.endsWith(CALL) && values.length === 1 && /^[\s}]+$/.test(v)) out.set(name, '}'.repeat(Math.max(0, (v.match(/\}/g) ?? []).length - inlineOpened)));
  }
  return out;
}

/**
 * `unsigned(x)`, a functional cast the grammar reads as a declaration in a condition (`if (unsigned(id) < n)`),
 * whose error then swallows fmt's base.h whole: written as a call of the same length.
 */
const UNSIGNED_CAST = /\bunsigned\(/g;

/** `text` with the uses of `macros` replaced in place (outside `#` lines), its length and line breaks kept. */
export function blankMacros(source: string, macros: ReadonlyMap<string, string>): string {
  const text = source.replace(UNSIGNED_CAST, 'unsigne_(');
  let directive = false;
  let body = false;
  const out = text.split('\n').map((line) => {
    const first = !directive && /^[ \t]*#/.test(line);
    const inDirective = directive || first;
    const comments = (l: string): string => l.replace(/\/\*.*?\*\//g, (c) => ' '.repeat(c.length));
    // A comment in a continued function-like #define ends the grammar's reading of it (`[] { \` then `/* … */ \`):
    // blanked. Object-like ones (`#define FIELDS \` then `/* public */ \`) are left as they are: C headers' fields.
    const read = directive && body ? comments(line) : line;
    if (inDirective) body = (!first && body) || (first && /^[ \t]*#[ \t]*define[ \t]+\w+\(/.test(line));
    directive = inDirective && /\\\s*$/.test(line); // continued on the next line
    if (inDirective) return read;
    return line.replace(/\b[A-Z_][A-Z0-9_]{2,}\b/g, (m) => ((r) => (r === undefined ? m : r.padEnd(m.length, ' ')))(macros.get(m)));
  }).join('\n');
  return [...macros.keys()].some((k) => k.endsWith(CALL)) ? blankCalls(out, macros) : out;
}

/** The calls of function-like attribute macros (outside `#` lines) blanked with their arguments, line breaks kept. */
function blankCalls(text: string, macros: ReadonlyMap<string, string>): string {
  const parts: string[] = [];
  let from = 0;
  for (const m of text.matchAll(/\b([A-Z_][A-Z0-9_]{2,})[ \t]*\(/g)) {
    if (m.index < from || !macros.has(m[1] + CALL) || /^[ \t]*#/.test(text.slice(text.lastIndexOf('\n', m.index) + 1, m.index))) continue;
    let depth = 0;
    let end = -1;
    for (let i = m.index + m[0].length - 1; i < text.length && i < m.index + MAX_ARGS_CHARS; i++) {
      if (text[i] === '(') depth++;
      else if (text[i] === ')' && --depth === 0) {
        end = i + 1;
        break;
      }
    }
    if (end < 0) continue;
    const blank = text.slice(m.index, end).replace(/[^\n]/g, ' ');
    const value = macros.get(m[1] + CALL) ?? '';
    const by = value.length <= blank.length && !blank.slice(0, value.length).includes('\n') ? value : '';
    parts.push(text.slice(from, m.index), by + blank.slice(by.length));
    from = end;
  }
  return parts.length ? parts.join('') + text.slice(from) : text;
}
