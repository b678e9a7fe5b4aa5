// What the features last did, as the test API (extension.ts) and Show Retrieved Context read it:
// one object owned by Ctx, written by the features, so no feature returns state of its own and
// activate() needs no feature's return value. Records and read-only probes only; no behaviour.
import type * as vscode from 'vscode';
import type { RetrievedChunk } from '../../engine/src/public';
import type { CompletionOutcome, CopilotContextRecord, RetrievedContextRecord } from './completionState';
import type { RelatedRow } from './features/relatedRows';

/** How long Find Related Code took: symbolMs the name and its retrieval (one request), retrieveMs the retrieval for the code at the cursor otherwise. */
export interface RelatedTiming {
  symbolMs: number;
  retrieveMs: number;
  totalMs: number;
}

/** What the last Find Related Code QuickPick showed. */
export interface RelatedView {
  title: string;
  items: Array<Pick<vscode.QuickPickItem, 'label' | 'description' | 'detail'>>;
  rows: RelatedRow[];
  timing?: RelatedTiming;
  /** From the command to the list being set (ms). */
  commandMs?: number;
}

export interface HoverTiming {
  /** The engine request (symbol + retrieval), round trip. */
  requestMs: number;
  totalMs: number;
}

/** The Copilot context provider as the API asks about it (features/copilotContext.ts). */
export interface CopilotProbe {
  /** The Copilot extension the provider is registered with, if any. */
  readonly registeredWith: string | undefined;
  /** Whether the context at this document version and offset is computed. */
  isReady(doc: vscode.TextDocument, offset: number): boolean;
}

/** Status bar texts kept (the integration tests read how a build was labelled). */
const STATUS_KEPT = 200;

export class Recorder {
  /** What the last shown completion was built from ("Show Retrieved Context"). */
  completionContext: RetrievedContextRecord | undefined;
  /** The last inline completion request's outcome: shown, or why not. */
  completionOutcome: CompletionOutcome | undefined;
  /** What the last Copilot context request got. */
  copilotContext: CopilotContextRecord | undefined;
  copilot: CopilotProbe | undefined;
  /** The provider VS Code asks for ghost text (the API calls it directly). */
  inlineCompletionProvider: vscode.InlineCompletionItemProvider | undefined;
  hoverTiming: HoverTiming | undefined;
  /** Results the last Find Related Code QuickPick showed, and the list itself. */
  relatedShown: RetrievedChunk[] | undefined;
  relatedView: RelatedView | undefined;
  /** Lists the copies of a row of the open Find Related Code QuickPick; unset while none is open. */
  expandRelatedCopies: ((index: number) => boolean) | undefined;
  private readonly statuses: string[] = [];

  /** Notes a status bar text when it differs from the last one. */
  noteStatus(text: string): void {
    if (this.statuses.at(-1) === text) return;
    this.statuses.push(text);
    if (this.statuses.length > STATUS_KEPT) this.statuses.splice(0, this.statuses.length - STATUS_KEPT);
  }

  /** Status bar texts shown so far, latest last. */
  statusHistory(): string[] {
    return [...this.statuses];
  }
}
