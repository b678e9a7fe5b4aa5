// What features share through the context about completions: the record of what the last one was
// built from, why the last request showed none, and the switches that gate requests. Declared here,
// apart from the features that implement them, so ctx.ts depends on no feature module.
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

/** What features ask of the completion switches (features/completionControl.ts implements it). */
export interface CompletionSwitches {
  /** Fires when the snooze, the toggle or a language switch changes. */
  readonly onDidChange: vscode.Event<void>;
  /** The last request's outcome (a suggestion, or why none). */
  readonly lastOutcome: CompletionOutcome | undefined;
  /** Whole minutes of snooze left (rounded up), or 0. */
  snoozeMinutesLeft(): number;
  /** Whether a request here is refused (off, snoozed, off for the language); records why. */
  gate(doc: vscode.TextDocument, pos: vscode.Position): boolean;
  /** Why requests in this language are refused now (off, snoozed, off for the language), without recording it. */
  blocked(languageId: string): { reason: NoSuggestionReason; detail: string } | undefined;
  /** The built-in source found code to continue from but declined, and why. */
  noteAbstention(file: string, line: number, why: string): void;
  /** Tells listeners (the status bar) that something behind the gate changed (Copilot activated). */
  refresh(): void;
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
