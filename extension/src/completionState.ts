// The records features keep about completions (recorder.ts holds them): what the last one was built
// from, why the last request showed none, what Copilot was given. Declared apart from the features
// that write them, so ctx.ts and recorder.ts import no feature that imports ctx.ts.
import type * as vscode from 'vscode';
import type { HypothesisOutcome } from './backends/hypothetical';
import type { CompletionBackendKind } from './config';
import type { RetrievedChunk } from '../../engine/src/public';

export interface RetrievedContextRecord {
  time: Date;
  folder: vscode.Uri;
  file: string;
  line: number;
  backend: CompletionBackendKind;
  /** Snippets placed in the model prompt (model backends). */
  snippets: RetrievedChunk[];
  /** The chunk the built-in completion was taken from. */
  source?: { file: string; startLine: number; endLine: number };
  prompt?: string;
  completion: string;
  latencyMs: number;
  confidence?: number;
  /** Hypothetical-code expansion: the guess searched with the prefix, or why there was none. */
  hypothesis?: HypothesisOutcome;
}

export type NoSuggestionReason = 'completions off' | 'snoozed' | 'language disabled' | 'context for Copilot' | 'not indexed' | 'cancelled' | 'backend timeout' | 'abstained' | 'no match';

export interface CompletionOutcome {
  time: Date;
  file: string;
  line: number;
  languageId: string;
  /** Undefined when a suggestion was shown. */
  reason?: NoSuggestionReason;
  detail?: string;
}

/** One item Copilot was given, and what Copilot later reported doing with it. */
export interface CopilotItemRecord {
  id: string;
  file: string;
  startLine: number;
  endLine: number;
  importance: number;
  /** Other files holding a copy of the same code. */
  copies: number;
}

/** What the last Copilot context request got (features/copilotContext.ts), for Show Retrieved Context. */
export interface CopilotContextRecord {
  time: Date;
  file: string;
  line: number;
  /** Who asked: Copilot's completions, or its next-edit suggestions ('nes'). */
  source: string;
  budgetMs: number;
  /** ready (prefetched), waited (for the prefetch), asked (no prefetch), or why nothing: timeout, cancelled, failed, untrusted... */
  answer: string;
  items: CopilotItemRecord[];
  /** What Copilot reported about the items of the request before this one. */
  previousUsage?: { usage: string; resolution: string; items: Array<{ id: string; usage: string; file?: string; startLine?: number; endLine?: number; expectedTokens?: number; actualTokens?: number }> };
}
