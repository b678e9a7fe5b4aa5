// Index management commands, the status bar menu and the readiness signal used by tests.
import * as vscode from 'vscode';
import type { Ctx, FolderReport } from '../ctx';
import { config } from '../config';
import { combined } from '../dispose';
import { OPENAI_KEY_SECRET } from './completionSource';
import { SNOOZE_CHOICES_MIN } from './completionControl';
import { progressLabel } from '../folderIndex';

export function registerCommands(ctx: Ctx): vscode.Disposable {
  return combined(
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
      const lang = vscode.window.activeTextEditor?.document.languageId;
      const on = config.completionEnabled();
      const left = ctx.completions.snoozeMinutesLeft();
      type Entry = vscode.QuickPickItem & { command?: string; args?: unknown[] };
      const entries: Entry[] = [
        { label: '$(search) Find Related Code', command: 'reporecall.findRelated' },
        { label: '$(list-tree) Show Retrieved Context', description: 'what the last completion was built from, or why none appeared', command: 'reporecall.showRetrievedContext' },
        { label: 'Completions', kind: vscode.QuickPickItemKind.Separator },
        on
          ? { label: '$(circle-slash) Turn Completions Off', command: 'reporecall.toggleCompletions' }
          : { label: '$(check) Turn Completions On', command: 'reporecall.toggleCompletions' },
        ...(left > 0
          ? [{ label: '$(bell) Resume Completions', description: `snoozed, ${left} min left`, command: 'reporecall.resumeCompletions' }]
          : SNOOZE_CHOICES_MIN.map((m) => ({ label: `$(bell-slash) Snooze Completions for ${m} min`, command: 'reporecall.snoozeCompletions', args: [m] }))),
        ...(lang
          ? [config.completionEnabledFor(lang)
              ? { label: `$(eye-closed) Disable Completions for ${lang}`, command: 'reporecall.toggleCompletionsForLanguage', args: [lang] }
              : { label: `$(eye) Enable Completions for ${lang}`, command: 'reporecall.toggleCompletionsForLanguage', args: [lang] }]
          : []),
        { label: 'Index', kind: vscode.QuickPickItemKind.Separator },
        paused
          ? { label: '$(debug-continue) Resume Indexing', command: 'reporecall.resumeIndexing' }
          : { label: '$(debug-pause) Pause Indexing', command: 'reporecall.pauseIndexing' },
        { label: '$(refresh) Rebuild Index', description: 'delete and build again', command: 'reporecall.rebuildIndex' },
        { label: '$(output) Show Log', command: 'reporecall.showLog' },
        { label: '$(gear) Settings', command: 'workbench.action.openSettings', args: ['reporecall'] },
      ];
      const choice = await vscode.window.showQuickPick(entries, { title: 'RepoRecall', placeHolder: menuSummary(ctx) });
      if (!choice?.command) return;
      await vscode.commands.executeCommand(choice.command, ...(choice.args ?? []));
    }),
  );
}

/** One line per folder, by the folder's name (its path says nothing the user does not know). */
export function menuSummary(ctx: Ctx): string {
  return ctx.allFolders().map((fi) => {
    const progress = fi.state === 'indexing' && fi.progress ? ` (${progressLabel(fi.progress)})` : '';
    return `${fi.folder.name}: ${fi.state}${progress}${fi.stats ? `, ${fi.stats.files} files, ${fi.stats.chunks} chunks` : ''}`;
  }).join(' · ');
}
