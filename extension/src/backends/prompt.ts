// Builds a fill-in-the-middle prompt for a code model: retrieved snippets (each labelled with its
// file path, as comments of the current language) followed by the current file's prefix. The
// suffix travels separately (`suffix` field of /v1/completions and /api/generate); `parts` carries
// the same content in pieces for backends that lay it out themselves (llama.cpp /infill, raw FIM
// templates). Also the stop rules that cut a model's multi-line answer to the cursor's block.
// vscode-free so it can be unit tested.
import type { EditorState, RetrievedChunk } from '../../../engine/src/public';
import { commentedPrompt } from './fim';
import { indentWidth, type FimParts } from './types';

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
  /** The same prompt in pieces, for backends that lay it out themselves. */
  parts: FimParts;
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

export function buildPrompt(state: EditorState, snippets: RetrievedChunk[], budget: PromptBudget, repoName?: string): BuiltPrompt {
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
  const used: RetrievedChunk[] = [];
  for (const chunk of snippets) {
    if (chunk.file === state.file && prefix.includes(chunk.text)) continue; // already in view
    const header = `${marker} Path: ${chunk.file} (lines ${chunk.startLine + 1}-${chunk.endLine + 1})`;
    const block = `${header}\n${commented(chunk.text, marker)}\n`;
    if (block.length > remaining) continue; // a smaller, lower-ranked snippet may still fit
    used.push(chunk);
    remaining -= block.length;
  }
  const parts: FimParts = {
    context: used.map((c) => ({ filename: c.file, text: c.text, startLine: c.startLine, endLine: c.endLine })),
    file: state.file,
    comment: marker,
    prefix,
    suffix,
    ...(repoName ? { repoName } : {}),
  };
  return { prompt: commentedPrompt(parts), suffix, used, parts };
}

/** Characters that leave a statement open when a line ends with them. */
const CONTINUES = /(?:[,([{=+\-*/%&|^!?:.\\<]|=>|\b(?:and|or|not|in|is|return|await|new|typeof)\s*)$/;

/** Whether `text` (the cursor's line and what the model wrote after it) ends a complete statement: brackets closed, nothing pending at the end. */
export function statementComplete(text: string): boolean {
  let depth = 0;
  for (const line of text.split('\n')) {
    // Strings and line comments do not count.
    const code = line.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""').replace(/(?:\/\/|#(?!\[)).*$/, '');
    for (const ch of code) {
      if (ch === '(' || ch === '[' || ch === '{') depth++;
      else if (ch === ')' || ch === ']' || ch === '}') depth--;
    }
  }
  if (depth > 0) return false;
  const last = text.split('\n').map((l) => l.replace(/\/\/.*$/, '').trim()).filter((l) => l.length > 0).pop() ?? '';
  return !CONTINUES.test(last);
}

/**
 * Trims a raw model continuation to what belongs at the cursor, so a model may write several lines:
 * - it ends with the enclosing block: a line indented less than the cursor's line is not taken;
 * - it ends at a blank line once what was written completes a statement (a blank line inside an
 *   unfinished block or call, or between lines of a body deeper than the cursor's line, is kept);
 * - it ends before a line the suffix already has next (the model re-writing the code after the
 *   cursor), and a copy of the rest of the cursor's line at the end of the first line is dropped;
 * - indentation is kept as written; trailing whitespace goes.
 * `linePrefix` is the cursor's line up to the cursor (its indentation bounds the block).
 */
export function cleanCompletion(raw: string, suffix: string, linePrefix = ''): string {
  const lines = raw.replace(/\r\n/g, '\n').split('\n');
  const base = indentWidth(linePrefix);
  const restOfLine = suffix.split('\n')[0].trim();
  const suffixLine = suffix.split('\n').find((l) => l.trim().length > 0)?.trimEnd();
  const kept: string[] = [lines[0]];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (!line.trim()) {
      // Inside a block deeper than the cursor's line (a body the completion is writing, braces or
      // not), a blank line followed by more of that block does not end it.
      const lastBody = kept.slice(1).reverse().find((l) => l.trim());
      const deeper = lastBody !== undefined ? indentWidth(lastBody) > base : /[:{]\s*$/.test(`${linePrefix}${kept[0]}`);
      const next = lines.slice(i + 1).find((l) => l.trim());
      const blockGoesOn = deeper && next !== undefined && indentWidth(next) > base;
      if (statementComplete(`${linePrefix}${kept.join('\n')}`) && !blockGoesOn) break;
      kept.push(line);
      continue;
    }
    if (indentWidth(line) < base) break; // dedent below the cursor's block: the block is finished
    if (suffixLine && line.trimEnd() === suffixLine) break; // the suffix's next line, written again
    kept.push(line);
  }
  // A copy of what follows the cursor on its line (a closing bracket the editor already has).
  if (restOfLine && kept.length === 1) {
    const first = kept[0].trimEnd();
    if (first.endsWith(restOfLine) && first.length > restOfLine.length) kept[0] = first.slice(0, first.length - restOfLine.length);
  }
  return kept.join('\n').trimEnd();
}
