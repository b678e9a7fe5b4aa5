// Inline (ghost text) completions grounded in the repository.
import * as vscode from 'vscode';
import { isAbortError } from '../../../engine/src/rpc/protocol';
import { config } from '../config';
import type { Ctx } from '../ctx';
import { editorState, signalFor } from '../editorState';
import { AdaptiveDebounce, delay } from './adaptiveDebounce';
import { CompletionCache } from './completionCache';
import { completeFrom, effectiveBackend } from './completionSource';
import type { RetrievedContextRecord } from './retrievedContext';
import type { TimingRecord } from '../timings';

export class RepoInlineCompletionProvider implements vscode.InlineCompletionItemProvider {
  private readonly cache = new CompletionCache<RetrievedContextRecord>();
  private readonly debounce = new AdaptiveDebounce(() => config.debounceMs());

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
    _context: vscode.InlineCompletionContext,
    token: vscode.CancellationToken,
    rec: TimingRecord,
  ): Promise<vscode.InlineCompletionItem[] | undefined> {
    if (!config.completionEnabled()) return undefined;
    const fi = this.ctx.folderFor(doc.uri);
    const rel = fi?.relPath(doc.uri);
    if (!fi || rel === undefined || !fi.canServe) return undefined;
    const state = editorState(doc, pos, rel, this.ctx.recentFiles());
    const docKey = `${doc.uri.toString()}|${effectiveBackend()}`;
    const cached = this.cache.get(docKey, state.prefix, state.suffix ?? '');
    if (cached) {
      rec.outcome = 'cache';
      return this.items(cached.text, pos, cached.meta);
    }

    const { signal, dispose } = signalFor(token);
    try {
      // Every keystroke cancels the previous request's token, so only the last one gets past this.
      const wait = this.debounce.nextDelay();
      rec.detail = { waitMs: wait };
      if (!(await delay(wait, signal))) {
        rec.outcome = 'debounced';
        return undefined;
      }
      const started = Date.now();
      const result = await completeFrom(this.ctx, fi, state, signal);
      this.debounce.recordLatency(Date.now() - started);
      if (!result || token.isCancellationRequested) return undefined;
      this.cache.set(docKey, state.prefix, state.suffix ?? '', result.text, result.context);
      return this.items(result.text, pos, result.context);
    } catch (err) {
      if (!isAbortError(err)) this.ctx.log.warn(`completion in ${rel}: ${(err as Error).message}`);
      return undefined;
    } finally {
      dispose();
    }
  }

  private items(text: string, pos: vscode.Position, context: RetrievedContextRecord): vscode.InlineCompletionItem[] {
    this.ctx.lastContext = context;
    return [new vscode.InlineCompletionItem(text, new vscode.Range(pos, pos))];
  }

  clearCache(): void {
    this.cache.clear();
  }
}

export function registerInlineCompletions(ctx: Ctx): RepoInlineCompletionProvider {
  const provider = new RepoInlineCompletionProvider(ctx);
  ctx.push(
    vscode.languages.registerInlineCompletionItemProvider({ scheme: 'file' }, provider),
    // An index change may make cached completions stale.
    ctx.onDidChangeIndexes(() => provider.clearCache()),
  );
  return provider;
}
