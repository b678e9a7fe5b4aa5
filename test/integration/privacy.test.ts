// With no model backend configured, RepoRecall makes no network connection at all: every way
// out of the extension host process (sockets, http/https, fetch) is watched while the features run,
// and the engine's own process is watched from /proc (its TCP/UDP sockets).
import * as assert from 'node:assert';
// `import x = require()` gives the modules themselves (not read-only namespace copies), so the
// watchers below replace the functions every caller in this process uses.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
import http = require('node:http');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
import https = require('node:https');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
import net = require('node:net');
import * as vscode from 'vscode';
import type { RepoRecallApi } from '../../extension/src/extension';
import { activatedApi, cancellationToken, fileUri, positionOf } from './helpers';
import { networkSocketsOf } from '../netSockets';

describe('privacy: no backend, no network', () => {
  let api: RepoRecallApi;
  const attempts: string[] = [];
  const restore: (() => void)[] = [];

  before(async () => {
    api = await activatedApi();
    const backend = vscode.workspace.getConfiguration('reporecall').get<string>('completion.backend');
    assert.ok(!backend || backend === 'builtin', `these tests need the default (built-in) source, not ${backend}`);
    const watch = <T extends object, K extends keyof T>(obj: T, key: K, label: string) => {
      const original = obj[key];
      (obj as Record<K, unknown>)[key] = function (this: unknown, ...args: unknown[]) {
        attempts.push(`${label} ${JSON.stringify(args[0])?.slice(0, 120)}`);
        return (original as unknown as (...a: unknown[]) => unknown).apply(this, args);
      } as T[K];
      restore.push(() => { obj[key] = original; });
    };
    watch(net.Socket.prototype, 'connect', 'net.Socket.connect');
    watch(http, 'request', 'http.request');
    watch(https, 'request', 'https.request');
    if (typeof globalThis.fetch === 'function') watch(globalThis, 'fetch', 'fetch');
  });

  after(() => {
    for (const r of restore.reverse()) r();
  });

  it('completion, hover and Find Related Code open no connection', async () => {
    const enginePids = api.report().map((r) => r.enginePid).filter((p): p is number => p !== undefined);
    assert.ok(enginePids.length > 0, 'the engine runs in its own process');
    const engineSockets = new Set<string>();
    const sampler = setInterval(() => enginePids.forEach((pid) => networkSocketsOf(pid).forEach((x) => engineSockets.add(`${pid} ${x}`))), 5);
    try {
      const uri = fileUri('src/geometry/privacyProbe.ts');
      const text = "import { Point } from './point';\n\nexport function probe(sorted: Point[]): Point[] {\n  const lower: Point[] = [];\n  for (const p of sorted) {\n    ";
      await vscode.workspace.fs.writeFile(uri, Buffer.from(`${text}\n  }\n  return lower;\n}\n`));
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc);
      const items = await api.inlineCompletionProvider.provideInlineCompletionItems(
        doc, doc.positionAt(text.length), { triggerKind: vscode.InlineCompletionTriggerKind.Automatic, selectedCompletionInfo: undefined }, cancellationToken(),
      );
      assert.ok(items, `the provider answered (it said: ${JSON.stringify(api.lastCompletionOutcome())})`);
      const main = await vscode.workspace.openTextDocument(fileUri('src/app/main.ts'));
      const pos = positionOf(main, 'polygonPerimeterLength(fence)', 3);
      await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', main.uri, pos);
      const related = await api.findRelated(main, pos);
      assert.ok(related.length > 0, 'Find Related Code answered');
      await vscode.workspace.fs.delete(uri);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    } finally {
      // A failure above must not leave the sampler reading a process later tests replace.
      clearInterval(sampler);
    }
    assert.deepStrictEqual(attempts, [], `network attempts: ${attempts.join('; ')}`);
    assert.deepStrictEqual([...engineSockets], [], 'network sockets of the engine process');
  });
});
