// The team index in the editor (reporecall.teamIndex.*): its password in VS Code's SecretStorage,
// set and cleared by commands and keyed by the exact URL (teamIndexUrl.ts), so the setting never
// holds it and it is only sent to the URL it was given for; a password typed into the URL is moved
// to the secret storage and the setting rewritten without it. The engine (its own process) syncs
// the published index and searches it locally (engine/src/team/sync.ts).
import * as vscode from 'vscode';
import type { TeamState } from '../../../engine/src/public';
import type { Ctx } from '../ctx';
import { combined } from '../dispose';
import { SECTION } from '../settings';
import { TEAM_SECRET_PREFIX, teamSecretKey } from '../teamIndexUrl';
import { currentTeamUrl, moveEmbeddedPasswords } from '../teamSecrets';

export function registerTeamIndex(ctx: Ctx): vscode.Disposable {
  return combined(
    vscode.commands.registerCommand('reporecall.setTeamIndexPassword', async (given?: string) => {
      const url = currentTeamUrl();
      if (!url) {
        void vscode.window.showErrorMessage('RepoRecall: set reporecall.teamIndex.url (postgres://user@host:5432/database) first; the password is stored for that URL only.');
        return;
      }
      const pw = given ?? (await vscode.window.showInputBox({ prompt: `Password for the team index ${url} (kept in VS Code's secret storage, sent only to this URL)`, password: true, ignoreFocusOut: true }));
      if (!pw) return;
      await ctx.extension.secrets.store(teamSecretKey(url), pw);
    }),
    vscode.commands.registerCommand('reporecall.clearTeamIndexPassword', async () => {
      const url = currentTeamUrl();
      if (url) await ctx.extension.secrets.delete(teamSecretKey(url));
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.teamIndex.url`)) void moveEmbeddedPasswords(ctx.extension.secrets);
    }),
    // A password set or cleared reopens the engines reading that URL.
    ctx.extension.secrets.onDidChange((e) => {
      if (e.key.startsWith(TEAM_SECRET_PREFIX)) void ctx.reopenTeamFolders(e.key.slice(TEAM_SECRET_PREFIX.length));
    }),
  );
}

/** The status bar's words for a team index state: synced, downloading, or why the index is local. */
export function teamStateLabel(s: TeamState | undefined): string | undefined {
  if (!s) return undefined;
  switch (s.state) {
    case 'checking':
      return 'team index checking';
    case 'downloading':
      return s.total ? `team index ${Math.floor((100 * (s.done ?? 0)) / s.total)}%` : 'team index downloading';
    case 'synced':
      return `team index ${s.commit ? s.commit.slice(0, 8) : 'synced'}`;
    case 'local':
      return 'team index: none published, local';
    case 'ignored':
      return 'team index ignored (other model), local';
    case 'unreachable':
      return 'team index unreachable, local';
    case 'error':
      return 'team index error, local';
  }
}

/** Whether the state is worth a warning icon (the sync failed or was refused). */
export function teamStateIsProblem(s: TeamState): boolean {
  return s.state === 'ignored' || s.state === 'unreachable' || s.state === 'error';
}
