// One workspace folder's index: its engine worker, its indexing runs and its pending updates.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { IndexProgress, IndexStats, TeamIndexOptions } from '../../engine/src/public';
import { EngineClient } from '../../engine/src/public';
import { isAbortError } from '../../engine/src/public';
import { engineSettings } from './config';

export type FolderIndexState = 'starting' | 'indexing' | 'ready' | 'paused' | 'error';

export interface FolderIndexPaths {
  workerPath: string;
  storageRoot: vscode.Uri;
  modelDir?: string;
  grammarDir?: string;
}

const PHASE: Record<IndexProgress['phase'], string> = { download: 'downloading the team index', scan: 'scanning', parse: 'parsing', embed: 'embedding', save: 'saving' };

/** `parsing 1228/1548`: what the running build does, with its own counter. */
export function progressLabel(p: IndexProgress | undefined): string {
  if (!p) return 'indexing';
  const phase = PHASE[p.phase] ?? p.phase;
  // The team index's download counts bytes.
  if (p.phase === 'download') return p.total > 0 ? `${phase} ${(p.done / 1e6).toFixed(1)}/${(p.total / 1e6).toFixed(1)} MB` : phase;
  return p.total > 0 ? `${phase} ${p.done}/${p.total}` : phase;
}

export class FolderIndex implements vscode.Disposable {
  readonly client: EngineClient;
  readonly indexDir: string;
  state: FolderIndexState = 'starting';
  stats: IndexStats | undefined;
  progress: IndexProgress | undefined;
  error: string | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private indexing: AbortController | undefined;
  private indexRun: Promise<void> | undefined;
  private paused = false;
  private readonly disposables: vscode.Disposable[] = [];
  /** Settles once the first indexing run has ended (successfully or not). */
  readonly firstIndexDone: Promise<void>;
  private markFirstIndexDone!: () => void;

  private modelWarningShown = false;

  /** The settings the engine was opened with (engineSettings), to tell when they change. */
  private readonly openedWith: string;

  constructor(readonly folder: vscode.WorkspaceFolder, paths: FolderIndexPaths, private readonly log: vscode.LogOutputChannel, team?: TeamIndexOptions) {
    const hash = crypto.createHash('sha1').update(folder.uri.toString()).digest('hex').slice(0, 10);
    this.indexDir = path.join(paths.storageRoot.fsPath, 'index', `${folder.name.replace(/[^\w.-]/g, '_')}-${hash}`);
    this.firstIndexDone = new Promise((resolve) => (this.markFirstIndexDone = resolve));
    const settings = engineSettings(folder);
    this.openedWith = JSON.stringify(settings);
    const { userModelDir, excludePatterns } = settings;
    this.client = new EngineClient({
      workerPath: paths.workerPath,
      init: {
        options: {
          root: folder.uri.fsPath,
          indexDir: this.indexDir,
          // The user's model when set, with the shipped one to fall back on if it cannot be loaded.
          modelDir: userModelDir ?? paths.modelDir,
          fallbackModelDir: userModelDir ? paths.modelDir : undefined,
          grammarDir: paths.grammarDir,
          excludePatterns,
          secretPatterns: settings.secretPatterns,
          maxFileBytes: settings.maxFileBytes,
          dense: settings.dense,
          // The team index with its stored password (for this URL only): the engine connects, never this host.
          ...(team ? { team } : {}),
        },
      },
    });
    this.disposables.push(
      this.changed,
      this.client.onLog((line) => this.log.info(`[${folder.name}] ${line}`)),
      this.client.onState((s) => {
        if (s === 'failed') this.setState('error', this.client.error);
        this.changed.fire();
      }),
      this.client.onTeamState(() => this.changed.fire()),
      // A replacement worker reopened the index from disk; bring it up to date with the files.
      this.client.onRestarted(() => void this.index({ notify: false })),
    );
  }

  /** Whether the settings the engine was opened with have changed since (it must be reopened). */
  settingsChanged(): boolean {
    return JSON.stringify(engineSettings(this.folder)) !== this.openedWith;
  }

  /**
   * A configured model that could not be loaded, or an ONNX runtime that cannot be loaded on this
   * platform (the darwin-x64 VSIX has none), is said once per engine, with the reason. Only the
   * first comes with a model still in use (the shipped one) and is the setting's to fix.
   */
  private warnOnceAboutModel(stats: IndexStats): void {
    if (!stats.modelWarning || this.modelWarningShown) return;
    this.modelWarningShown = true;
    this.log.warn(`[${this.folder.name}] ${stats.modelWarning}`);
    const hint = stats.modelDir ? '. Check the setting reporecall.model.directory.' : '.';
    void vscode.window.showWarningMessage(`RepoRecall (${this.folder.name}): ${stats.modelWarning}${hint}`);
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** True when requests can be served (the engine is open; indexing may still be running). */
  get canServe(): boolean {
    return this.client.state === 'ready' && this.state !== 'error';
  }

  /** True when requests can be served now or once the engine has opened (requests wait for it). */
  get canServeSoon(): boolean {
    const s = this.client.state;
    return (s === 'ready' || s === 'starting' || s === 'restarting') && this.state !== 'error';
  }

  /** Workspace-relative path with forward slashes, or undefined when the uri is outside this folder. */
  relPath(uri: vscode.Uri): string | undefined {
    if (uri.scheme !== this.folder.uri.scheme || uri.authority !== this.folder.uri.authority) return undefined;
    const root = this.folder.uri.path.endsWith('/') ? this.folder.uri.path : this.folder.uri.path + '/';
    if (!uri.path.startsWith(root)) return undefined;
    const rel = uri.path.slice(root.length);
    if (!rel || rel === '.git' || rel.startsWith('.git/')) return undefined;
    return rel;
  }

  /** Runs an (incremental) index of the whole folder; with `notify`, under a cancellable notification. */
  index(opts: { notify: boolean }): Promise<void> {
    if (this.paused) return Promise.resolve();
    if (this.indexRun) return this.indexRun;
    const run = opts.notify
      ? vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: `RepoRecall: indexing ${this.folder.name}`, cancellable: true },
          (report, token) => this.runIndex(report, token),
        )
      : vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `RepoRecall: indexing ${this.folder.name}` }, (report) =>
          this.runIndex(report),
        );
    this.indexRun = Promise.resolve(run).finally(() => {
      this.indexRun = undefined;
      this.markFirstIndexDone();
    });
    return this.indexRun;
  }

  private async runIndex(report: vscode.Progress<{ message?: string; increment?: number }>, token?: vscode.CancellationToken): Promise<void> {
    const controller = new AbortController();
    this.indexing = controller;
    const sub = token?.onCancellationRequested(() => {
      this.log.info(`[${this.folder.name}] indexing cancelled by the user; paused (Resume Indexing continues)`);
      this.pause();
    });
    this.setState('indexing');
    let lastPct = 0;
    try {
      await this.client.whenReady();
      const stats = await this.client.indexAll((p) => {
        this.progress = p;
        const pct = p.total > 0 ? Math.floor((100 * p.done) / p.total) : 0;
        report.report({ message: `${progressLabel(p)}${p.file ? ` ${p.file}` : ''}`, increment: p.phase === 'scan' ? 0 : Math.max(0, pct - lastPct) });
        lastPct = p.phase === 'scan' ? 0 : pct;
        this.changed.fire();
      }, controller.signal);
      this.stats = stats;
      this.progress = undefined;
      this.warnOnceAboutModel(stats);
      this.log.info(`[${this.folder.name}] indexed ${stats.files} files, ${stats.chunks} chunks (${stats.changedFiles} changed) in ${stats.seconds.toFixed(1)} s; embedding model ${stats.modelDir ?? 'off'}`);
      this.setState('ready');
    } catch (err) {
      this.progress = undefined;
      if (isAbortError(err) || this.paused) {
        this.setState('paused');
      } else {
        this.log.error(`[${this.folder.name}] indexing failed: ${(err as Error).stack ?? err}`);
        this.setState('error', (err as Error).message);
      }
    } finally {
      sub?.dispose();
      if (this.indexing === controller) this.indexing = undefined;
    }
  }

  pause(): void {
    this.paused = true;
    this.indexing?.abort();
    this.setState('paused');
  }

  async resume(): Promise<void> {
    if (!this.paused) return;
    this.paused = false;
    // Edits made while paused are covered by the incremental run (it re-reads changed files from
    // disk); unsaved buffers are re-sent by their next change.
    await this.index({ notify: false });
  }

  /** Deletes the index on disk and builds it again from scratch. */
  async rebuild(): Promise<void> {
    this.paused = false;
    this.indexing?.abort();
    await this.indexRun?.catch(() => undefined);
    this.setState('starting');
    try {
      await this.client.call('close', [], { timeoutMs: 30_000 });
    } catch (err) {
      this.log.warn(`[${this.folder.name}] closing the engine before rebuild: ${(err as Error).message}`);
    }
    await fs.promises.rm(this.indexDir, { recursive: true, force: true });
    await this.client.restart();
    await this.index({ notify: true });
  }

  /** Re-indexes one file: from `content` (an unsaved buffer) or from disk. */
  async updateFile(relPath: string, content?: string): Promise<void> {
    if (this.paused) return; // the incremental run on resume catches it up
    try {
      this.stats = await this.client.updateFile(relPath, content);
      this.changed.fire();
    } catch (err) {
      if (!isAbortError(err)) this.log.warn(`[${this.folder.name}] update ${relPath}: ${(err as Error).message}`);
    }
  }

  async removeFile(relPath: string): Promise<void> {
    if (this.paused) return; // likewise
    try {
      this.stats = await this.client.removeFile(relPath);
      this.changed.fire();
    } catch (err) {
      this.log.warn(`[${this.folder.name}] remove ${relPath}: ${(err as Error).message}`);
    }
  }

  /** Whether an index from an earlier session exists (then startup indexing is quiet). */
  hasIndexOnDisk(): boolean {
    try {
      return fs.readdirSync(this.indexDir).length > 0;
    } catch {
      return false;
    }
  }

  private setState(state: FolderIndexState, error?: string): void {
    this.state = state;
    this.error = error;
    this.changed.fire();
  }

  async dispose(): Promise<void> {
    this.indexing?.abort();
    for (const d of this.disposables) d.dispose();
    await this.client.close();
  }
}
