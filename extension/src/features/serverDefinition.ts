// The language's own definition provider, asked first (issue 29): where one answers within
// reporecall.definitionProvider.budgetMs its answer wins and the engine's resolver is the
// fallback. Never blocks and never waits past the budget or the caller's cancellation; one request
// per document at a time, so a slow server is not queued up and a provider that asks for hovers in
// turn never reaches this again (RepoRecall itself registers no definition provider).
import * as vscode from 'vscode';
import type { ServerAnswer } from './definitionChoice';

const NONE: ServerAnswer = { kind: 'none' };
const LATE: ServerAnswer = { kind: 'none', late: true };
/** Documents with a definition request still running. */
const inFlight = new Set<string>();

export async function serverDefinition(doc: vscode.TextDocument, pos: vscode.Position, budgetMs: number, token: vscode.CancellationToken): Promise<ServerAnswer> {
  const key = doc.uri.toString();
  if (budgetMs <= 0 || token.isCancellationRequested) return NONE;
  if (inFlight.has(key)) return LATE;
  inFlight.add(key);
  const asked = Promise.resolve(vscode.commands.executeCommand<Array<vscode.Location | vscode.LocationLink>>('vscode.executeDefinitionProvider', doc.uri, pos))
    .catch(() => undefined)
    .finally(() => inFlight.delete(key));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let sub: vscode.Disposable | undefined;
  const cut = new Promise<'late' | undefined>((resolve: (v: 'late' | undefined) => void) => {
    timer = setTimeout(() => resolve('late'), budgetMs);
    sub = token.onCancellationRequested(() => resolve(undefined));
  });
  try {
    const found = await Promise.race([asked, cut]);
    if (found === 'late') return LATE;
    if (!found?.length || token.isCancellationRequested) return NONE;
    const first = found[0];
    const link = 'targetUri' in first;
    const uri = link ? first.targetUri : first.uri;
    const range = link ? first.targetSelectionRange ?? first.targetRange : first.range;
    return { kind: 'at', uri: uri.toString(), line: range.start.line, character: range.start.character };
  } finally {
    clearTimeout(timer);
    sub?.dispose();
  }
}
