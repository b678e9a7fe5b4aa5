// Runs inside the real VS Code extension host (code-server) against a copy of
// test/fixtures/workspace, with the real engine in its own process.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { RepoRecallApi } from '../../extension/src/extension';
import { activatedApi, cancellationToken, eventually, fileUri, positionOf } from './helpers';

describe('RepoRecall in VS Code', () => {
  let api: RepoRecallApi;

  before(async () => {
    api = await activatedApi();
  });

  it('indexes the fixture workspace and reports it through reporecall.waitReady', async () => {
    const reports = await vscode.commands.executeCommand<Array<{ state: string; stats?: { files: number; chunks: number } }>>('reporecall.waitReady');
    assert.strictEqual(reports.length, 1);
    assert.strictEqual(reports[0].state, 'ready', JSON.stringify(reports[0]));
    assert.ok((reports[0].stats?.files ?? 0) >= 6, `files: ${JSON.stringify(reports[0].stats)}`);
    assert.ok((reports[0].stats?.chunks ?? 0) >= 8, `chunks: ${JSON.stringify(reports[0].stats)}`);
  });

  it('completes with code that calls a function defined only in another file', async () => {
    // A new file starting the lower hull the way src/geometry/hull.ts does; crossProduct (defined
    // only in src/geometry/point.ts) appears nowhere in it.
    const uri = fileUri('src/geometry/lowerHull.ts');
    const text = "import { Point } from './point';\n\nexport function lowerHull(sorted: Point[]): Point[] {\n  const lower: Point[] = [];\n  for (const p of sorted) {\n    ";
    await vscode.workspace.fs.writeFile(uri, Buffer.from(`${text}\n  }\n  return lower;\n}\n`));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const pos = doc.positionAt(text.length);
    const items = (await api.inlineCompletionProvider.provideInlineCompletionItems(
      doc, pos, { triggerKind: vscode.InlineCompletionTriggerKind.Automatic, selectedCompletionInfo: undefined }, cancellationToken(),
    )) as vscode.InlineCompletionItem[] | undefined;
    assert.ok(items && items.length > 0, 'no inline completion item');
    const insert = typeof items[0].insertText === 'string' ? items[0].insertText : items[0].insertText.value;
    assert.ok(insert.includes('crossProduct('), `completion was ${JSON.stringify(insert)}`);
    assert.ok(!doc.getText().includes('crossProduct'));
    const ctx = api.lastCompletionContext();
    assert.ok(ctx, 'no retrieved context recorded');
    assert.strictEqual(ctx.source?.file ?? ctx.snippets[0]?.file, 'src/geometry/hull.ts', `built from ${JSON.stringify(ctx.source ?? ctx.snippets)}`);
    const shown = await vscode.commands.executeCommand<string>('reporecall.showRetrievedContext');
    assert.ok(shown.includes('src/geometry/hull.ts') && shown.includes('crossProduct'), shown);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // Its empty loop body, indexed, would be the closest copy for every later probe of this shape.
    await vscode.workspace.fs.delete(uri);
  });

  it('Find Related Code ranks the called function first', async () => {
    const doc = await vscode.workspace.openTextDocument(fileUri('src/app/main.ts'));
    const chunks = await api.findRelated(doc, positionOf(doc, 'polygonPerimeterLength(fence)', 3));
    assert.ok(chunks.length > 0, 'no related chunks');
    assert.strictEqual(chunks[0].file, 'src/geometry/hull.ts', JSON.stringify(chunks.map((c) => [c.file, c.name, c.score])));
    assert.ok(chunks[0].name?.includes('polygonPerimeterLength'), `first: ${chunks[0].name}`);
  });

  it('Find Related Code opens the picked result from its QuickPick', async () => {
    const doc = await vscode.workspace.openTextDocument(fileUri('src/app/main.ts'));
    const editor = await vscode.window.showTextDocument(doc);
    const pos = positionOf(doc, 'polygonPerimeterLength(fence)', 3);
    editor.selection = new vscode.Selection(pos, pos);
    const picked = vscode.commands.executeCommand<{ file: string; startLine: number } | undefined>('reporecall.findRelated');
    const shown = await eventually('the QuickPick to list results', async () => api.lastRelatedShown());
    assert.ok(shown.length > 0);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const chunk = await picked;
    assert.ok(chunk, 'nothing was picked');
    const active = vscode.window.activeTextEditor;
    assert.ok(active && active.document.uri.path.endsWith(`/${chunk.file}`), `active editor: ${active?.document.uri.path}`);
    assert.strictEqual(active.selection.active.line, chunk.startLine);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('hover shows a retrieved snippet from another file with a file:line link', async () => {
    const doc = await vscode.workspace.openTextDocument(fileUri('src/geometry/hull.ts'));
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, positionOf(doc, 'crossProduct(lower', 2));
    const ours = hovers
      .flatMap((h) => h.contents)
      .map((c) => (typeof c === 'string' ? c : c.value))
      .find((v) => v.includes('RepoRecall'));
    assert.ok(ours, `no RepoRecall hover among ${hovers.length}`);
    assert.ok(ours.includes('export function crossProduct'), ours);
    assert.ok(/\[src\/geometry\/point\.ts:\d+\]\(file:\/\/.*#L\d+\)/.test(ours), ours);
    assert.ok(ours.includes('defines `crossProduct`'), ours);
  });

  it('indexes a file after it is saved and forgets it after it is deleted', async () => {
    const uri = fileUri('src/app/checksum.ts');
    await vscode.workspace.fs.writeFile(uri, Buffer.from('// scratch\n'));
    const doc = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((e) => e.insert(new vscode.Position(1, 0), 'export function zebraQuokkaChecksum(data: string): number {\n  return data.length * 31;\n}\n'));
    assert.ok(await doc.save(), 'save failed');
    const found = await eventually('the saved function to be retrievable', async () => {
      const hits = await api.retrieve(uri, 'zebraQuokkaChecksum', 5);
      return hits.find((h) => h.file === 'src/app/checksum.ts' && h.text.includes('zebraQuokkaChecksum'));
    });
    assert.ok(found.text.includes('data.length * 31'));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    await vscode.workspace.fs.delete(uri);
    await eventually('the deleted file to leave the index', async () => {
      const hits = await api.retrieve(uri, 'zebraQuokkaChecksum', 5);
      return hits.some((h) => h.file === 'src/app/checksum.ts') ? undefined : true;
    });
  });

  it('a file deleted while its edit waits to be indexed leaves the index for good', async () => {
    // The race behind a CI timeout: an unsaved edit's buffer is sent liveUpdateDelayMs after the
    // edit, the delete ~300 ms after its event; a buffer sent after the delete put the file back.
    const uri = fileUri('src/app/walrusPending.ts');
    const inIndex = async (): Promise<boolean> => (await api.retrieve(uri, 'walrusPendingTotal', 5)).some((h) => h.file === 'src/app/walrusPending.ts');
    const delayMs = 4000;
    const reporecall = vscode.workspace.getConfiguration('reporecall');
    await vscode.workspace.fs.writeFile(uri, Buffer.from('export function walrusPendingTotal(xs: number[]): number {\n  return xs.length;\n}\n'));
    await eventually('the new file to be indexed', async () => ((await inIndex()) ? true : undefined));
    await reporecall.update('index.liveUpdateDelayMs', delayMs, vscode.ConfigurationTarget.Global);
    const barrier = fileUri('src/app/walrusBarrier.ts');
    try {
      const doc = await vscode.workspace.openTextDocument(uri);
      const editor = await vscode.window.showTextDocument(doc);
      await editor.edit((e) => e.insert(new vscode.Position(3, 0), 'export const walrusPendingSeed = 7;\n'));
      const edited = Date.now();
      await vscode.workspace.fs.delete(uri);
      await eventually('the deleted file to leave the index', async () => ((await inIndex()) ? undefined : true));
      // Not a timed assertion: this process's timer for the edit (set before this one, shorter) has
      // fired by the time this one does, and whatever it sent the engine applies before a later
      // change (the engine applies changes one at a time, in order), which the barrier file is.
      await new Promise((r) => setTimeout(r, Math.max(0, edited + delayMs + 100 - Date.now())));
      await vscode.workspace.fs.writeFile(barrier, Buffer.from('export function walrusBarrierMark(): void {}\n'));
      await eventually('the barrier file to be indexed', async () => ((await api.retrieve(barrier, 'walrusBarrierMark', 5)).some((h) => h.file === 'src/app/walrusBarrier.ts') ? true : undefined));
      assert.strictEqual(await inIndex(), false, 'the deleted file came back into the index');
    } finally {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      await reporecall.update('index.liveUpdateDelayMs', undefined, vscode.ConfigurationTarget.Global);
      await vscode.workspace.fs.delete(barrier).then(undefined, () => undefined);
    }
  });

  it('pauses, resumes and rebuilds the index from scratch', async () => {
    await vscode.commands.executeCommand('reporecall.pauseIndexing');
    assert.deepStrictEqual(api.report().map((r) => r.state), ['paused']);
    await vscode.commands.executeCommand('reporecall.resumeIndexing');
    assert.deepStrictEqual(api.report().map((r) => r.state), ['ready']);
    const before = api.report()[0].stats;
    const after = await vscode.commands.executeCommand<Array<{ state: string; stats?: { files: number; chunks: number; changedFiles: number } }>>('reporecall.rebuildIndex');
    assert.strictEqual(after[0].state, 'ready', JSON.stringify(after));
    assert.strictEqual(after[0].stats?.files, before?.files);
    assert.strictEqual(after[0].stats?.chunks, before?.chunks);
    // From scratch: every file was parsed again.
    assert.strictEqual(after[0].stats?.changedFiles, after[0].stats?.files, JSON.stringify(after[0].stats));
    const hits = await api.retrieve(fileUri('src/geometry/hull.ts'), 'convexHullMonotoneChain', 3);
    assert.ok(hits.some((h) => h.file === 'src/geometry/hull.ts'), JSON.stringify(hits.map((h) => h.file)));
  });

  it('survives the engine process being killed: reports it restarting, then serves from a new one', async () => {
    const [before] = api.report();
    assert.strictEqual(before.engineState, 'ready');
    assert.ok(before.enginePid && before.enginePid !== process.pid, 'the engine runs in its own process');
    const seen = new Set<string>();
    const watcher = setInterval(() => seen.add(api.report()[0].engineState), 10);
    try {
      process.kill(before.enginePid, 'SIGKILL');
      // The folder goes back to 'ready' once the new engine has re-checked the workspace (a short
      // indexAll follows every restart, so 'indexing' may be seen in between).
      const after = await eventually('a new engine process, folder ready again', async () => {
        const [r] = api.report();
        return r.engineState === 'ready' && r.state === 'ready' && r.enginePid !== undefined && r.enginePid !== before.enginePid ? r : undefined;
      });
      assert.ok(seen.has('restarting'), `states seen: ${[...seen].join(', ')}`);
      assert.notStrictEqual(after.enginePid, before.enginePid);
      // This extension host lived through it, and the new engine answers from the index on disk.
      const hits = await api.retrieve(fileUri('src/geometry/hull.ts'), 'convexHullMonotoneChain', 3);
      assert.ok(hits.some((h) => h.file === 'src/geometry/hull.ts'), JSON.stringify(hits.map((h) => h.file)));
    } finally {
      clearInterval(watcher);
    }
  });
});
