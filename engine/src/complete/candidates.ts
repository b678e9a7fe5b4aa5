// The built-in completion's candidates: whole chunks found by the last non-blank lines before the
// cursor, lexically and, where the index has it, by normalised structure (lexical/normalize.ts),
// each with its file's lines; and the index's idf, by which builtin.ts weighs a suggestion's
// evidence. No embedding: it runs per keystroke.
import type { IndexTables } from '../index/tables';
import { boundNames, normalizedTerms } from '../lexical/normalize';
import { lexicalTerms } from '../lexical/tokenize';
import type { HybridIndex } from '../retrieve/hybrid';
import type { EditorState } from '../types';
import type { CompletionSource } from './lines';

/** Non-blank lines before the cursor that find chunks, and chunks per search. */
export const COMPLETION_QUERY_LINES = 3;
export const COMPLETION_CHUNKS = 16;

/** What the search reads of the index. */
export interface CandidateIndex {
  tables: IndexTables;
  index: HybridIndex;
  linesOf(file: string): string[];
  /** Lines of prefix in the query's window (QueryOptions.windowLines). */
  windowLines: number;
}

export interface Candidates {
  sources: CompletionSource[];
  /** A token's idf in the lexical index (its most specific sub-term's). */
  idf(token: string): number;
}

/** The candidates for the cursor of `state` (lone CRs already LF), or null when no line before it holds code. */
export function completionCandidates(state: EditorState, at: CandidateIndex): Candidates | null {
  const { tables, index } = at;
  const prefixLines = state.prefix.split('\n');
  const typed = prefixLines.pop() ?? '';
  const recent: string[] = [];
  for (let i = prefixLines.length - 1; i >= 0 && recent.length < COMPLETION_QUERY_LINES; i--) if (prefixLines[i].trim()) recent.unshift(prefixLines[i]);
  if (!recent.length) return null;
  const text = [...recent, typed].join('\n');
  // As in retrieve: the current file's chunks around the cursor hold what the user is typing
  // (the editor's own lines are read from `state.prefix` instead).
  const currentFile = tables.paths.find(state.file);
  const windowStart = state.line - at.windowLines;
  const accept = (id: number) => tables.chunks.existsOutside(id, currentFile, windowStart, state.line);
  const ids = new Set<number>();
  for (const h of index.lexical.search(lexicalTerms(text), COMPLETION_CHUNKS, accept)) ids.add(h.id);
  if (index.fields.has('normalized')) {
    const bound = boundNames(prefixLines.slice(-80).join('\n'));
    for (const h of index.normalized.search(normalizedTerms(text, bound), COMPLETION_CHUNKS, accept)) ids.add(h.id);
  }
  const sources: CompletionSource[] = [];
  for (const id of ids) {
    const d = index.get(id);
    if (!d) continue;
    const lines = at.linesOf(d.file);
    sources.push({ file: d.file, lines, from: d.startLine, to: Math.min(d.endLine + 1, lines.length) });
  }
  const idfCache = new Map<string, number>();
  const idf = (token: string): number => {
    let v = idfCache.get(token);
    if (v === undefined) {
      const terms = lexicalTerms(token);
      // A name split into several sub-tokens is also indexed whole (the most specific term).
      v = terms.length === 0 ? 0 : index.lexical.idf(terms[terms.length - 1]);
      idfCache.set(token, v);
    }
    return v;
  };
  return { sources, idf };
}
