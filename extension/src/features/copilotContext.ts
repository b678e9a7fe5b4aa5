// GitHub Copilot's completions get RepoRecall's repository context: where Copilot (or Copilot Chat)
// is installed and exports getContextProviderAPI('v1'), a `reporecall` context provider is
// registered for every language the engine parses. The context is computed on each edit and
// cursor move (copilotResolver.ts) so a request is answered from it within Copilot's few
// milliseconds; next-edit suggestions (`source: 'nes'`) are served the same way. Copilot is a
// remote model: nothing in an untrusted workspace, nothing from or for a deny-listed file, secrets
// redacted. This file only adapts VS Code's types; the answering logic is vscode-free.
import * as vscode from 'vscode';
import { isSecretPath, PARSED_LANGUAGES, type RetrievedChunk } from '../../../engine/src/public';
import type { CopilotContextRecord } from '../completionState';
import { config } from '../config';
import type { Ctx } from '../ctx';
import { combined } from '../dispose';
import { editorState, editorStateFromText } from '../editorState';
import type { FolderIndex } from '../folderIndex';
import type { CodeSnippet, ContextProvider, CopilotExports, ResolveRequest } from './copilotApi';
import { COPILOT_EXTENSION_IDS } from './copilotPresence';
import { applyProposedEdits, contextKey, requestPosition } from './copilotRequest';
import { CopilotContextSource, DeliveredItems, snippetsFrom, usageSummary, type Answer, type Compute, type ProvidedContext } from './copilotResolver';
import { cursorAfterEdit } from './completionPrefetch';

/** The provider's id, as `github.copilot.advanced.contextProviders` names it. */
export const PROVIDER_ID = 'reporecall';

/** Where a request is: the document, its folder, and the cursor (after Copilot's proposed edits). */
interface Target {
  doc: vscode.TextDocument;
  fi: FolderIndex;
  rel: string;
  key: string;
  state: ReturnType<typeof editorState>;
}

export class CopilotContext implements vscode.Disposable {
  readonly source = new CopilotContextSource();
  private readonly delivered = new DeliveredItems();
  private registration: { dispose(): unknown } | undefined;
  /** The Copilot extension the provider is registered with, if any. */
  registeredWith: string | undefined;

  private lastUsage: CopilotContextRecord['previousUsage'];

  constructor(private readonly ctx: Ctx) {}

  /** Whether a document may be given to Copilot at all: trusted workspace, parsed language, indexed folder, not deny-listed. */
  private target(doc: vscode.TextDocument, offset: number | undefined, edits?: ResolveRequest['documentContext']['proposedEdits']): Target | undefined {
    if (!vscode.workspace.isTrusted || !PARSED_LANGUAGES.includes(doc.languageId)) return undefined;
    const fi = this.ctx.folderFor(doc.uri);
    const rel = fi?.relPath(doc.uri);
    if (!fi || rel === undefined || !fi.canServeSoon || isSecretPath(rel, config.secretPatterns(fi.folder))) return undefined;
    const recent = this.ctx.recentFiles();
    if (edits?.length) {
      const edited = applyProposedEdits(doc.getText(), edits);
      return { doc, fi, rel, key: contextKey(doc.uri.toString(), doc.version, edited.offset, edits), state: editorStateFromText(edited.text, edited.offset, doc.languageId, rel, recent) };
    }
    if (offset === undefined) return undefined;
    return { doc, fi, rel, key: contextKey(doc.uri.toString(), doc.version, offset), state: editorState(doc, doc.positionAt(offset), rel, recent) };
  }

  private compute(t: Target): Compute {
    return async (signal, onQuick) => {
      const t0 = performance.now();
      const uriOf = (f: string) => vscode.Uri.joinPath(t.fi.folder.uri, f).toString();
      const context = (chunks: RetrievedChunk[]): ProvidedContext => ({ ...snippetsFrom(chunks, { file: t.rel, prefix: t.state.prefix, uriOf, secretPatterns: config.secretPatterns(t.fi.folder) }), ms: performance.now() - t0 });
      // One request: the lexical answer arrives first, the full one when the model has run.
      return context(await t.fi.client.retrieve(t.state, { budgetTokens: config.contextTokens(), signal, onQuick: (chunks) => onQuick(context(chunks)) }));
    };
  }

  /** Starts the context for where an edit or a cursor move left the cursor (the active editor only). */
  prefetch(doc: vscode.TextDocument, offset: number | undefined): void {
    if (!this.registration || vscode.window.activeTextEditor?.document !== doc) return;
    const t = this.target(doc, offset);
    if (t) this.source.prefetch(t.key, doc.uri.toString(), this.compute(t));
  }

  /** Whether the context for this document state and cursor is computed (the tests wait for the prefetch). */
  isReady(doc: vscode.TextDocument, offset: number): boolean {
    const t = this.target(doc, offset);
    return !!t && this.source.ready(t.key, doc.uri.toString())?.of === 'full';
  }

  private locate(request: ResolveRequest): Target | undefined {
    const dc = request.documentContext;
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === dc.uri);
    // A request for another version than the editor holds would be answered for the wrong text.
    if (!doc || doc.version !== dc.version) return undefined;
    return dc.proposedEdits?.length ? this.target(doc, undefined, dc.proposedEdits) : this.target(doc, doc.offsetAt(toPosition(requestPosition(dc, (o) => doc.positionAt(o)))));
  }

  async resolve(request: ResolveRequest, token: vscode.CancellationToken): Promise<CodeSnippet[]> {
    const t0 = Date.now();
    this.noteUsage(request);
    const t = this.locate(request);
    if (!t) {
      this.record(request, undefined, vscode.workspace.isTrusted ? 'not served here' : 'untrusted workspace', []);
      return [];
    }
    const { context, answer } = await this.source.resolve(t.key, t.doc.uri.toString(), this.compute(t), token, request.timeoutEnd);
    // Nothing after the deadline: Copilot has moved on, and a late answer would reach nobody.
    const items = context && !token.isCancellationRequested ? context.items : [];
    if (context && items.length) this.delivered.note(context);
    this.record(request, t, answer, items.length ? context!.chunks : [], items, Date.now() - t0);
    return items;
  }

  /** What is ready when Copilot's deadline passed: this request's context (the full pass's, else the quick one's), or the full one a keystroke older in the same document. */
  resolveOnTimeout(request: ResolveRequest): CodeSnippet[] {
    const t = this.locate(request);
    const ready = t && this.source.ready(t.key, t.doc.uri.toString());
    if (!t || !ready) return [];
    this.delivered.note(ready.context);
    this.record(request, t, ready.of === 'full' ? 'on timeout' : ready.of === 'quick' ? 'on timeout (quick pass)' : 'on timeout (one keystroke older)', ready.context.chunks, ready.context.items);
    return ready.context.items;
  }

  private noteUsage(request: ResolveRequest): void {
    const stats = request.previousUsageStatistics;
    if (!stats) return;
    const usage = this.delivered.describe(stats);
    this.ctx.log.info(`Copilot used RepoRecall's context of its previous request: ${usageSummary(usage)}`);
    for (const i of usage.items) this.ctx.log.debug(`  ${i.usage}: ${i.file ? `${i.file}:${(i.startLine ?? 0) + 1}-${(i.endLine ?? 0) + 1}` : i.id}${i.expectedTokens !== undefined ? ` (${i.actualTokens}/${i.expectedTokens} tokens)` : ''}`);
    this.lastUsage = usage;
  }

  private record(request: ResolveRequest, t: Target | undefined, answer: Answer | string, chunks: ProvidedContext['chunks'], items: CodeSnippet[] = [], ms?: number): void {
    const rec: CopilotContextRecord = {
      time: new Date(), file: t?.rel ?? request.documentContext.uri, line: t?.state.line ?? request.documentContext.position?.line ?? 0,
      source: request.source ?? 'completions', budgetMs: Math.round(Number.isFinite(request.timeBudget) ? request.timeBudget : request.timeoutEnd - Date.now()), answer,
      items: items.map((it, i) => ({ id: it.id ?? '', file: chunks[i]?.file ?? it.uri, startLine: chunks[i]?.startLine ?? 0, endLine: chunks[i]?.endLine ?? 0, importance: it.importance ?? 0, copies: it.additionalUris?.length ?? 0 })),
      ...(this.lastUsage ? { previousUsage: this.lastUsage } : {}),
    };
    this.ctx.recorder.copilotContext = rec;
    this.ctx.log.debug(`Copilot ${rec.source} context for ${rec.file}:${rec.line + 1}: ${answer}, ${items.length} item(s)${ms !== undefined ? ` in ${ms} ms` : ''}`);
  }

  /** Registers with the first Copilot extension that exports the API (activating it if it is installed but not yet active). */
  async register(): Promise<void> {
    if (this.registration || config.withCopilot() === 'own' || !vscode.workspace.isTrusted) return;
    for (const id of COPILOT_EXTENSION_IDS) {
      const ext = vscode.extensions.getExtension<CopilotExports>(id);
      if (!ext) continue;
      try {
        const exports = ext.isActive ? ext.exports : await ext.activate();
        const api = typeof exports?.getContextProviderAPI === 'function' ? await exports.getContextProviderAPI('v1') : undefined;
        if (!api || this.registration) continue;
        const provider: ContextProvider<CodeSnippet> = {
          id: PROVIDER_ID,
          selector: PARSED_LANGUAGES.map((language) => ({ language, scheme: 'file' })),
          resolver: { resolve: (r, token) => this.resolve(r, token as vscode.CancellationToken), resolveOnTimeout: (r) => this.resolveOnTimeout(r) },
        };
        this.registration = api.registerContextProvider(provider);
        this.registeredWith = id;
        this.ctx.log.info(`registered the ${PROVIDER_ID} context provider with ${id} for ${PARSED_LANGUAGES.join(', ')}`);
        return;
      } catch (err) {
        this.ctx.log.warn(`registering a context provider with ${id}: ${(err as Error).message}`);
      }
    }
  }

  /** Withdraws the provider (Copilot uninstalled, `own` chosen). */
  unregister(): void {
    this.registration?.dispose();
    this.registration = undefined;
    this.registeredWith = undefined;
    this.source.clear();
  }

  dispose(): void {
    this.unregister();
  }
}

function toPosition(p: { line: number; character: number }): vscode.Position {
  return new vscode.Position(Math.max(0, p.line), Math.max(0, p.character));
}

export function registerCopilotContext(ctx: Ctx): vscode.Disposable {
  const copilot = new CopilotContext(ctx);
  ctx.recorder.copilot = copilot;
  const refresh = (): void => {
    const gone = copilot.registeredWith && !vscode.extensions.getExtension(copilot.registeredWith);
    if (gone || config.withCopilot() === 'own') copilot.unregister();
    void copilot.register().then(() => ctx.completions.refresh());
  };
  const registered = combined(
    copilot,
    // Copilot installed, enabled or removed while VS Code runs; trust granted; the setting changed.
    vscode.extensions.onDidChange(refresh),
    vscode.workspace.onDidGrantWorkspaceTrust(refresh),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('reporecall.completion.withCopilot') && refresh()),
    vscode.workspace.onDidChangeTextDocument((e) => e.contentChanges.length && copilot.prefetch(e.document, cursorAfterEdit(e.contentChanges))),
    vscode.window.onDidChangeTextEditorSelection((e) => {
      const s = e.selections;
      if (s.length === 1 && s[0].isEmpty) copilot.prefetch(e.textEditor.document, e.textEditor.document.offsetAt(s[0].active));
    }),
  );
  refresh();
  return registered;
}
