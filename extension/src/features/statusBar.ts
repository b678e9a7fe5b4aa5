// Status bar item: index state with the phase of a running build (`parsing 1228/1548`,
// `embedding 64/6491`), size across folders, and whether completions are off, snoozed (minutes
// left) or off for the active editor's language; click opens the RepoRecall menu.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { config } from '../config';
import type { Ctx } from '../ctx';
import { combined } from '../dispose';
import { progressLabel, type FolderIndex } from '../folderIndex';
import { stepsAsideForCopilot } from './copilotPresence';
import { teamStateIsProblem, teamStateLabel } from './teamIndex';

function folderLine(fi: FolderIndex): string {
  const s = fi.stats;
  // modelWarning: why the configured model is not in use, or why there is none (no ONNX runtime here).
  const model = `model ${s?.modelDir ? path.basename(s.modelDir) : 'off'}${s?.modelWarning ? ` (${s.modelWarning})` : ''}`;
  // scanWarnings: ignore rules not applied (beyond the matching budget), each naming its file.
  const rules = s?.scanWarnings?.length ? `, ignore rules not applied: ${s.scanWarnings.join('; ')}` : '';
  const size = s ? `${s.files} files, ${s.chunks} chunks, ${model}${rules}` : 'no index yet';
  const progress = fi.progress ? ` (${progressLabel(fi.progress)})` : '';
  const engine = fi.client.state === 'restarting' ? `, engine restarting after: ${fi.client.error ?? 'a crash'}` : '';
  const t = fi.client.teamState;
  const team = t ? `; ${teamStateLabel(t)}${t.message ? ` (${t.message})` : ''}` : '';
  // Queries answer from the last commit plus the engine's changes in memory; nothing is saved.
  const paused = s?.updatesPaused ? `; updates to the index on disk paused: ${s.updatesPaused}` : '';
  return `${fi.folder.name}: ${fi.state}${progress}, ${size}${fi.error ? ` (${fi.error})` : ''}${engine}${paused}${team}`;
}

/** What the completion switches say, for the status bar text (empty when completions are on). */
export function completionNote(ctx: Ctx): string {
  if (!config.completionEnabled()) return ' · completions off';
  const left = ctx.completions.snoozeMinutesLeft();
  if (left > 0) return ` · snoozed ${left} min`;
  const lang = vscode.window.activeTextEditor?.document.languageId;
  if (lang && !config.completionEnabledFor(lang)) return ` · off for ${lang}`;
  if (lang && stepsAsideForCopilot(lang)) return ' · context for Copilot';
  return '';
}

export function registerStatusBar(ctx: Ctx): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('reporecall.status', vscode.StatusBarAlignment.Right, 100);
  item.name = 'RepoRecall';
  item.command = 'reporecall.showMenu';
  let countdown: NodeJS.Timeout | undefined;
  const update = (): void => {
    const folders = ctx.allFolders();
    let text: string;
    if (!folders.length) {
      text = '$(database) RepoRecall: no folder';
    } else if (folders.some((f) => f.state === 'error')) {
      text = '$(error) RepoRecall: error';
    } else if (folders.some((f) => f.client.state === 'restarting')) {
      // The engine process crashed or hung; EngineClient brings it back with backoff.
      text = '$(warning) RepoRecall: engine restarting';
    } else if (folders.some((f) => f.client.state === 'starting' && f.state === 'ready')) {
      text = '$(sync~spin) RepoRecall: opening index';
    } else if (folders.some((f) => f.state === 'indexing' || f.state === 'starting')) {
      const p = folders.find((f) => f.progress)?.progress;
      text = `$(sync~spin) RepoRecall: ${progressLabel(p)}`;
    } else if (folders.every((f) => f.state === 'paused')) {
      text = '$(debug-pause) RepoRecall: paused';
    } else {
      const files = folders.reduce((n, f) => n + (f.stats?.files ?? 0), 0);
      const chunks = folders.reduce((n, f) => n + (f.stats?.chunks ?? 0), 0);
      text = `$(database) RepoRecall: ${files} files · ${chunks} chunks`;
      // The team index: synced, or why the index was built locally (none published, another model, unreachable).
      const states = folders.map((f) => f.client.teamState).filter((x) => x !== undefined);
      const worst = states.find((x) => teamStateIsProblem(x)) ?? states.find((x) => x.state !== 'synced') ?? states[0];
      if (worst) text = `${teamStateIsProblem(worst) ? '$(warning)' : '$(database)'} RepoRecall: ${files} files · ${chunks} chunks · ${teamStateLabel(worst)}`;
      else if (folders.some((f) => f.stats?.updatesPaused)) text = `$(lock) RepoRecall: ${files} files · ${chunks} chunks · updates paused`;
    }
    const note = completionNote(ctx);
    item.text = note ? `${text}${note}` : text;
    ctx.recorder.noteStatus(item.text);
    item.tooltip = [...folders.map(folderLine), note ? `Completions:${note.slice(2)}` : ''].filter(Boolean).join('\n') || 'RepoRecall';
    // The minutes left of a snooze are shown; refreshed while it runs.
    const snoozed = ctx.completions.snoozeMinutesLeft() > 0;
    if (snoozed && !countdown) countdown = setInterval(update, 15_000);
    if (!snoozed && countdown) {
      clearInterval(countdown);
      countdown = undefined;
    }
  };
  update();
  item.show();
  return combined(
    item,
    ctx.onDidChangeIndexes(update),
    ctx.completions.onDidChange(update),
    vscode.window.onDidChangeActiveTextEditor(update),
    { dispose: () => countdown && clearInterval(countdown) },
  );
}
