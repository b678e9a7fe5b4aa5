// search_code: code for a natural-language description or a piece of code, ranked by the same
// fused retrieval as completions (BM25 over identifier sub-tokens, the embedding model, the call
// graph's enrichment), optionally filtered by a path glob and a language.
import { LANGUAGE_OF_EXTENSION, languageOfPath } from '../chunk/languages';
import { lexicalTerms } from '../lexical/tokenize';
import { fileFilter, type FileFilter } from '../retrieve/fileFilter';
import { oneBased, showable, type AgentIndex } from './agentIndex';
import { boundedExcerpt, checkAborted, DEFAULT_RESULTS, fitAnswer, ToolInputError } from './limits';

export interface SearchCodeInput {
  /** What to find: a description in words ("where sessions are refreshed") or code (`refreshToken(user)`). */
  query: string;
  /** Only files matching this gitignore-style glob (`src/**\/*.ts`, `tests/`, `*.py`). */
  path?: string;
  /** Only files of this language: a VS Code language id (`python`, `typescript`) or an extension (`py`, `.ts`). */
  language?: string;
  /** How many results (default DEFAULT_RESULTS, at most MAX_RESULTS). */
  limit?: number;
}

export interface SearchCodeHit {
  path: string;
  /** 1-based, inclusive: the whole chunk (function, method, class, ...). */
  startLine: number;
  endLine: number;
  /** The enclosing symbol (`Class.method`), when the chunk defines one. */
  symbol?: string;
  kind: string;
  language?: string;
  /** The chunk's lines most like the query (at most MAX_EXCERPT_LINES lines, MAX_EXCERPT_CHARS characters). */
  excerpt: string;
  /** Why it matched: each retrieval signal's rank for it (1 = that signal's best), and the query's terms found in it. */
  why: { signals: Record<string, number>; terms: string[] };
}

export interface SearchCodeResult {
  results: SearchCodeHit[];
  /** Results were left out to keep the answer under MAX_ANSWER_CHARS. */
  truncated: boolean;
}

/**
 * Ranked code for `input.query` over an open index: the engine's free-text retrieval (Engine.retrieve)
 * with the path and language filters applied inside it, excerpts bounded and the answer cut to MAX_ANSWER_CHARS.
 * Throws ToolInputError for a bad argument and the signal's AbortError when cancelled.
 * Secrets are not redacted here: runAgentTool (index.ts) redacts every tool's answer.
 */
export async function searchCode(index: AgentIndex, input: SearchCodeInput, signal?: AbortSignal): Promise<SearchCodeResult> {
  const limit = input.limit ?? DEFAULT_RESULTS;
  const language = input.language === undefined ? undefined : languageId(input.language);
  const files = input.path === undefined && language === undefined ? undefined : { glob: input.path, language };
  const inFiles = files && checkedFilter(files);
  checkAborted(signal);
  const hits = await index.retrieve(input.query, { k: limit, compact: false, files, signal, prose: true });
  const queryTerms = new Set(lexicalTerms(input.query));
  const results: SearchCodeHit[] = [];
  for (const h of hits) {
    if (results.length >= limit) break;
    const lang = languageOfPath(h.file);
    if ((inFiles && !inFiles(h.file)) || !showable(index, h.file)) continue;
    const terms = [...new Set(lexicalTerms(h.text))].filter((t) => queryTerms.has(t));
    results.push({
      path: h.file, ...oneBased(h), ...(h.name ? { symbol: h.name } : {}), kind: h.kind, ...(lang ? { language: lang } : {}),
      excerpt: boundedExcerpt(h.text), why: { signals: h.signals, terms },
    });
  }
  const fitted = fitAnswer(results);
  return { results: fitted.items, truncated: fitted.truncated };
}

function checkedFilter(files: FileFilter): (file: string) => boolean {
  try {
    return fileFilter(files);
  } catch (e) {
    throw new ToolInputError(`'path' is not a usable glob: ${(e as Error).message}`);
  }
}

/** A VS Code language id from an id or a file extension; ToolInputError for one the engine does not know. */
export function languageId(asked: string): string {
  const lower = asked.trim().toLowerCase();
  const byExtension = languageOfPath(`x.${lower.replace(/^\./, '')}`);
  if (byExtension) return byExtension;
  if (KNOWN_IDS.has(lower)) return lower;
  throw new ToolInputError(`'language' ${JSON.stringify(asked)} is not a language RepoRecall indexes; give a VS Code language id (python, typescript, go, ...) or a file extension (py, ts, go)`);
}

const KNOWN_IDS = new Set(Object.values(LANGUAGE_OF_EXTENSION));
