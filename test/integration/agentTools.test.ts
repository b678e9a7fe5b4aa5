// RepoRecall's agent tools as VS Code's agent mode calls them: vscode.lm.invokeTool on each
// language-model tool in the real extension host (code-server, VS Code 1.100), answered by the
// engine process from the fixture workspace's index. 1.100 has only a proposed MCP server API whose
// registration throws for 1.101's contribution point: activating and answering here shows the
// extension registers the MCP server only where the final API is (features/agentTools.ts).
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { activatedApi, cancellationToken } from './helpers';

interface ToolResult { content: Array<{ value?: unknown }> }
interface LmApi {
  tools: ReadonlyArray<{ name: string; description: string; inputSchema?: object }>;
  invokeTool(name: string, options: { input: object; toolInvocationToken: undefined }, token?: vscode.CancellationToken): Thenable<ToolResult>;
}
const lm = (): LmApi => (vscode as unknown as { lm: LmApi }).lm;

async function call(name: string, input: object, token = cancellationToken()): Promise<string> {
  const r = await lm().invokeTool(`reporecall_${name}`, { input, toolInvocationToken: undefined }, token);
  return r.content.map((p) => (typeof p.value === 'string' ? p.value : '')).join('\n');
}

describe('agent tools (vscode.lm.invokeTool)', () => {
  before(async () => {
    await activatedApi();
  });

  it('registers the four tools with their descriptions and schemas', () => {
    const ours = lm().tools.filter((t) => t.name.startsWith('reporecall_'));
    assert.deepStrictEqual(ours.map((t) => t.name).sort(), ['reporecall_completion_context', 'reporecall_find_definition', 'reporecall_find_related', 'reporecall_search_code']);
    assert.ok(ours.every((t) => t.description.length > 100 && t.inputSchema));
  });

  it('activates on this VS Code whatever MCP API it has (1.100: a proposed one that throws for our contribution)', () => {
    assert.strictEqual(vscode.extensions.getExtension('reporecall.reporecall')?.isActive, true, `VS Code ${vscode.version}`);
  });

  it('search_code finds code by description', async () => {
    const text = await call('search_code', { query: 'convex hull of points with the monotone chain', limit: 3 });
    assert.match(text, /^1\. src\/geometry\/hull\.ts:\d+-\d+ function convexHullMonotoneChain \(matched by /);
  });

  it('find_definition resolves a call to its definition', async () => {
    // main.ts line 13: `...formatMetres(polygonPerimeterLength(fence))}`.
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'src/app/main.ts'));
    const line = doc.lineAt(12).text;
    const text = await call('find_definition', { path: 'src/app/main.ts', line: 13, column: line.indexOf('polygonPerimeterLength') + 1 });
    assert.match(text, /^defines: resolved/);
    assert.match(text, /1\. src\/geometry\/hull\.ts:\d+-\d+ function/);
  });

  it('find_related gives the definition and the code using a symbol', async () => {
    const text = await call('find_related', { symbol: 'crossProduct' });
    assert.match(text, /src\/geometry\/point\.ts:\d+-\d+ function crossProduct: defines it/);
    assert.match(text, /src\/geometry\/hull\.ts:\d+-\d+ function convexHullMonotoneChain: mentions it/);
  });

  it('completion_context gives the packed context at a position', async () => {
    const text = await call('completion_context', { path: 'src/app/main.ts', line: 13, column: 3, budget_tokens: 300 });
    assert.match(text, /^Context for a completion at src\/app\/main\.ts:13:3: [1-9]\d* snippets, \d+ of 300 tokens\./);
    assert.match(text, /src\/(geometry\/hull|app\/format)\.ts/);
  });

  it('answers bad arguments and paths outside the workspace so the model can correct them', async () => {
    assert.match(await call('search_code', {}), /^Invalid arguments: 'query' is required/);
    assert.match(await call('completion_context', { path: '../../etc/passwd', line: 1 }), /^Invalid arguments: .*leaves the workspace/);
  });

  it('a call whose token is cancelled does not answer', async () => {
    const source = new vscode.CancellationTokenSource();
    source.cancel();
    await assert.rejects(call('search_code', { query: 'distance between points' }, source.token));
  });
});
