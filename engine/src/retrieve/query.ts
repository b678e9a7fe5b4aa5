// Turning an editor state into retrieval queries. The user's prefix is a poor query for what the
// next lines need (SelfRACG's content gap), so several views of it are kept:
//  - `window`:  the longer prefix (lexical recall over everything in view),
//  - `trimmed`: the last few lines (DeepCodeSeek's trimmed window; the dense query),
//  - `intent`:  a comment or docstring right above the cursor (RETROcode's intent-first query),
//  - `identifiers`: names used near the cursor, most recent first (for definition lookup).
import { identifiers } from '../lexical/tokenize';

/** A hypothetical continuation prepared for search: its text, lexical terms, and embedding when dense is on. */
export interface HypotheticalQuery {
  text: string;
  /** The guess's terms that the query window does not already hold (all of them if none is new). */
  terms: string[];
  vector?: Float32Array;
}

/** How much of the prefix each query view takes (defaults and why: PARAMS.md). */
export interface QueryOptions {
  /** Lines of prefix in the lexical window. Default 60. */
  windowLines?: number;
  /** Lines in the trimmed window (dense query, recent-lexical signal). Default 10. */
  trimmedLines?: number;
  /** Lines near the cursor whose identifiers are looked up as definitions. Default 15. */
  identifierLines?: number;
}

export interface RetrievalQuery {
  file: string;
  language?: string;
  window: string;
  trimmed: string;
  intent?: string;
  /** Identifiers near the cursor, most recent first, unique. */
  identifiers: string[];
  /** Module specifiers the current file imports (for the structural rerank; read on first use,
   *  since scanning the whole prefix per keystroke is wasted while the rerank is off). */
  readonly imports: string[];
  /** A prose query's concepts (prose.ts): the lexical signals search these instead of the window's terms. */
  prose?: string[][];
  /** A model's guess at the next lines, when the caller supplied one (the `hyde` signal). */
  hypothetical?: HypotheticalQuery;
}

const IMPORT_SOURCES = [
  /^\s*from\s+([.\w]+)\s+import\b/gm, // python: from a.b import c
  /^\s*import\s+([\w.]+)(?:\s+as\s+\w+)?\s*$/gm, // python: import a.b
  /\bfrom\s+['"]([^'"]+)['"]/g, // ES: import … from 'x'
  /\bimport\s+['"]([^'"]+)['"]/g, // ES: import 'x'
  /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g, // CommonJS
];

/** Module specifiers imported by a source text. */
export function importSources(text: string): string[] {
  const out = new Set<string>();
  for (const re of IMPORT_SOURCES) for (const m of text.matchAll(re)) out.add(m[1]);
  return [...out];
}

const COMMENT_LINE = /^\s*(#|\/\/|\*|\/\*\*?|""")/;

function lastLines(lines: string[], n: number): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1].trim() === '') end--;
  return lines.slice(Math.max(0, end - n), end);
}

/** A comment / docstring block ending at (or one code line above) the cursor, as plain words. */
export function intentBeforeCursor(lines: string[]): string | undefined {
  let i = lines.length - 1;
  while (i >= 0 && lines[i].trim() === '') i--;
  const block: string[] = [];
  while (i >= 0 && COMMENT_LINE.test(lines[i]) && block.length < 12) block.unshift(lines[i--]);
  const text = block.join(' ').replace(/^\s*(#+|\/\/+|\/\*\*?|\*\/?|""")/gm, ' ').replace(/\s+/g, ' ').trim();
  return text.length >= 8 ? text : undefined;
}

export function buildQuery(file: string, prefix: string, opts: QueryOptions = {}, language?: string): RetrievalQuery {
  const lines = prefix.split('\n');
  if (prefix.endsWith('\n')) lines.pop();
  const windowLines = lastLines(lines, opts.windowLines ?? 60);
  const trimmedLines = lastLines(lines, opts.trimmedLines ?? 10);
  const idLines = lastLines(lines, opts.identifierLines ?? 15);
  const seen = new Set<string>();
  const ids: string[] = [];
  const found = identifiers(idLines.join('\n'));
  for (let i = found.length - 1; i >= 0; i--) {
    const id = found[i];
    if (id.length < 3 || seen.has(id) || /^\d/.test(id)) continue;
    seen.add(id);
    ids.push(id);
  }
  let imports: string[] | undefined;
  return {
    file,
    language,
    window: windowLines.join('\n'),
    trimmed: trimmedLines.join('\n'),
    intent: intentBeforeCursor(lines),
    identifiers: ids,
    get imports(): string[] {
      return (imports ??= importSources(prefix));
    },
  };
}

/** Path words that go in front of both documents and queries (CoRet's path prefix). */
export function pathPrefix(file: string): string {
  return `# file: ${file}`;
}
