// Entry point. activate() wires every feature to one Ctx, which owns all disposables.
import * as vscode from 'vscode';
import type { RetrievedChunk } from '../../engine/src/public';
import { Ctx, type FolderReport } from './ctx';
import { config } from './config';
import { editorState } from './editorState';
import { registerCommands } from './features/commands';
import { registerCopilotContext } from './features/copilotContext';
import type { CopilotContextRecord } from './completionState';
import { registerDetectServer } from './features/detectServer';
import { explainOutcomes, registerCompletionControl, type CompletionOutcome } from './features/completionControl';
import { findRelated, registerFindRelated, type RelatedView } from './features/findRelated';
import { registerHover, type HoverTiming } from './features/hover';
import { registerIndexSync } from './features/indexSync';
import { registerInlineCompletions } from './features/inlineCompletion';
import { registerShowContext, type RetrievedContextRecord } from './features/retrievedContext';
import { registerStatusBar } from './features/statusBar';
import { registerWarmUp } from './features/warmUp';
import { registerTeamIndex } from './features/teamIndex';
import { registerAgentTools } from './features/agentTools';

/** What activate() returns: used by the integration tests, and by other extensions if they want. */
export interface RepoRecallApi {
  whenReady(): Promise<FolderReport[]>;
  report(): FolderReport[];
  findRelated(doc: vscode.TextDocument, pos: vscode.Position): Promise<RetrievedChunk[]>;
  /** Results the last Find Related Code QuickPick showed. */
  lastRelatedShown(): RetrievedChunk[] | undefined;
  lastCompletionContext(): RetrievedContextRecord | undefined;
  /** Query the index of the folder holding `uri`. */
  retrieve(uri: vscode.Uri, query: string, k?: number): Promise<RetrievedChunk[]>;
  readonly inlineCompletionProvider: vscode.InlineCompletionItemProvider;
  /** Title, rows and timing of the last Find Related Code QuickPick. */
  lastRelatedView(): RelatedView | undefined;
  /** Lists the copies of row `index` of the open Find Related Code QuickPick (its row button does the same). */
  expandRelatedCopies(index: number): boolean;
  /** Status bar texts shown so far, latest last. */
  statusHistory(): string[];
  /** The last inline completion request's outcome: shown, or why not. */
  lastCompletionOutcome(): CompletionOutcome | undefined;
  lastHoverTiming(): HoverTiming | undefined;
  /** What the last Copilot context request got, and what Copilot said it used of the one before. */
  lastCopilotContext(): CopilotContextRecord | undefined;
  /** The Copilot extension RepoRecall's context provider is registered with, if any. */
  copilotProviderHost(): string | undefined;
  /** Whether the context for Copilot at this document version and cursor is computed. */
  copilotContextReady(doc: vscode.TextDocument, pos: vscode.Position): boolean;
  /** The context a model backend's prompt would be built from here (the engine's packed excerpts, in rank order). */
  retrieveContext(doc: vscode.TextDocument, pos: vscode.Position): Promise<RetrievedChunk[]>;
}

let ctx: Ctx | undefined;

export function activate(context: vscode.ExtensionContext): RepoRecallApi {
  const c = new Ctx(context);
  ctx = c;
  const completions = registerCompletionControl(c);
  c.completions = completions;
  const status = registerStatusBar(c);
  registerCommands(c);
  registerTeamIndex(c);
  registerDetectServer(c);
  const inline = registerInlineCompletions(c);
  explainOutcomes(c, completions, inline);
  const hover = registerHover(c);
  const related = registerFindRelated(c);
  registerShowContext(c);
  const copilot = registerCopilotContext(c);
  registerIndexSync(c);
  registerAgentTools(c, context.extensionPath);
  // For scripts and `npm run bench:ui`: per-request timings, engine time apart (not in the palette).
  c.push(vscode.commands.registerCommand('reporecall.timings', () => c.timings.snapshot()));
  c.startFolders();
  registerWarmUp(c);
  c.log.info(`activated; ${c.allFolders().length} folder(s); workspace ${vscode.workspace.isTrusted ? 'trusted' : 'not trusted: model backends and the team index disabled'}`);
  return {
    whenReady: () => c.whenReady(),
    report: () => c.report(),
    findRelated: async (doc, pos) => (await findRelated(c, doc, new vscode.Selection(pos, pos)))?.chunks ?? [],
    lastRelatedShown: () => related.lastShown(),
    lastCompletionContext: () => c.lastContext,
    retrieve: async (uri, query, k) => {
      const fi = c.folderFor(uri);
      if (!fi) throw new Error(`${uri.toString()} is not in an indexed workspace folder`);
      return fi.client.retrieve(query, { k });
    },
    inlineCompletionProvider: inline,
    lastRelatedView: () => related.lastView(),
    expandRelatedCopies: (i) => related.expandCopies(i),
    statusHistory: () => status.history(),
    lastCompletionOutcome: () => c.completions?.lastOutcome,
    lastHoverTiming: () => hover.lastTiming(),
    lastCopilotContext: () => c.lastCopilot,
    copilotProviderHost: () => copilot.registeredWith,
    copilotContextReady: (doc, pos) => copilot.isReady(doc, doc.offsetAt(pos)),
    retrieveContext: async (doc, pos) => {
      const fi = c.folderFor(doc.uri);
      const rel = fi?.relPath(doc.uri);
      if (!fi || rel === undefined) throw new Error(`${doc.uri.toString()} is not in an indexed workspace folder`);
      return fi.client.retrieve(editorState(doc, pos, rel, c.recentFiles()), { budgetTokens: config.contextTokens() });
    },
  };
}

export async function deactivate(): Promise<void> {
  await ctx?.dispose();
  ctx = undefined;
}
