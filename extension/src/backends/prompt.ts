// Builds a fill-in-the-middle prompt for a code model: retrieved snippets (each labelled with its
// file path, as comments of the current language) followed by the current file's prefix. The
// suffix travels separately (`suffix` field of /v1/completions and /api/generate).
// vscode-free so it can be unit tested.
import type { EditorState, RetrievedChunk } from '../../../engine/src/types';

/** Same rule as the engine's budgets: about 4 characters per token. */
export const CHARS_PER_TOKEN = 4;

export interface PromptBudget {
  /** Tokens for retrieved snippets (headers included). */
  contextTokens: number;
  /** Tokens for the current file's text before the cursor. */
  prefixTokens: number;
  /** Tokens for the text after the cursor. */
  suffixTokens?: number;
}

export interface BuiltPrompt {
  prompt: string;
  suffix: string;
  /** The snippets that fit the budget, in prompt order. */
  used: RetrievedChunk[];
}

const HASH_COMMENT = new Set(['python', 'shellscript', 'ruby', 'perl', 'r', 'yaml', 'toml', 'dockerfile', 'makefile', 'coffeescript', 'julia', 'elixir']);
const DASH_COMMENT = new Set(['sql', 'lua', 'haskell']);

/** The line-comment marker of a VS Code language id. */
export function lineComment(languageId: string | undefined): string {
  if (languageId && HASH_COMMENT.has(languageId)) return '#';
  if (languageId && DASH_COMMENT.has(languageId)) return '--';
  return '//';
}

function commented(text: string, marker: string): string {
  return text
    .split('\n')
    .map((l) => (l.length ? `${marker} ${l}` : marker))
    .join('\n');
}

export function buildPrompt(state: EditorState, snippets: RetrievedChunk[], budget: PromptBudget): BuiltPrompt {
  const marker = lineComment(state.language);
  const maxPrefix = budget.prefixTokens * CHARS_PER_TOKEN;
  // Keep the prefix's most recent part, starting at a line boundary.
  let prefix = state.prefix;
  if (prefix.length > maxPrefix) {
    prefix = prefix.slice(prefix.length - maxPrefix);
    const nl = prefix.indexOf('\n');
    if (nl >= 0 && nl < prefix.length - 1) prefix = prefix.slice(nl + 1);
  }
  const maxSuffix = (budget.suffixTokens ?? Math.ceil(budget.prefixTokens / 4)) * CHARS_PER_TOKEN;
  const suffix = (state.suffix ?? '').slice(0, maxSuffix);

  let remaining = budget.contextTokens * CHARS_PER_TOKEN;
  const blocks: string[] = [];
  const used: RetrievedChunk[] = [];
  for (const chunk of snippets) {
    if (chunk.file === state.file && prefix.includes(chunk.text)) continue; // already in view
    const header = `${marker} Path: ${chunk.file} (lines ${chunk.startLine + 1}-${chunk.endLine + 1})`;
    const block = `${header}\n${commented(chunk.text, marker)}\n`;
    if (block.length > remaining) continue; // a smaller, lower-ranked snippet may still fit
    blocks.push(block);
    used.push(chunk);
    remaining -= block.length;
  }
  const intro = used.length ? `${marker} Code from elsewhere in this repository:\n` : '';
  const prompt = `${intro}${blocks.join('')}${marker} Path: ${state.file}\n${prefix}`;
  return { prompt, suffix, used };
}

/**
 * Trims a raw model continuation so it fits the cursor: drops text the suffix already holds,
 * stops at the first blank line after code (one block at a time), and trims trailing whitespace.
 */
export function cleanCompletion(raw: string, suffix: string): string {
  let text = raw.replace(/\r\n/g, '\n');
  const blank = text.search(/\n[ \t]*\n/);
  if (blank > 0) text = text.slice(0, blank);
  // Models often close the block the suffix already closes: drop a trailing copy of the suffix's next line.
  const suffixLine = suffix.split('\n').find((l) => l.trim().length > 0)?.trim();
  if (suffixLine) {
    const trimmed = text.trimEnd();
    if (trimmed.endsWith(suffixLine) && trimmed.length > suffixLine.length) text = trimmed.slice(0, trimmed.length - suffixLine.length);
  }
  return text.trimEnd();
}
