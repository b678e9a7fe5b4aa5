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

export type NoSuggestionReason = 'completions off' | 'snoozed' | 'language disabled' | 'not indexed' | 'cancelled' | 'backend timeout' | 'abstained' | 'no match';

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
}
