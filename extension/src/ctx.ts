// The extension's context: owns every disposable, the per-folder indexes and the shared state
// features read (the completion switches, recently used files, the recorder of what they last did).
// Features receive it; nothing else is global.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { IndexStats, TeamState } from '../../engine/src/public';
import { FolderIndex, type FolderIndexPaths } from './folderIndex';
import { HypothesisSource } from './backends/hypothetical';
import { CompletionControl } from './completionSwitches';
import { Recorder } from './recorder';
import { Timings } from './timings';
import { disposeEach, throwCollected } from './dispose';
import { engineSettings } from './config';
import { loadTeamPasswords, moveEmbeddedPasswords } from './teamSecrets';

export interface FolderReport {
  folder: string;
  state: string;
  stats?: IndexStats;
  error?: string;
  /** The folder's engine process (it runs outside the extension host), and its client's state. */
  enginePid?: number;
  engineState: string;
  /** The team index's state, where one is configured. */
  team?: TeamState;
}

export class Ctx implements vscode.Disposable {
  readonly log: vscode.LogOutputChannel;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly folders = new Map<string, FolderIndex>();
  private readonly foldersChanged = new vscode.EventEmitter<void>();
  /** Fires when any folder's state, progress or stats change. */
  readonly onDidChangeIndexes = this.foldersChanged.event;
  /** What the features last did (last completion context and outcome, hover timing, ...), for the API. */
  readonly recorder = new Recorder();
  /** Snooze, per-language switch and the toggle (completionSwitches.ts; its commands: features/completionControl.ts). */
  readonly completions: CompletionControl;
  /** The last completion shown or hypothetical continuation asked for (hypothetical-code expansion). */
  readonly hypotheses = new HypothesisSource();
  private readonly recent: string[] = [];
  private readonly paths: FolderIndexPaths;
  /** Per-request timings (completion, hover, Find Related Code); see timings.ts. */
  readonly timings = new Timings();

  /** Team index passwords by URL, read from the secret storage before the engines that need them open. */
  private teamPasswords = new Map<string, string>();
  /** Settles once the folders are open (a team index's password is read first). */
  private started: Promise<void> = Promise.resolve();

  constructor(readonly extension: vscode.ExtensionContext) {
    this.log = vscode.window.createOutputChannel('RepoRecall', { log: true });
    this.completions = new CompletionControl({ globalState: extension.globalState, log: this.log, recorder: this.recorder, relPathOf: (uri) => this.folderFor(uri)?.relPath(uri) });
    this.push(this.log, this.foldersChanged, this.completions);
    this.paths = resolvePaths(extension);
    this.log.info(`worker ${this.paths.workerPath}; model ${this.paths.modelDir ?? '(engine default)'}; grammars ${this.paths.grammarDir ?? '(engine default)'}`);
  }

  push(...disposables: vscode.Disposable[]): void {
    this.subscriptions.push(...disposables);
  }

  /** Reopens the engines reading the team index at `url` (its password was set or cleared). */
  async reopenTeamFolders(url: string): Promise<void> {
    await moveEmbeddedPasswords(this.extension.secrets);
    this.teamPasswords = await loadTeamPasswords(this.extension.secrets);
    for (const fi of [...this.folders.values()]) {
      if (engineSettings(fi.folder).team?.url !== url) continue;
      this.log.info(`[${fi.folder.name}] team index password changed; reopening its engine`);
      await this.removeFolder(fi.folder);
      this.addFolder(fi.folder);
    }
  }

  /** Opens an engine per workspace folder and keeps the set in sync with the workspace. */
  startFolders(): void {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (folders.some((f) => engineSettings(f).team)) {
      // Only where a team index is configured: its password is read (and one typed into the URL moved) first.
      this.started = moveEmbeddedPasswords(this.extension.secrets)
        .then(() => loadTeamPasswords(this.extension.secrets))
        .then((m) => void (this.teamPasswords = m))
        .catch((e) => this.log.error(`reading the team index password: ${(e as Error).message}`))
        .then(() => { for (const folder of folders) this.addFolder(folder); });
    } else {
      for (const folder of folders) this.addFolder(folder);
    }
    this.push(
      vscode.workspace.onDidChangeWorkspaceFolders((e) => {
        for (const f of e.removed) void this.removeFolder(f);
        for (const f of e.added) this.addFolder(f);
      }),
      vscode.workspace.onDidChangeConfiguration(() => this.reopenChangedFolders('index settings changed')),
      // Trust lets the team index settings be read (config.ts teamIndexUrl): the folders that have one reopen with it.
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        void moveEmbeddedPasswords(this.extension.secrets)
          .catch((e) => this.log.error(`moving a team index password: ${(e as Error).message}`))
          .then(() => this.reopenChangedFolders('workspace trusted'));
      }),
      vscode.window.onDidChangeActiveTextEditor((e) => {
        const rel = e && this.folderFor(e.document.uri)?.relPath(e.document.uri);
        if (rel) this.noteRecent(rel);
      }),
    );
  }

  private reopenChangedFolders(why: string): void {
    for (const fi of [...this.folders.values()]) {
      if (!fi.settingsChanged()) continue;
      this.log.info(`[${fi.folder.name}] ${why}; reopening its engine`);
      // A team index URL may be new: its stored password is read before the engine opens.
      void this.removeFolder(fi.folder)
        .then(async () => void (this.teamPasswords = await loadTeamPasswords(this.extension.secrets)))
        .catch((e) => this.log.error(`reading the team index password: ${(e as Error).message}`))
        .then(() => this.addFolder(fi.folder));
    }
  }

  private addFolder(folder: vscode.WorkspaceFolder): void {
    if (folder.uri.scheme !== 'file' || this.folders.has(folder.uri.toString())) return;
    const team = engineSettings(folder).team;
    const fi = new FolderIndex(folder, this.paths, this.log, team && { ...team, password: this.teamPasswords.get(team.url) });
    this.folders.set(folder.uri.toString(), fi);
    fi.onDidChange(() => this.foldersChanged.fire());
    fi.client.onTiming(this.timings.onEngineCall);
    this.foldersChanged.fire();
    // The first build is announced with a cancellable notification; refreshing an existing index is quiet.
    void fi.index({ notify: !fi.hasIndexOnDisk() });
  }

  private async removeFolder(folder: vscode.WorkspaceFolder): Promise<void> {
    const fi = this.folders.get(folder.uri.toString());
    if (!fi) return;
    this.folders.delete(folder.uri.toString());
    this.foldersChanged.fire();
    await fi.dispose();
  }

  allFolders(): FolderIndex[] {
    return [...this.folders.values()];
  }

  /** The index of the folder containing `uri` (innermost folder wins in nested multi-root setups). */
  folderFor(uri: vscode.Uri): FolderIndex | undefined {
    let best: FolderIndex | undefined;
    for (const fi of this.folders.values()) {
      if (fi.relPath(uri) !== undefined && (!best || fi.folder.uri.path.length > best.folder.uri.path.length)) best = fi;
    }
    return best;
  }

  noteRecent(relPath: string): void {
    const i = this.recent.indexOf(relPath);
    if (i >= 0) this.recent.splice(i, 1);
    this.recent.unshift(relPath);
    this.recent.length = Math.min(this.recent.length, 20);
  }

  recentFiles(): string[] {
    return [...this.recent];
  }

  /** Resolves when every folder finished its first indexing run; reports each folder. */
  async whenReady(): Promise<FolderReport[]> {
    await this.started;
    await Promise.all(this.allFolders().map((fi) => fi.firstIndexDone));
    return this.report();
  }

  report(): FolderReport[] {
    return this.allFolders().map((fi) => ({ folder: fi.folder.uri.fsPath, state: fi.state, stats: fi.stats, error: fi.error, enginePid: fi.client.enginePid, engineState: fi.client.state, ...(fi.client.teamState ? { team: fi.client.teamState } : {}) }));
  }

  /** Disposes everything even when a part throws (engines first), then throws what failed. */
  async dispose(): Promise<void> {
    const closed = await Promise.allSettled(this.allFolders().map((fi) => fi.dispose()));
    this.folders.clear();
    const errors = closed.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    errors.push(...disposeEach([...this.subscriptions.splice(0).reverse(), this.timings]));
    throwCollected(errors);
  }
}

/** Locations of the bundled worker, model and grammars inside the installed extension. */
function resolvePaths(extension: vscode.ExtensionContext): FolderIndexPaths {
  const root = extension.extensionPath;
  const firstExisting = (...candidates: string[]): string | undefined => candidates.find((p) => fs.existsSync(p));
  return {
    workerPath: path.join(root, 'dist', 'worker.js'),
    storageRoot: extension.storageUri ?? extension.globalStorageUri,
    modelDir: firstExisting(path.join(root, 'models', 'reporecall-code'), path.join(root, 'models', 'reference-use-lite')),
    grammarDir: firstExisting(path.join(root, 'grammars')),
  };
}
