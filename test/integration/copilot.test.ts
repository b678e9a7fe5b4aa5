// RepoRecall as a GitHub Copilot context provider, in the real VS Code: a stand-in for Copilot
// (test/fixtures/copilot-standin, installed as `github.copilot`) exports getContextProviderAPI('v1')
// as the published interface declares it and asks for context as Copilot does: a budget, the token
// cancelled at timeoutEnd, resolveOnTimeout after it, proposed edits, next-edit suggestions, the
// usage statistics of the previous request. Its inline completions start off (the suite's user
// settings: `github.copilot.enable: {"*": false}`) so the other suites see RepoRecall's ghost text.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { redactSecrets, type RetrievedChunk } from '../../engine/src/public';
import type { RepoRecallApi } from '../../extension/src/extension';
import type { CodeSnippet } from '../../extension/src/features/copilotApi';
import { groupCopies } from '../../extension/src/features/copies';
import { activatedApi, cancellationToken, eventually, fileUri } from './helpers';

interface StandinResult { matched: boolean; status: string; items: CodeSnippet[]; fallback: CodeSnippet[]; late: CodeSnippet[]; waitedMs: number }
interface Standin {
  providerIds(): string[];
  provider(id: string): { id: string; selector: Array<{ language?: string }> } | undefined;
  request(id: string, opts: Record<string, unknown>): Promise<StandinResult>;
}

const SECRET = ['ghp_', 'Pl4ntedForCopilot0123456789abcdefghijkl'].join('');

describe('Copilot context provider', () => {
  let api: RepoRecallApi;
  let standin: Standin;
  let editor: vscode.TextEditor;

  /** What RepoRecall's own context packs at the cursor, redacted as for any remote backend: Copilot's items, in order. */
  async function expectedValues(pos: vscode.Position): Promise<string[]> {
    const chunks: RetrievedChunk[] = await api.retrieveContext(editor.document, pos);
    const prefix = editor.document.getText(new vscode.Range(new vscode.Position(0, 0), pos));
    const rel = vscode.workspace.asRelativePath(editor.document.uri, false);
    return groupCopies(chunks.filter((c) => !(c.file === rel && prefix.includes(c.text))), (c) => c.text).map((g) => redactSecrets(g.first.text).text);
  }

  /** Types `text` at the end of line `line` (an edit: the provider prefetches for the cursor it leaves). */
  async function typeAt(line: number, text: string): Promise<vscode.Position> {
    const end = editor.document.lineAt(line).range.end;
    await editor.edit((b) => b.insert(end, text));
    const pos = new vscode.Position(line, end.character + text.length);
    editor.selection = new vscode.Selection(pos, pos);
    return pos;
  }

  const ask = (pos: vscode.Position, budgetMs: number, extra: Record<string, unknown> = {}) =>
    standin.request('reporecall', { uri: editor.document.uri.toString(), position: { line: pos.line, character: pos.character }, budgetMs, ...extra });

  before(async function () {
    this.timeout(180_000);
    api = await activatedApi();
    const copilot = vscode.extensions.getExtension<{ standin: Standin }>('github.copilot');
    assert.ok(copilot, 'the Copilot stand-in is installed (scripts/vscode/test-integration.sh)');
    standin = (copilot.isActive ? copilot.exports : await copilot.activate()).standin;
    await eventually('the reporecall provider to be registered', async () => (standin.providerIds().includes('reporecall') ? true : undefined));
    // expectedValues retrieves again a moment after the prefetch and must meet the same index: two
    // chunks of this fixture score within 0.3% of each other here, so any index change in between
    // (the typed buffer's live update, the catch-up of the engine the team index suite reopened)
    // may swap them. Live updates wait for this suite's end; the reopened engine must be ready.
    await vscode.workspace.getConfiguration('reporecall').update('index.liveUpdateDelayMs', 3_600_000, vscode.ConfigurationTarget.Global);
    await eventually('the index to be ready', async () => (api.report()[0]?.state === 'ready' ? true : undefined), 120_000);
    await vscode.workspace.fs.writeFile(fileUri('src/app/fenceClient.ts'), Buffer.from(
      `export function uploadFenceReport(lengthMetres: number): string {\n  const token = "${SECRET}";\n  return \`fence \${lengthMetres} m signed \${token}\`;\n}\n`));
    await eventually('the planted file to be indexed', async () => ((await api.retrieve(fileUri('src/app/fenceClient.ts'), 'uploadFenceReport', 5)).some((c) => c.file === 'src/app/fenceClient.ts') ? true : undefined));
    editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(fileUri('src/app/main.ts')));
  });

  after(async () => {
    await vscode.workspace.getConfiguration('github.copilot').update('enable', { '*': false }, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('reporecall').update('completion.withCopilot', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('reporecall').update('index.liveUpdateDelayMs', undefined, vscode.ConfigurationTarget.Global);
    // main.ts as it was, the planted files gone: later suites see the fixture unchanged.
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(fileUri('src/app/main.ts')));
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const f of ['src/app/fenceClient.ts', 'src/geometry/lowerHull2.ts']) await vscode.workspace.fs.delete(fileUri(f)).then(undefined, () => undefined);
  });

  it('registers `reporecall` with the Copilot extension for the languages the engine parses', () => {
    assert.strictEqual(api.copilotProviderHost(), 'github.copilot');
    const languages = standin.provider('reporecall')!.selector.map((f) => f.language);
    for (const l of ['typescript', 'typescriptreact', 'javascript', 'python', 'go', 'java', 'rust', 'c', 'cpp']) assert.ok(languages.includes(l), `${l} in ${languages.join(', ')}`);
  });

  for (const budgetMs of [7, 20, 50, 150]) {
    it(`answers a ${budgetMs} ms request from the context prefetched at the edit: RepoRecall's own excerpts, in order`, async () => {
      const pos = await typeAt(13, ` // fence ${budgetMs}`);
      await eventually('the prefetch', async () => (api.copilotContextReady(editor.document, pos) ? true : undefined));
      const got = await ask(pos, budgetMs);
      assert.strictEqual(got.status, 'full', JSON.stringify(got));
      assert.deepStrictEqual(got.items.map((i) => i.value), await expectedValues(pos));
      assert.ok(got.items.length > 0 && got.items[0].importance === 100 && got.items.every((i) => /^[A-Za-z0-9-]+$/.test(i.id ?? '')));
      assert.deepStrictEqual(got.late, [], 'nothing after cancellation');
      assert.ok(!got.items.some((i) => i.value.includes(SECRET)), 'the planted token never reaches Copilot');
      assert.strictEqual(api.lastCopilotContext()?.answer, 'ready');
    });
  }

  it('gives nothing after the token is cancelled; resolveOnTimeout gives what is ready', async () => {
    await typeAt(13, ' x');
    const pos = await typeAt(13, 'y'); // a fresh edit: its context is not computed 1 ms later
    const got = await ask(pos, 1);
    assert.deepStrictEqual(got.late, [], 'the resolve promise settled with nothing after the cancellation');
    if (got.status !== 'full') assert.ok(got.fallback.length > 0, 'resolveOnTimeout gave the context of the keystroke before');
  });

  it('serves the deprecated offset, a next-edit-suggestion request and the usage statistics of the previous request', async () => {
    const pos = await typeAt(13, ' // nes');
    await eventually('the prefetch', async () => (api.copilotContextReady(editor.document, pos) ? true : undefined));
    const byOffset = await ask(pos, 150, { omitPosition: true });
    assert.deepStrictEqual(byOffset.items.map((i) => i.value), await expectedValues(pos));
    const nes = await ask(pos, 20, { source: 'nes' });
    assert.strictEqual(nes.status, 'full');
    assert.deepStrictEqual(nes.items.map((i) => i.id), byOffset.items.map((i) => i.id), 'stable ids');
    assert.strictEqual(api.lastCopilotContext()?.source, 'nes');
    const [used, unused] = nes.items;
    assert.ok(used && unused, 'two items to report on');
    const stats = { usage: 'partial', resolution: 'full', usageDetails: [{ id: used.id, type: 'CodeSnippet', usage: 'full', expectedTokens: 40, actualTokens: 40 }, { id: unused.id, type: 'CodeSnippet', usage: 'none' }] };
    await ask(pos, 150, { previousUsageStatistics: stats });
    const usage = api.lastCopilotContext()?.previousUsage;
    assert.deepStrictEqual(usage?.items.map((i) => i.usage), ['full', 'none']);
    const shown = await vscode.commands.executeCommand<string>('reporecall.showRetrievedContext');
    assert.ok(shown.includes('What Copilot used of the request before') && shown.includes(`**full** \`${usage!.items[0].file}:`) && shown.includes('**none**'), shown);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    editor = await vscode.window.showTextDocument(editor.document);
  });

  it('applies proposed edits: the context is for the text as the edit leaves it', async () => {
    const line = 13;
    const at = editor.document.lineAt(line).range.end;
    const end = { line: at.line, character: at.character }; // LSP positions, as Copilot sends them
    const newText = '\nconst report = uploadFenceReport(';
    const after = { line: line + 1, character: 'const report = uploadFenceReport('.length };
    const got = await ask(at, 10_000, { proposedEdits: [{ range: { start: end, end }, newText, positionAfterEdit: after }] });
    assert.strictEqual(got.status, 'full', JSON.stringify(got));
    assert.strictEqual(api.lastCopilotContext()?.answer, 'asked');
    assert.strictEqual(api.lastCopilotContext()?.line, line + 1);
    const planted = got.items.find((i) => i.uri.endsWith('/src/app/fenceClient.ts'));
    assert.ok(planted, `the called function's file is in the context: ${got.items.map((i) => i.uri).join(', ')}`);
    assert.ok(planted.value.includes('uploadFenceReport') && !planted.value.includes(SECRET), `the planted token is redacted: ${planted.value}`);
    assert.ok(!got.items.some((i) => i.value.includes(SECRET)));
  });

  it("steps RepoRecall's ghost text aside while Copilot's inline completions are on, and not with `both`", async () => {
    const uri = fileUri('src/geometry/lowerHull2.ts');
    const text = "import { Point } from './point';\n\nexport function lowerHull(sorted: Point[]): Point[] {\n  const lower: Point[] = [];\n  for (const p of sorted) {\n    ";
    await vscode.workspace.fs.writeFile(uri, Buffer.from(`${text}\n  }\n  return lower;\n}\n`));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const pos = doc.positionAt(text.length);
    const ours = async () => (await api.inlineCompletionProvider.provideInlineCompletionItems(doc, pos, { triggerKind: vscode.InlineCompletionTriggerKind.Automatic, selectedCompletionInfo: undefined }, cancellationToken())) as vscode.InlineCompletionItem[] | undefined;
    assert.ok((await ours())?.length, 'with Copilot\'s completions off, RepoRecall shows its own');
    await vscode.workspace.getConfiguration('github.copilot').update('enable', { '*': true }, vscode.ConfigurationTarget.Global);
    assert.strictEqual(await ours(), undefined);
    assert.strictEqual(api.lastCompletionOutcome()?.reason, 'context for Copilot');
    await eventually('the status bar to say so', async () => (api.statusHistory().at(-1)?.includes('context for Copilot') ? true : undefined));
    await vscode.workspace.getConfiguration('reporecall').update('completion.withCopilot', 'both', vscode.ConfigurationTarget.Global);
    assert.ok((await ours())?.length, 'with `both`, RepoRecall shows its ghost text beside Copilot\'s');
    assert.ok(standin.providerIds().includes('reporecall'), 'and still gives Copilot context');
    await vscode.workspace.getConfiguration('reporecall').update('completion.withCopilot', 'own', vscode.ConfigurationTarget.Global);
    await eventually('the provider to be withdrawn with `own`', async () => (!standin.providerIds().includes('reporecall') ? true : undefined));
    await vscode.workspace.getConfiguration('reporecall').update('completion.withCopilot', undefined, vscode.ConfigurationTarget.Global);
    await eventually('the provider to be registered again', async () => (standin.providerIds().includes('reporecall') ? true : undefined));
    await vscode.workspace.getConfiguration('github.copilot').update('enable', { '*': false }, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
