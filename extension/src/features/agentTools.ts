// RepoRecall's agent tools in VS Code: each as a language-model tool (package.json
// languageModelTools, vscode.lm.registerTool) that runs in the engine process (EngineClient.agentTool),
// so Copilot's agent mode can call them with no set-up; and, where VS Code has the API (1.101+), the
// MCP server itself (dist/mcp.js, run by the editor's own Node) offered per folder through
// lm.registerMcpServerDefinitionProvider. Both are registered only where the API exists (VS Code
// 1.100 keeps working) and only in a trusted workspace: an agent is a remote model.
import * as path from 'path';
import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import { DisposableStore } from '../dispose';
import { engineSettings } from '../config';
import type { FolderIndex } from '../folderIndex';

/** package.json's tool names: `reporecall_` and the engine's tool name (engine/src/agentTools/tools.ts). */
export const TOOL_PREFIX = 'reporecall_';
export const AGENT_TOOL_NAMES = ['search_code', 'find_definition', 'find_related', 'completion_context'] as const;
export const MCP_PROVIDER_ID = 'reporecall.mcp';

// The parts of the language-model API used here, typed locally: @types/vscode is 1.90, older than them.
interface ToolApi {
  registerTool(name: string, tool: { invoke(options: { input: unknown }, token: vscode.CancellationToken): Promise<unknown> }): vscode.Disposable;
  registerMcpServerDefinitionProvider?(id: string, provider: { onDidChangeMcpServerDefinitions?: vscode.Event<void>; provideMcpServerDefinitions(token: vscode.CancellationToken): unknown[] }): vscode.Disposable;
}
interface ToolClasses {
  LanguageModelToolResult: new (parts: unknown[]) => unknown;
  LanguageModelTextPart: new (text: string) => unknown;
  McpStdioServerDefinition?: new (label: string, command: string, args: string[], env?: Record<string, string | number | null>, version?: string) => unknown;
}

/** Registers the tools (and the MCP server where supported) now if the workspace is trusted, else once it is. */
export function registerAgentTools(c: Ctx): vscode.Disposable {
  const registered = new DisposableStore();
  const lm = (vscode as unknown as { lm?: Partial<ToolApi> }).lm;
  if (!lm?.registerTool) {
    c.log.info('agent tools: this VS Code has no language-model tool API (vscode.lm.registerTool); not offered');
    return registered;
  }
  const register = (): void => {
    for (const name of AGENT_TOOL_NAMES) registered.add(lm.registerTool!(TOOL_PREFIX + name, { invoke: (options, token) => invoke(c, name, options.input, token) }));
    const mcp = registerMcpServers(c, registered, lm as ToolApi);
    c.log.info(`agent tools: ${AGENT_TOOL_NAMES.length} language-model tools registered${mcp ? '; MCP server offered to VS Code' : ''}`);
  };
  if (vscode.workspace.isTrusted) {
    register();
    return registered;
  }
  c.log.info('agent tools: not registered until the workspace is trusted');
  registered.add(vscode.workspace.onDidGrantWorkspaceTrust(register));
  return registered;
}

/** The folder a call is about: the one holding the active editor, else the first. */
function folderForCall(c: Ctx): FolderIndex | undefined {
  const active = vscode.window.activeTextEditor?.document.uri;
  return (active && c.folderFor(active)) ?? c.allFolders()[0];
}

/** That folder, waiting while its engine is being reopened (a setting changed); undefined when no folder is open or the call is cancelled. */
async function folderWhenOpen(c: Ctx, token: vscode.CancellationToken): Promise<FolderIndex | undefined> {
  let fi = folderForCall(c);
  while (!fi && vscode.workspace.workspaceFolders?.length && !token.isCancellationRequested) {
    await new Promise<void>((resolve) => {
      const subs = [c.onDidChangeIndexes(() => done()), token.onCancellationRequested(() => done())];
      const done = (): void => { subs.forEach((d) => d.dispose()); resolve(); };
    });
    fi = folderForCall(c);
  }
  return fi;
}

async function invoke(c: Ctx, name: string, input: unknown, token: vscode.CancellationToken): Promise<unknown> {
  const classes = vscode as unknown as ToolClasses;
  const fi = await folderWhenOpen(c, token);
  if (token.isCancellationRequested) throw new vscode.CancellationError();
  if (!fi) throw new Error('RepoRecall has no indexed workspace folder open');
  const abort = new AbortController();
  const sub = token.onCancellationRequested(() => abort.abort());
  try {
    await fi.client.whenReady();
    const answer = await fi.client.agentTool(name, input, { signal: abort.signal });
    return new classes.LanguageModelToolResult([new classes.LanguageModelTextPart(answer.text)]);
  } catch (err) {
    // A bad argument goes back to the model as the tool's answer, so it can call again correctly.
    if ((err as Error).name === 'ToolInputError') return new classes.LanguageModelToolResult([new classes.LanguageModelTextPart(`Invalid arguments: ${(err as Error).message}`)]);
    throw err;
  } finally {
    sub.dispose();
  }
}

/** First VS Code with the finalized MCP server definition API (1.100 has a proposed one under another contribution name, which throws). */
const MCP_API_SINCE: readonly [number, number] = [1, 101];

export function hasFinalMcpApi(version: string): boolean {
  const [major, minor] = version.split('.').map((n) => parseInt(n, 10));
  return major > MCP_API_SINCE[0] || (major === MCP_API_SINCE[0] && minor >= MCP_API_SINCE[1]);
}

/** One stdio MCP server per folder, reading that folder's index (VS Code 1.101+); false where the API is missing or refuses. */
function registerMcpServers(c: Ctx, registered: DisposableStore, lm: ToolApi): boolean {
  const { extensionPath } = c.extension;
  const Definition = (vscode as unknown as ToolClasses).McpStdioServerDefinition;
  if (!lm.registerMcpServerDefinitionProvider || !Definition || !hasFinalMcpApi(vscode.version)) return false;
  const changed = new vscode.EventEmitter<void>();
  const version = String((c.extension.extension.packageJSON as { version: string }).version);
  const definitions = () => c.allFolders().map((fi) => ({ label: `RepoRecall: ${fi.folder.name}`, args: mcpArgs(fi, extensionPath) }));
  // A folder added or removed, or an engine reopened with other settings (another index or model):
  // VS Code asks again, only when what it would get differs.
  let offered = JSON.stringify(definitions());
  const maybeChanged = (): void => {
    const now = JSON.stringify(definitions());
    if (now === offered) return;
    offered = now;
    changed.fire();
  };
  registered.add(changed, vscode.workspace.onDidChangeWorkspaceFolders(maybeChanged), c.onDidChangeIndexes(maybeChanged));
  try {
    registered.add(lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
      onDidChangeMcpServerDefinitions: changed.event,
      provideMcpServerDefinitions: () => definitions().map((d) => new Definition(d.label, process.execPath, d.args, { ELECTRON_RUN_AS_NODE: '1' }, version)),
    }));
    return true;
  } catch (err) {
    // Never fail activation over it: the language-model tools work without.
    c.log.warn(`agent tools: the MCP server could not be offered to VS Code ${vscode.version}: ${(err as Error).message}`);
    return false;
  }
}

/** dist/mcp.js on the folder, reading the editor's index with the folder's model and patterns. */
export function mcpArgs(fi: FolderIndex, extensionPath: string): string[] {
  const s = engineSettings(fi.folder);
  return [
    path.join(extensionPath, 'dist', 'mcp.js'), fi.folder.uri.fsPath, '--index-dir', fi.indexDir,
    ...(s.userModelDir ? ['--model', s.userModelDir] : []), ...(s.dense ? [] : ['--no-dense']),
    ...s.excludePatterns.flatMap((p) => ['--exclude', p]), ...s.secretPatterns.flatMap((p) => ['--deny', p]),
  ];
}
