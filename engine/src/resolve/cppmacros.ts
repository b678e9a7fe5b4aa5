// C++ libraries wrap declarations in macros the parser cannot read (`FMT_CONSTEXPR auto f()`,
// `class FMT_API pipe`, `FMT_BEGIN_NAMESPACE` for `namespace fmt { inline namespace v12 {`): the
// tree loses namespaces and classes to error recovery. Before parsing for cpp.ts, the uses of
// object-like macros the file's include graph defines are replaced in place, each by text no longer
// than its name (so every position stays): an attribute-like macro (empty, keywords, `__attribute__`,
// `__declspec`, `[[…]]`, other such macros) by spaces, a namespace opener by its named namespaces
// (inline namespaces are transparent to lookup), a closer by as many braces as those openers open.
const DEFINE = /^[ \t]*#[ \t]*define[ \t]+(\w+)(?![\w(])((?:[^\n\\]|\\\n|\\)*)/gm;
const ATTRIBUTE_WORDS = new Set(['constexpr', 'consteval', 'constinit', 'inline', 'static', 'noexcept', 'explicit', 'virtual', 'extern', 'const', 'volatile', 'thread_local', 'friend', '__forceinline', '__inline', '__cdecl', '__stdcall', '__restrict', 'nodiscard']);
const ATTRIBUTE_CALL = /(__attribute__|__declspec|alignas|_Pragma|__pragma)\s*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)|\[\[[^\]]*\]\]/g;

/** Object-like macro definitions in `text`: name → replacement text, comments and continuations removed. */
export function objectMacros(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(DEFINE)) {
    const value = m[2].replace(/\\\n/g, ' ').replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/.*$/, '').trim();
    if (!out.has(m[1])) out.set(m[1], value);
  }
  return out;
}

/** What each macro's use is replaced by (by name), from the definitions the include graph holds. */
export function blankings(defs: ReadonlyArray<Map<string, string>>): Map<string, string> {
  const all = new Map<string, string[]>();
  for (const d of defs) for (const [k, v] of d) all.set(k, [...(all.get(k) ?? []), v]);
  const attribute = new Set<string>();
  // An attribute-like macro may be built of others (`FMT_INLINE` → `FMT_ALWAYS_INLINE`): a few rounds.
  for (let round = 0; round < 3; round++) {
    for (const [name, values] of all) {
      if (values.every((v) => v.replace(ATTRIBUTE_CALL, ' ').split(/\s+/).every((w) => !w || ATTRIBUTE_WORDS.has(w) || attribute.has(w)))) attribute.add(name);
    }
  }
  const out = new Map<string, string>();
  let inlineOpened = 0;
  for (const [name, values] of all) {
    if (attribute.has(name)) out.set(name, '');
    const v = values[0];
    if (values.length !== 1 || !/^(inline\s+)?namespace\b/.test(v) || v.includes(';')) continue;
    const named = [...v.matchAll(/(?<!inline\s+)namespace\s+(\w+)\s*\{/g)].map((m) => `namespace ${m[1]} {`).join(' ');
    inlineOpened = Math.max(inlineOpened, (v.match(/inline\s+namespace/g) ?? []).length);
    if (named && named.length <= name.length) out.set(name, named);
  }
  for (const [name, values] of all) {
    const v = values[0];
    if (values.length === 1 && /^[\s}]+$/.test(v)) out.set(name, '}'.repeat(Math.max(0, (v.match(/\}/g) ?? []).length - inlineOpened)));
  }
  return out;
}

/** `text` with the uses of `macros` replaced in place (outside `#` lines), its length and line breaks kept. */
export function blankMacros(text: string, macros: ReadonlyMap<string, string>): string {
  if (!macros.size) return text;
  let directive = false;
  return text.split('\n').map((line) => {
    const inDirective = directive || /^[ \t]*#/.test(line);
    directive = inDirective && /\\\s*$/.test(line); // continued on the next line
    if (inDirective) return line;
    return line.replace(/\b[A-Z_][A-Z0-9_]{2,}\b/g, (m) => ((r) => (r === undefined ? m : r.padEnd(m.length, ' ')))(macros.get(m)));
  }).join('\n');
}
