// RepoRecall's MCP server as VS Code 1.101+ offers it (contributes.mcpServerDefinitionProviders,
// lm.registerMcpServerDefinitionProvider: features/agentTools.ts). Runs only in code-server 4.139.1
// (VS Code 1.139, Node 24; scripts/vscode/test-mcp-vscode.sh), the main suites staying on 1.100.
// VS Code's own list of MCP server definitions, read by a probe extension through the proposed
// vscode.lm.mcpServerDefinitions (test/fixtures/mcp-probe), holds one for the workspace folder;
// launched as VS Code launches it, the official SDK's client lists the four tools and search_code
// answers from the editor's index. A setting that reopens the engine changes the definition.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { activatedApi, eventually, folder } from './helpers';

interface Definition { label: string; command: string; args?: string[]; env?: Record<string, string | number | null>; version?: string }
interface Probe { definitions(): Definition[] }

async function probe(): Promise<Probe> {
  const ext = vscode.extensions.getExtension<Probe>('reporecall-test.mcp-probe');
  if (!ext) throw new Error('the MCP probe extension (test/fixtures/mcp-probe) is not installed');
  return ext.isActive ? ext.exports : ext.activate();
}

/** RepoRecall's definition for the workspace folder in VS Code's list, once it is there (and `when` holds). */
function ours(p: Probe, when: (d: Definition) => boolean = () => true): Promise<Definition> {
  const label = `RepoRecall: ${folder().name}`;
  return eventually(`"${label}" among VS Code's MCP server definitions`, async () => {
    const d = p.definitions().find((x) => x.label === label);
    return d && when(d) ? d : undefined;
  });
}

describe(`MCP server offered to VS Code (${vscode.version})`, () => {
  let p: Probe;
  before(async () => {
    await activatedApi();
    p = await probe();
  });

  it('VS Code lists RepoRecall\'s server for the folder: the editor\'s Node running dist/mcp.js on its index', async () => {
    const d = await ours(p);
    assert.ok(fs.existsSync(d.command), `the command is a file: ${d.command}`);
    assert.strictEqual(path.basename(d.args?.[0] ?? ''), 'mcp.js');
    assert.ok(fs.existsSync(d.args![0]), `${d.args![0]} exists`);
    assert.strictEqual(d.args?.[1], folder().uri.fsPath);
    assert.ok(d.args?.includes('--index-dir'), JSON.stringify(d.args));
    assert.strictEqual(d.env?.ELECTRON_RUN_AS_NODE, '1');
  });

  it('launched as VS Code launches it, it lists the four tools and search_code answers from the index', async () => {
    const d = await ours(p);
    const env = { ...process.env, ...Object.fromEntries(Object.entries(d.env ?? {}).filter(([, v]) => v !== null).map(([k, v]) => [k, String(v)])) } as Record<string, string>;
    const transport = new StdioClientTransport({ command: d.command, args: d.args ?? [], env, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (b: Buffer) => (stderr += b.toString()));
    const client = new Client({ name: 'reporecall-vscode-test', version: '0.0.0' });
    try {
      await client.connect(transport);
      const tools = (await client.listTools()).tools.map((t) => t.name).sort();
      assert.deepStrictEqual(tools, ['completion_context', 'find_definition', 'find_related', 'search_code']);
      const r = (await client.callTool({ name: 'search_code', arguments: { query: 'convex hull of points with the monotone chain', limit: 3 } })) as CallToolResult;
      const text = (r.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
      assert.match(text, /src\/geometry\/hull\.ts:\d+-\d+ function convexHullMonotoneChain/, `${text}\n${stderr}`);
    } finally {
      await client.close();
    }
  });

  it('follows the engine: reopened without the dense signal, the server VS Code lists reads the index the same way', async () => {
    const settings = vscode.workspace.getConfiguration('reporecall', folder());
    await ours(p, (d) => !d.args?.includes('--no-dense'));
    await settings.update('index.dense', false, vscode.ConfigurationTarget.Workspace);
    try {
      const d = await ours(p, (x) => !!x.args?.includes('--no-dense'));
      assert.strictEqual(d.args?.[1], folder().uri.fsPath);
    } finally {
      await settings.update('index.dense', undefined, vscode.ConfigurationTarget.Workspace);
    }
    await ours(p, (d) => !d.args?.includes('--no-dense'));
    await activatedApi();
  });
});
