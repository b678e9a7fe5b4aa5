// Status bar item: index state and size across folders; click opens the RepoRecall menu.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import type { FolderIndex } from '../folderIndex';

function folderLine(fi: FolderIndex): string {
  const s = fi.stats;
  // modelWarning: why the configured model is not in use, or why there is none (no ONNX runtime here).
  const model = `model ${s?.modelDir ? path.basename(s.modelDir) : 'off'}${s?.modelWarning ? ` (${s.modelWarning})` : ''}`;
  const size = s ? `${s.files} files, ${s.chunks} chunks, ${model}` : 'no index yet';
  const progress = fi.progress ? ` (${fi.progress.phase} ${fi.progress.done}/${fi.progress.total})` : '';
  const engine = fi.client.state === 'restarting' ? `, engine restarting after: ${fi.client.error ?? 'a crash'}` : '';
  return `${fi.folder.name}: ${fi.state}${progress}, ${size}${fi.error ? ` (${fi.error})` : ''}${engine}`;
}

export function registerStatusBar(ctx: Ctx): void {
  const item = vscode.window.createStatusBarItem('reporecall.status', vscode.StatusBarAlignment.Right, 100);
  item.name = 'RepoRecall';
  item.command = 'reporecall.showMenu';
  const update = (): void => {
    const folders = ctx.allFolders();
    if (!folders.length) {
      item.text = '$(database) RepoRecall: no folder';
    } else if (folders.some((f) => f.state === 'error')) {
      item.text = '$(error) RepoRecall: error';
    } else if (folders.some((f) => f.client.state === 'restarting')) {
      // The engine process crashed or hung; EngineClient brings it back with backoff.
      item.text = '$(warning) RepoRecall: engine restarting';
    } else if (folders.some((f) => f.client.state === 'starting' && f.state === 'ready')) {
      item.text = '$(sync~spin) RepoRecall: opening index';
    } else if (folders.some((f) => f.state === 'indexing' || f.state === 'starting')) {
      const p = folders.find((f) => f.progress)?.progress;
      item.text = `$(sync~spin) RepoRecall: indexing${p ? ` ${p.done}/${p.total}` : ''}`;
    } else if (folders.every((f) => f.state === 'paused')) {
      item.text = '$(debug-pause) RepoRecall: paused';
    } else {
      const files = folders.reduce((n, f) => n + (f.stats?.files ?? 0), 0);
      const chunks = folders.reduce((n, f) => n + (f.stats?.chunks ?? 0), 0);
      item.text = `$(database) RepoRecall: ${files} files · ${chunks} chunks`;
    }
    item.tooltip = folders.map(folderLine).join('\n') || 'RepoRecall';
  };
  update();
  item.show();
  ctx.push(item, ctx.onDidChangeIndexes(update));
}
