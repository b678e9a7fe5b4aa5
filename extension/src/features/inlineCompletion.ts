// Inline (ghost text) completions grounded in the repository.
import * as vscode from 'vscode';
import { isAbortError } from '../../../engine/src/rpc/protocol';
import { config } from '../config';
import type { Ctx } from '../ctx';
import { editorState, signalFor } from '../editorState';
import { AdaptiveDebounce, delay } from './adaptiveDebounce';
import { CompletionCache } from './completionCache';
import { completeFrom, effectiveBackend, type CompletionMeta } from './completionSource';

export class RepoInlineCompletionProvider implements vscode.InlineCompletionItemProvider {
  private readonly cache = new CompletionCache<CompletionMeta>();
  private readonly debounce = new AdaptiveDebounce(() => config.debounceMs());

  constructor(private readonly ctx: Ctx) {}

  async provideInlineCompletionItems(
    doc: vscode.TextDocument,
    pos: vscode.Position,
    _context: vscode.InlineCompletionContext,
    token: vscode.CancellationToken,
  ): Promise<vscode.InlineCompletionItem[] | undefined> {
    if (!config.completionEnabled()) return undefined;
    const fi = this.ctx.folderFor(doc.uri);
    const rel = fi?.relPath(doc.uri);
    if (!fi || rel === undefined || !fi.canServe) return undefined;
    const state = editorState(doc, pos, rel, this.ctx.recentFiles());
    const docKey = `${doc.uri.toString()}|${effectiveBackend()}`;
    const cached = this.cache.get(docKey, state.prefix, state.suffix ?? '');
    if (cached) return this.items(cached.text, pos, cached.meta);

    const { signal, dispose } = signalFor(token);
    try {
      // Every keystroke cancels the previous request's token, so only the last one gets past this.
      if (!(await delay(this.debounce.nextDelay(), signal))) return undefined;
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

  private items(text: string, pos: vscode.Position, context: CompletionMeta): vscode.InlineCompletionItem[] {
    this.ctx.lastContext = context;
    // The best first, then the alternatives (the built-in source's), which VS Code cycles through.
    return [text, ...(context.alternatives ?? [])].map((t) => new vscode.InlineCompletionItem(t, new vscode.Range(pos, pos)));
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
