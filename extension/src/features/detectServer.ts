// "RepoRecall: Detect Local Model Server": on request only, looks for model servers on this
// machine's usual ports (backends/detect.ts), lists the servers and their models in a QuickPick and
// makes the one picked the completion backend. Says so plainly when none answers.
import * as vscode from 'vscode';
import { DEFAULT_PROBES, detectServers, settingsFor, type DetectedServer, type ProbeTarget } from '../backends/detect';
import type { Ctx } from '../ctx';

export const DETECT_COMMAND = 'reporecall.detectLocalModelServer';

/** Optional arguments, for scripts and tests: other ports, and a model to take without asking. */
export interface DetectArgs {
  ports?: number[];
  /** Take the first server offering this model instead of showing the QuickPick. */
  model?: string;
}

export interface DetectResult {
  found: DetectedServer[];
  chosen?: { server: DetectedServer; model?: string; settings: Record<string, unknown> };
}

interface Item extends vscode.QuickPickItem {
  server: DetectedServer;
  model?: string;
}

/** Writes where it takes effect: the workspace when it already sets the key, otherwise the user settings. */
async function write(settings: Record<string, unknown>): Promise<void> {
  const cfg = vscode.workspace.getConfiguration('reporecall');
  for (const [key, value] of Object.entries(settings)) {
    const inspected = cfg.inspect(key);
    const target = inspected?.workspaceFolderValue !== undefined || inspected?.workspaceValue !== undefined
      ? vscode.ConfigurationTarget.Workspace
      : vscode.ConfigurationTarget.Global;
    await cfg.update(key, value, target);
  }
}

export async function detectLocalModelServer(ctx: Ctx, args: DetectArgs = {}): Promise<DetectResult> {
  const targets: readonly ProbeTarget[] = args.ports?.length ? args.ports.map((port) => ({ port })) : DEFAULT_PROBES;
  const tried = targets.map((t) => `${t.expect ? `${t.expect} on ` : ''}${t.port}`).join(', ');
  let cancelled = false;
  const found = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'RepoRecall: looking for local model servers…', cancellable: true },
    (_progress, token) => {
      const controller = new AbortController();
      token.onCancellationRequested(() => { cancelled = true; controller.abort(); });
      return detectServers({ targets, signal: controller.signal }).catch(() => [] as DetectedServer[]);
    },
  );
  if (cancelled) return { found: [] };
  ctx.log.info(`detect local model server: tried ${tried}; found ${found.map((s) => `${s.label} at ${s.baseUrl} (${s.models.join(', ') || 'no models'})`).join('; ') || 'none'}`);
  if (!found.length) {
    const open = 'Open Settings';
    void vscode.window.showInformationMessage(
      `RepoRecall: no local model server found (tried ${tried} on 127.0.0.1). Start one (e.g. \`ollama serve\` or \`llama-server\`), or set reporecall.completion.backend by hand.`,
      open,
    ).then((c) => { if (c === open) void vscode.commands.executeCommand('workbench.action.openSettings', 'reporecall.completion.backend'); });
    return { found };
  }
  const items: Item[] = found.flatMap((server) => (server.models.length ? server.models : [undefined]).map((model) => ({
    server,
    model,
    label: model ? `$(server) ${model}` : `$(server) ${server.label}`,
    description: `${server.label} · ${server.baseUrl}`,
    detail: model ? undefined : 'no model reported: pick it, then set the model name in the settings',
  })));
  const chosen = args.model !== undefined
    ? items.find((i) => i.model === args.model)
    : await vscode.window.showQuickPick(items, { title: 'RepoRecall: use a local model server for completions', placeHolder: `${found.length} server(s) found; pick a model`, matchOnDescription: true });
  if (!chosen) return { found };
  const settings = settingsFor(chosen.server, chosen.model);
  await write(settings);
  ctx.log.info(`detect local model server: set ${JSON.stringify(settings)}`);
  void vscode.window.showInformationMessage(`RepoRecall: completions now come from ${chosen.server.label}${chosen.model ? ` (${chosen.model})` : ''} at ${chosen.server.baseUrl}.`);
  return { found, chosen: { server: chosen.server, model: chosen.model, settings } };
}

export function registerDetectServer(ctx: Ctx): vscode.Disposable {
  return vscode.commands.registerCommand(DETECT_COMMAND, (args?: DetectArgs) => detectLocalModelServer(ctx, args ?? {}));
}
