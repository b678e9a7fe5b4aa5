// Which languages the chunker parses, how files map to them, and the per-grammar facts the
// generic chunking code needs (wrappers, comment syntax). Definitions/calls/imports themselves
// come from the query files in grammars/queries/<grammar>.scm.
import type { LanguageId } from '../types';

export type GrammarName = 'typescript' | 'tsx' | 'javascript' | 'python' | 'go' | 'java' | 'rust' | 'c' | 'cpp';

export interface GrammarSpec {
  name: GrammarName;
  /**
   * Node types that wrap a definition and belong to it: `export function f`, Python decorators,
   * C++ `template <...>`. The definition's range grows to the wrapper's; wrappers listed in
   * `signatureWrappers` also start the signature (decorators do not).
   */
  wrappers: ReadonlySet<string>;
  signatureWrappers: ReadonlySet<string>;
  /** Lines directly above a definition that are part of it (comments, decorators, attributes). */
  attachedLine: RegExp;
  /** Python-style docstrings: first string statement of the body. */
  docstrings: boolean;
}

const cLikeAttached = /^\s*(\/\/|\/\*|\*|@[A-Za-z_])/;

const ecmascript = (name: GrammarName): GrammarSpec => ({
  name,
  wrappers: new Set(['export_statement']),
  signatureWrappers: new Set(['export_statement']),
  attachedLine: cLikeAttached,
  docstrings: false,
});

export const GRAMMARS: Readonly<Record<GrammarName, GrammarSpec>> = {
  typescript: ecmascript('typescript'),
  tsx: ecmascript('tsx'),
  javascript: ecmascript('javascript'),
  python: {
    name: 'python',
    wrappers: new Set(['decorated_definition']),
    signatureWrappers: new Set(),
    // `#` comments; `@decorator` lines are covered by decorated_definition already.
    attachedLine: /^\s*#(?!!)/,
    docstrings: true,
  },
  go: {
    name: 'go',
    wrappers: new Set(['type_declaration']),
    signatureWrappers: new Set(['type_declaration']),
    attachedLine: /^\s*(\/\/|\/\*|\*)/,
    docstrings: false,
  },
  java: {
    name: 'java',
    wrappers: new Set(),
    signatureWrappers: new Set(),
    attachedLine: cLikeAttached,
    docstrings: false,
  },
  rust: {
    name: 'rust',
    wrappers: new Set(),
    signatureWrappers: new Set(),
    // `///` docs, `//` comments, `#[attr]` attributes.
    attachedLine: /^\s*(\/\/|\/\*|\*|#\[|#!\[)/,
    docstrings: false,
  },
  c: {
    name: 'c',
    wrappers: new Set(),
    signatureWrappers: new Set(),
    attachedLine: /^\s*(\/\/|\/\*|\*)/,
    docstrings: false,
  },
  cpp: {
    name: 'cpp',
    wrappers: new Set(['template_declaration']),
    signatureWrappers: new Set(['template_declaration']),
    attachedLine: /^\s*(\/\/|\/\*|\*|\[\[)/,
    docstrings: false,
  },
};

/** VS Code language id -> grammar used to parse it. */
const GRAMMAR_OF_LANGUAGE: Readonly<Record<string, GrammarName>> = {
  typescript: 'typescript',
  typescriptreact: 'tsx',
  javascript: 'javascript',
  javascriptreact: 'javascript', // the JavaScript grammar parses JSX
  python: 'python',
  go: 'go',
  java: 'java',
  rust: 'rust',
  c: 'c',
  cpp: 'cpp',
};

/** The VS Code language ids the engine parses with a grammar (the others are cut into line windows). */
export const PARSED_LANGUAGES: readonly LanguageId[] = Object.keys(GRAMMAR_OF_LANGUAGE);

/** File extension (lower case, with dot) -> VS Code language id, for parsed and window-only languages. */
export const LANGUAGE_OF_EXTENSION: Readonly<Record<string, LanguageId>> = {
  '.ts': 'typescript', '.mts': 'typescript', '.cts': 'typescript',
  '.tsx': 'typescriptreact',
  '.js': 'javascript', '.mjs': 'javascript', '.cjs': 'javascript',
  '.jsx': 'javascriptreact',
  '.py': 'python', '.pyi': 'python', '.pyw': 'python',
  '.go': 'go',
  '.java': 'java',
  '.rs': 'rust',
  '.c': 'c', '.h': 'c',
  '.cc': 'cpp', '.cpp': 'cpp', '.cxx': 'cpp', '.c++': 'cpp', '.hpp': 'cpp', '.hh': 'cpp', '.hxx': 'cpp',
  '.h++': 'cpp', '.ipp': 'cpp', '.inl': 'cpp', '.tpp': 'cpp',
  // Window-only languages (no grammar shipped): named so results and stats say what they are.
  '.md': 'markdown', '.markdown': 'markdown', '.rst': 'restructuredtext', '.txt': 'plaintext',
  '.json': 'json', '.jsonc': 'jsonc', '.yaml': 'yaml', '.yml': 'yaml', '.toml': 'toml', '.ini': 'ini',
  '.sh': 'shellscript', '.bash': 'shellscript', '.zsh': 'shellscript', '.ps1': 'powershell',
  '.rb': 'ruby', '.php': 'php', '.cs': 'csharp', '.kt': 'kotlin', '.kts': 'kotlin', '.swift': 'swift',
  '.scala': 'scala', '.lua': 'lua', '.dart': 'dart', '.r': 'r', '.m': 'objective-c', '.mm': 'objective-cpp',
  '.html': 'html', '.htm': 'html', '.css': 'css', '.scss': 'scss', '.less': 'less', '.vue': 'vue',
  '.svelte': 'svelte', '.sql': 'sql', '.xml': 'xml', '.proto': 'proto3', '.graphql': 'graphql',
  '.cfg': 'ini', '.ipynb': 'json',
};

export function languageOfPath(relPath: string): LanguageId | undefined {
  const slash = relPath.lastIndexOf('/');
  const base = relPath.slice(slash + 1).toLowerCase();
  if (base === 'dockerfile') return 'dockerfile';
  if (base === 'makefile') return 'makefile';
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return undefined;
  return LANGUAGE_OF_EXTENSION[base.slice(dot)];
}

export function grammarOf(language: LanguageId | undefined): GrammarName | undefined {
  return language === undefined ? undefined : GRAMMAR_OF_LANGUAGE[language];
}

/**
 * `.h` is C or C++ by what it holds: C++ headers (fmt's `include/fmt/*.h`, most C++ libraries)
 * parsed with the C grammar lose their classes, templates and namespaces to error recovery. A
 * header that uses C++-only syntax is C++; anything else stays C.
 */
const CPP_ONLY = /^\s*(?:namespace\s+[A-Za-z_]\w*\s*\{|template\s*<|using\s+namespace\b|(?:public|private|protected)\s*:|class\s+[A-Za-z_]\w*[^;()]*\{)|\b(?:constexpr|nullptr|static_cast|decltype|noexcept)\b|\bstd::/m;

export function refineLanguage(relPath: string, content: string, language: LanguageId | undefined): LanguageId | undefined {
  if (language !== 'c' || !/\.h$/i.test(relPath)) return language;
  return CPP_ONLY.test(content) ? 'cpp' : language;
}

/**
 * A `.h` whose C++ is all inside `#ifdef __cplusplus` blocks (libuv's `uv.h`: an `extern "C++"`
 * wrapper): a C header, though its C++ blocks make the chunker parse it as C++ (which reads its
 * `extern "C" {` better than the C grammar does). Its names resolve as C (resolve/includes.ts).
 */
export function isCHeaderForCpp(relPath: string, content: string): boolean {
  return /\.h$/i.test(relPath) && !CPP_ONLY.test(withoutCplusplusBlocks(content));
}

const CPLUSPLUS_IF = /^[ \t]*#[ \t]*if(?:def[ \t]+__cplusplus\b|[ \t]+defined[ \t]*\(?[ \t]*__cplusplus\b)/;
const PP_IF = /^[ \t]*#[ \t]*if/;
const PP_ENDIF = /^[ \t]*#[ \t]*endif\b/;

/** A C header's text without its `#ifdef __cplusplus` blocks (`extern "C" {`, a C++ wrapper): what a C compiler reads. */
function withoutCplusplusBlocks(content: string): string {
  if (!content.includes('__cplusplus')) return content;
  const out: string[] = [];
  let depth = 0;
  for (const line of content.split('\n')) {
    if (depth === 0 && CPLUSPLUS_IF.test(line)) depth = 1;
    else if (depth > 0 && PP_IF.test(line)) depth++;
    else if (depth > 0 && PP_ENDIF.test(line)) depth--;
    else if (depth === 0) out.push(line);
  }
  return out.join('\n');
}
