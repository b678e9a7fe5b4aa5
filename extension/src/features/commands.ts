// Index management commands, the status bar menu and the readiness signal used by tests.
import * as vscode from 'vscode';
import type { Ctx, FolderReport } from '../ctx';
import { OPENAI_KEY_SECRET } from './completionSource';

export function registerCommands(ctx: Ctx): void {
  ctx.push(
    vscode.commands.registerCommand('reporecall.rebuildIndex', async () => {
      await Promise.all(ctx.allFolders().map((fi) => fi.rebuild()));
      return ctx.report();
    }),
    vscode.commands.registerCommand('reporecall.pauseIndexing', () => {
      for (const fi of ctx.allFolders()) fi.pause();
      void vscode.commands.executeCommand('setContext', 'reporecall.paused', true);
    }),
    vscode.commands.registerCommand('reporecall.resumeIndexing', async () => {
      void vscode.commands.executeCommand('setContext', 'reporecall.paused', false);
      await Promise.all(ctx.allFolders().map((fi) => fi.resume()));
    }),
    vscode.commands.registerCommand('reporecall.showLog', () => ctx.log.show(true)),
    vscode.commands.registerCommand('reporecall.setOpenAiApiKey', async () => {
      const key = await vscode.window.showInputBox({ prompt: 'API key for the OpenAI-compatible endpoint (empty to remove)', password: true, ignoreFocusOut: true });
      if (key === undefined) return;
      if (key) await ctx.extension.secrets.store(OPENAI_KEY_SECRET, key);
      else await ctx.extension.secrets.delete(OPENAI_KEY_SECRET);
    }),
    /** Resolves when every folder has finished its first indexing run: for tests and scripts. */
    vscode.commands.registerCommand('reporecall.waitReady', (): Promise<FolderReport[]> => ctx.whenReady()),
    vscode.commands.registerCommand('reporecall.showMenu', async () => {
      const paused = ctx.allFolders().some((f) => f.isPaused);
      const entries: Array<vscode.QuickPickItem & { command: string }> = [
        { label: '$(search) Find Related Code', command: 'reporecall.findRelated' },
        { label: '$(list-tree) Show Retrieved Context', description: 'what the last completion was built from', command: 'reporecall.showRetrievedContext' },
        paused
          ? { label: '$(debug-continue) Resume Indexing', command: 'reporecall.resumeIndexing' }
          : { label: '$(debug-pause) Pause Indexing', command: 'reporecall.pauseIndexing' },
        { label: '$(refresh) Rebuild Index', description: 'delete and build again', command: 'reporecall.rebuildIndex' },
        { label: '$(output) Show Log', command: 'reporecall.showLog' },
        { label: '$(gear) Settings', command: 'workbench.action.openSettings' },
      ];
      const detail = ctx.report().map((r) => `${r.folder}: ${r.state}${r.stats ? `, ${r.stats.files} files, ${r.stats.chunks} chunks` : ''}`).join(' · ');
      const choice = await vscode.window.showQuickPick(entries, { title: 'RepoRecall', placeHolder: detail });
      if (!choice) return;
      if (choice.command === 'workbench.action.openSettings') await vscode.commands.executeCommand(choice.command, 'reporecall');
      else await vscode.commands.executeCommand(choice.command);
    }),
  );
}
