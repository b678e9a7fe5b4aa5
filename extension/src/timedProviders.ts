// Wraps editor feature providers so each request is one timing record (timings.ts).
import type * as vscode from 'vscode';
import type { Ctx } from './ctx';

export function timedHover(ctx: Ctx, provider: vscode.HoverProvider): vscode.HoverProvider {
  return {
    provideHover: (doc, pos, token) =>
      ctx.timings.span('hover', async (rec) => {
        const hover = await provider.provideHover(doc, pos, token);
        rec.outcome = hover ? 'shown' : token.isCancellationRequested ? 'cancelled' : 'none';
        rec.detail = { ...rec.detail, file: doc.uri.path, line: pos.line, character: pos.character };
        return hover;
      }),
  };
}
