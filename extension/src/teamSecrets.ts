// The team index password in VS Code's SecretStorage (features/teamIndex.ts has the commands): read
// for the URLs the folders use, and moved there from a URL setting that was given one.
import * as vscode from 'vscode';
import { config } from './config';
import { SECTION } from './settings';
import { splitTeamUrl, teamSecretKey } from './teamIndexUrl';

/** The URL of the folder of the active editor, else of the first folder with one (without a password). */
export function currentTeamUrl(): string | undefined {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const active = vscode.window.activeTextEditor && vscode.workspace.getWorkspaceFolder(vscode.window.activeTextEditor.document.uri);
  for (const f of active ? [active, ...folders] : folders) {
    const url = config.teamIndexUrlWithoutPassword(f);
    if (url) return url;
  }
  return undefined;
}

/**
 * Moves a password written into reporecall.teamIndex.url to the secret storage: the user's setting
 * always, a workspace's only once it is trusted (an untrusted repository's settings are not read).
 */
export async function moveEmbeddedPasswords(secrets: vscode.SecretStorage): Promise<void> {
  const scopes: [vscode.ConfigurationTarget, vscode.WorkspaceFolder | undefined][] = [
    [vscode.ConfigurationTarget.Global, undefined],
    ...(vscode.workspace.isTrusted ? [[vscode.ConfigurationTarget.Workspace, undefined] as [vscode.ConfigurationTarget, undefined]] : []),
    ...(vscode.workspace.isTrusted ? vscode.workspace.workspaceFolders ?? [] : []).map((f): [vscode.ConfigurationTarget, vscode.WorkspaceFolder] => [vscode.ConfigurationTarget.WorkspaceFolder, f]),
  ];
  for (const [target, folder] of scopes) {
    const section = vscode.workspace.getConfiguration(SECTION, folder);
    const i = section.inspect<string>('teamIndex.url');
    const value = target === vscode.ConfigurationTarget.Global ? i?.globalValue : target === vscode.ConfigurationTarget.Workspace ? i?.workspaceValue : i?.workspaceFolderValue;
    if (typeof value !== 'string' || !value) continue;
    const split = splitTeamUrl(value);
    if ('error' in split || split.password === undefined) continue;
    await secrets.store(teamSecretKey(split.url), split.password);
    await section.update('teamIndex.url', split.url, target);
    void vscode.window.showWarningMessage(`RepoRecall: reporecall.teamIndex.url held a password. It was moved to VS Code's secret storage (used only for ${split.url}) and the setting now holds the URL without it. Use "RepoRecall: Set Team Index Password" to change it.`);
  }
}

/** The stored password of every configured team URL (ctx.ts hands them to the engines it opens). */
export async function loadTeamPasswords(secrets: vscode.SecretStorage): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const f of vscode.workspace.workspaceFolders ?? []) {
    const url = config.teamIndexUrlWithoutPassword(f);
    if (!url || out.has(url)) continue;
    const pw = await secrets.get(teamSecretKey(url));
    if (pw) out.set(url, pw);
  }
  return out;
}
