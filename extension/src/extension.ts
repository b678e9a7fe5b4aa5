// Entry point. activate() registers every feature (FEATURES) on one Ctx, which owns all disposables,
// and returns the API the integration tests read, from the Ctx's recorder.
import * as vscode from 'vscode';
import type { RetrievedChunk } from '../../engine/src/public';
import { Ctx, type FolderReport } from './ctx';
import { config } from './config';
import { editorState } from './editorState';
import type { CompletionOutcome, CopilotContextRecord, RetrievedContextRecord } from './completionState';
import type { HoverTiming, RelatedView } from './recorder';
import { registerAgentTools } from './features/agentTools';
import { registerCommands } from './features/commands';
import { registerCompletionControl } from './features/completionControl';
import { registerCopilotContext } from './features/copilotContext';
import { registerDetectServer } from './features/detectServer';
import { findRelated, registerFindRelated } from './features/findRelated';
import { registerHover } from './features/hover';
import { registerIndexSync } from './features/indexSync';
import { registerInlineCompletions } from './features/inlineCompletion';
import { registerShowContext } from './features/retrievedContext';
import { registerStatusBar } from './features/statusBar';
import { registerTeamIndex } from './features/teamIndex';
import { registerWarmUp } from './features/warmUp';

/**
 * Every feature: each registers what it needs on the context and returns one Disposable; what it
 * records for the API goes to ctx.recorder. In any order: none reads another's return value.
 */
const FEATURES: ReadonlyArray<(ctx: Ctx) => vscode.Disposable> = [
  registerCompletionControl,
  registerStatusBar,
  registerCommands,
  registerTeamIndex,
  registerDetectServer,
  registerInlineCompletions,
  registerHover,
  registerFindRelated,
  registerShowContext,
  registerCopilotContext,
  registerIndexSync,
  registerAgentTools,
  registerWarmUp,
  // For scripts and `npm run bench:ui`: per-request timings, engine time apart (not in the palette).
  (c) => vscode.commands.registerCommand('reporecall.timings', () => c.timings.snapshot()),
];

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
  for (const register of FEATURES) c.push(register(c));
  c.startFolders();
  c.log.info(`activated; ${c.allFolders().length} folder(s); workspace ${vscode.workspace.isTrusted ? 'trusted' : 'not trusted: model backends and the team index disabled'}`);
  const rec = c.recorder;
  return {
    whenReady: () => c.whenReady(),
    report: () => c.report(),
    findRelated: async (doc, pos) => (await findRelated(c, doc, new vscode.Selection(pos, pos)))?.chunks ?? [],
    lastRelatedShown: () => rec.relatedShown,
    lastCompletionContext: () => rec.completionContext,
    retrieve: async (uri, query, k) => {
      const fi = c.folderFor(uri);
      if (!fi) throw new Error(`${uri.toString()} is not in an indexed workspace folder`);
      return fi.client.retrieve(query, { k });
    },
    get inlineCompletionProvider(): vscode.InlineCompletionItemProvider {
      if (!rec.inlineCompletionProvider) throw new Error('RepoRecall: inline completions are not registered');
      return rec.inlineCompletionProvider;
    },
    lastRelatedView: () => rec.relatedView,
    expandRelatedCopies: (i) => rec.expandRelatedCopies?.(i) ?? false,
    statusHistory: () => rec.statusHistory(),
    lastCompletionOutcome: () => rec.completionOutcome,
    lastHoverTiming: () => rec.hoverTiming,
    lastCopilotContext: () => rec.copilotContext,
    copilotProviderHost: () => rec.copilot?.registeredWith,
    copilotContextReady: (doc, pos) => rec.copilot?.isReady(doc, doc.offsetAt(pos)) ?? false,
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
