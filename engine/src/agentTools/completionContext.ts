// completion_context: exactly the context RepoRecall gives a model completing code at a position:
// the completion pipeline's packed retrieval (Engine.retrieve with the token budget, as the
// editor's model backends ask for it: extension/src/features/completionSource.ts).
import { oneBased, showable, type AgentIndex } from './agentIndex';
import { argsObject, checkAborted, DEFAULT_CONTEXT_TOKENS, MAX_CONTEXT_TOKENS, optionalInt } from './limits';
import { filePosition } from './position';

export interface ContextSnippet {
  path: string;
  startLine: number;
  endLine: number;
  symbol?: string;
  kind: string;
  /** The lines packed for the model (blank lines and lines adding no new name dropped). */
  text: string;
}

export interface CompletionContextResult {
  path: string;
  /** The cursor, 1-based. */
  line: number;
  column: number;
  budgetTokens: number;
  /** Tokens the snippets take, at 4 characters a token (the budget's measure). */
  usedTokens: number;
  snippets: ContextSnippet[];
}

export const COMPLETION_CONTEXT_ARGS = ['path', 'line', 'column', 'budget_tokens'] as const;

export async function completionContext(index: AgentIndex, raw: unknown, signal?: AbortSignal): Promise<CompletionContextResult> {
  const input = argsObject(raw, COMPLETION_CONTEXT_ARGS);
  const budgetTokens = optionalInt(input, 'budget_tokens', 1, MAX_CONTEXT_TOKENS) ?? DEFAULT_CONTEXT_TOKENS;
  const at = filePosition(index, input, 'end');
  checkAborted(signal);
  const lines = index.indexedLines(at.path);
  const prefix = [...lines.slice(0, at.line), lines[at.line].slice(0, at.character)].join('\n');
  const suffix = [lines[at.line].slice(at.character), ...lines.slice(at.line + 1)].join('\n');
  const chunks = await index.retrieve({ file: at.path, prefix, suffix, line: at.line }, { budgetTokens, signal });
  const snippets = chunks.filter((c) => showable(index, c.file)).map((c): ContextSnippet => ({ path: c.file, ...oneBased(c), ...(c.name ? { symbol: c.name } : {}), kind: c.kind, text: c.text }));
  const usedTokens = Math.ceil(snippets.reduce((n, s) => n + s.text.length, 0) / 4);
  return { path: at.path, line: at.line + 1, column: at.character + 1, budgetTokens, usedTokens, snippets };
}
