// "RepoRecall: Detect Local Model Server" in the real extension host: a llama.cpp server and an
// Ollama server (node http on 127.0.0.1, ephemeral ports, speaking their real discovery and
// completion endpoints) are found; the pick becomes the backend settings, and the next inline
// completion comes from the server picked, grounded in the repository. Where nothing listens the
// command finds nothing and changes nothing. Settings are restored after (the privacy suite needs
// the built-in source).
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { DetectResult } from '../../extension/src/features/detectServer';
import { closedPort, modelServer, type ModelServer } from '../unit/modelServer.helpers';
import { activatedApi, cancellationToken, fileUri, positionOf } from './helpers';

const KEYS = ['completion.backend', 'ollama.baseUrl', 'ollama.model', 'llamacpp.baseUrl', 'openai.baseUrl', 'openai.model', 'openai.fimTemplate'];

describe('Detect Local Model Server command', () => {
  const servers: ModelServer[] = [];
  const cfg = () => vscode.workspace.getConfiguration('reporecall');

  after(async () => {
    for (const key of KEYS) await cfg().update(key, undefined, vscode.ConfigurationTarget.Global);
    await Promise.all(servers.map((s) => s.close()));
  });

  it('reports none where none listens and leaves the settings alone', async () => {
    await activatedApi();
    const result = await vscode.commands.executeCommand<DetectResult>('reporecall.detectLocalModelServer', { ports: [await closedPort(), await closedPort()] });
    assert.deepStrictEqual(result.found, []);
    assert.strictEqual(result.chosen, undefined);
    assert.strictEqual(cfg().get('completion.backend'), 'builtin');
  });

  it('finds the servers, sets the one picked, and the next completion comes from it', async () => {
    const api = await activatedApi();
    const answer = 'formatMetres(polygonPerimeterLength(fence));';
    const llama = await modelServer(answer, { flavor: 'llamacpp', models: ['qwen2.5-coder-1.5b-q8_0.gguf'] });
    const ollama = await modelServer(answer, { flavor: 'ollama', models: ['qwen2.5-coder:1.5b-base'] });
    servers.push(llama, ollama);
    const result = await vscode.commands.executeCommand<DetectResult>('reporecall.detectLocalModelServer', { ports: [llama.port, ollama.port], model: 'qwen2.5-coder-1.5b-q8_0.gguf' });
    assert.deepStrictEqual(result.found.map((s) => [s.kind, s.baseUrl, s.models]), [
      ['llamacpp', llama.base, ['qwen2.5-coder-1.5b-q8_0.gguf']],
      ['ollama', ollama.base, ['qwen2.5-coder:1.5b-base']],
    ]);
    assert.strictEqual(result.chosen?.server.kind, 'llamacpp');
    assert.strictEqual(cfg().get('completion.backend'), 'llamacpp');
    assert.strictEqual(cfg().get('llamacpp.baseUrl'), llama.base);

    // An existing file, left unchanged on disk: a file written here would be indexed and could
    // answer other suites' queries.
    const doc = await vscode.workspace.openTextDocument(fileUri('src/app/main.ts'));
    await vscode.window.showTextDocument(doc);
    try {
      const items = (await api.inlineCompletionProvider.provideInlineCompletionItems(
        doc, positionOf(doc, 'return `', 'return '.length), { triggerKind: vscode.InlineCompletionTriggerKind.Invoke, selectedCompletionInfo: undefined }, cancellationToken(),
      )) as vscode.InlineCompletionItem[] | undefined;
      assert.ok(items && items.length > 0, 'no inline completion item');
      const insert = typeof items[0].insertText === 'string' ? items[0].insertText : items[0].insertText.value;
      assert.strictEqual(insert, answer);
      const infill = llama.requests.filter((r) => r.url === '/infill');
      assert.strictEqual(infill.length, 1, JSON.stringify(llama.requests.map((r) => r.url)));
      const body = infill[0].body;
      assert.strictEqual(body.prompt, '  return ');
      assert.ok(String(body.input_prefix).endsWith('export function describeFence(): string {\n'), String(body.input_prefix));
      assert.ok(String(body.input_suffix).startsWith("`${padLabel('fence', 12)}"), String(body.input_suffix));
      assert.ok((body.input_extra as Array<{ filename: string }>).some((c) => c.filename.startsWith('src/')), JSON.stringify(body.input_extra));
      assert.strictEqual(body.cache_prompt, true);
      assert.strictEqual(ollama.requests.filter((r) => r.method === 'POST').length, 0, 'the server not picked is asked nothing');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });
});
