// Inline (ghost text) completions grounded in the repository.
import * as vscode from 'vscode';
import { isAbortError } from '../../../engine/src/public';
import { config } from '../config';
import { conditionalRegistration } from '../conditionalRegistration';
import type { Ctx } from '../ctx';
import { combined } from '../dispose';
import { editorState, signalFor } from '../editorState';
import { AdaptiveDebounce, delay, EditClock, sinceKeystroke, VSCODE_INLINE_SUGGEST_DELAY_MS } from './adaptiveDebounce';
import { CompletionCache } from './completionCache';
import { CompletionPrefetch, cursorAfterEdit, prefetchKey } from './completionPrefetch';
import { explainOutcomes } from './completionControl';
import { completeFrom, effectiveBackend, type CompletionMeta, type SourcedCompletion } from './completionSource';
import type { TimingRecord } from '../timings';

export class RepoInlineCompletionProvider implements vscode.InlineCompletionItemProvider {
  private readonly cache = new CompletionCache<CompletionMeta>();
  private readonly debounce = new AdaptiveDebounce(() => config.debounceMs());
  /** The built-in source's request started at the keystroke (completionPrefetch.ts). */
  private readonly prefetch = new CompletionPrefetch<SourcedCompletion>();
  /** When each document last changed: the debounce counts from the keystroke. */
  readonly edits = new EditClock();
  private lastBackend: string | undefined;

  constructor(private readonly ctx: Ctx) {}

  provideInlineCompletionItems(
    doc: vscode.TextDocument,
    pos: vscode.Position,
    context: vscode.InlineCompletionContext,
    token: vscode.CancellationToken,
  ): Promise<vscode.InlineCompletionItem[] | undefined> {
    return this.ctx.timings.span('complete', async (rec) => {
      const items = await this.provide(doc, pos, context, token, rec);
      rec.outcome ??= items ? 'shown' : token.isCancellationRequested ? 'cancelled' : 'empty';
      rec.detail = { ...rec.detail, line: pos.line };
      return items;
    });
  }

  private async provide(
    doc: vscode.TextDocument,
    pos: vscode.Position,
    context: vscode.InlineCompletionContext,
    token: vscode.CancellationToken,
    rec: TimingRecord,
  ): Promise<vscode.InlineCompletionItem[] | undefined> {
    if (this.ctx.completions.gate(doc, pos)) return undefined; // off, snoozed, or off for this language: completionControl.ts
    const fi = this.ctx.folderFor(doc.uri);
    const rel = fi?.relPath(doc.uri);
    // An engine still opening is waited for (the request is cancelled by the next keystroke), so
    // the first keystroke of a session gets its ghost text as soon as the engine can answer.
    if (!fi || rel === undefined || !fi.canServeSoon) return undefined;
    const state = editorState(doc, pos, rel, this.ctx.recentFiles());
    const backend = effectiveBackend();
    if (backend !== this.lastBackend) {
      this.lastBackend = backend;
      this.debounce.reset();
    }
    const docKey = completionDocKey(doc, backend);
    const offset = doc.offsetAt(pos);
    const cached = this.cache.get(docKey, state.prefix, state.suffix ?? '', offset);
    if (cached) {
      rec.outcome = 'cache';
      return this.items(cached.text, pos, cached.meta);
    }

    const answer = (result: SourcedCompletion): vscode.InlineCompletionItem[] => {
      this.cache.set(docKey, state.prefix, state.suffix ?? '', result.text, result.context, offset);
      return this.items(result.text, pos, result.context);
    };
    const prefetched = backend === 'builtin' ? this.prefetch.take(prefetchKey(docKey, doc.version, offset)) : undefined;
    if (prefetched) {
      const t0 = performance.now();
      const got = await prefetched;
      rec.detail = { prefetched: got ? 1 : 0, prefetchWaitMs: Math.round(performance.now() - t0) };
      if (token.isCancellationRequested) return undefined;
      // Undefined: the prefetch was cancelled, so ask below.
      if (got) return got.value ? answer(got.value) : undefined;
    }

    const { signal, dispose } = signalFor(token);
    try {
      // Every keystroke cancels the previous request's token, so only the last one gets past this.
      // Counted from the keystroke (VS Code's own inline-suggest delay is part of it); an explicit
      // request (Alt+\\) or one without an edit before it is served at once.
      const sinceEdit = this.edits.since(doc.uri.toString());
      const wait = context.triggerKind === vscode.InlineCompletionTriggerKind.Invoke ? 0 : this.debounce.nextDelay(sinceKeystroke(sinceEdit));
      rec.detail = { waitMs: wait, sinceEditMs: Number.isFinite(sinceEdit) ? Math.round(sinceEdit) : -1 };
      if (!(await delay(wait, signal))) {
        rec.outcome = 'debounced';
        return undefined;
      }
      const started = Date.now();
      const result = await completeFrom(this.ctx, fi, state, signal);
      // Only a model backend is slow enough to be asked less eagerly; the engine answers in ms.
      if (backend !== 'builtin') this.debounce.recordLatency(Date.now() - started);
      if (!result || token.isCancellationRequested) return undefined;
      return answer(result);
    } catch (err) {
      if (!isAbortError(err)) this.ctx.log.warn(`completion in ${rel}: ${(err as Error).message}`);
      return undefined;
    } finally {
      dispose();
    }
  }

  private items(text: string, pos: vscode.Position, context: CompletionMeta): vscode.InlineCompletionItem[] {
    this.ctx.recorder.completionContext = context;
    // The best first, then the alternatives (the built-in source's), which VS Code cycles through.
    return [text, ...(context.alternatives ?? [])].map((t) => new vscode.InlineCompletionItem(t, new vscode.Range(pos, pos)));
  }

  clearCache(): void {
    this.cache.clear();
    this.prefetch.cancel();
  }

  /**
   * Starts the built-in source's request as the edit arrives, for the cursor the edit leaves
   * (VS Code asks 50 ms later; completionPrefetch.ts). Only for the active editor's single-cursor
   * edits, where inline suggestions are on and the request would not be gated or served from the cache.
   */
  prefetchAfter(e: vscode.TextDocumentChangeEvent): void {
    this.prefetch.cancel();
    const doc = e.document;
    const offset = cursorAfterEdit(e.contentChanges);
    if (offset === undefined || vscode.window.activeTextEditor?.document !== doc) return;
    const backend = effectiveBackend();
    if (backend !== 'builtin' || this.ctx.completions.blocked(doc.languageId)) return;
    if (!vscode.workspace.getConfiguration('editor', doc).get<boolean>('inlineSuggest.enabled', true)) return;
    const fi = this.ctx.folderFor(doc.uri);
    const rel = fi?.relPath(doc.uri);
    if (!fi || rel === undefined || !fi.canServeSoon) return;
    const state = editorState(doc, doc.positionAt(offset), rel, this.ctx.recentFiles());
    const docKey = completionDocKey(doc, backend);
    if (this.cache.get(docKey, state.prefix, state.suffix ?? '', offset)) return;
    // What the provider would still wait once VS Code asks, 50 ms from now: with the default debounce, nothing.
    const wait = this.debounce.nextDelay(VSCODE_INLINE_SUGGEST_DELAY_MS);
    this.prefetch.start(prefetchKey(docKey, doc.version, offset), wait, (signal) =>
      this.ctx.timings.span('prefetch', async (rec) => {
        const result = await completeFrom(this.ctx, fi, state, signal);
        rec.outcome = result ? 'answered' : signal.aborted ? 'cancelled' : 'empty';
        return result;
      }));
  }
}

/** A document's key in the cache and for the prefetch: completions of different sources never mix. */
function completionDocKey(doc: vscode.TextDocument, backend: string): string {
  return `${doc.uri.toString()}|${backend}`;
}

/** Changes when a folder's index is rebuilt or re-indexed or its engine changes state; not on single-file updates. */
function indexGeneration(ctx: Ctx): string {
  return ctx.allFolders().map((f) => `${f.folder.uri.toString()}:${f.state}:${f.client.state}:${f.stats?.seconds ?? ''}:${f.stats?.changedFiles ?? ''}`).join('|');
}

/**
 * The provider, registered with VS Code while reporecall.completion.enabled is on (snooze and the
 * per-language switches are per request: completionSwitches.ts). The API calls it directly.
 */
export function registerInlineCompletions(ctx: Ctx): vscode.Disposable {
  const provider = new RepoInlineCompletionProvider(ctx);
  explainOutcomes(ctx, provider);
  ctx.recorder.inlineCompletionProvider = provider;
  let generation = indexGeneration(ctx);
  return combined(
    conditionalRegistration(['reporecall.completion.enabled'], () => config.completionEnabled(), () => vscode.languages.registerInlineCompletionItemProvider({ scheme: 'file' }, provider)),
    // A new index (an indexing run ended, a rebuild, a restart) may make cached completions stale;
    // the unsaved-buffer updates that follow typing do not: they hold what the cache was built on.
    ctx.onDidChangeIndexes(() => {
      const now = indexGeneration(ctx);
      if (now !== generation) provider.clearCache();
      generation = now;
    }),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (!e.contentChanges.length) return;
      provider.edits.note(e.document.uri.toString());
      provider.prefetchAfter(e);
    }),
    vscode.workspace.onDidCloseTextDocument((doc) => provider.edits.forget(doc.uri.toString())),
  );
}
