// The index the MCP server answers from. An index already on disk (the editor's, or one the CLI
// built) is opened read-only: no writer lock is taken from the editor, and changes since its last
// commit are caught up in memory, as `reporecall query` does. With none, the index is built and
// saved, then reopened read-only, so the lock is not held for the rest of the session.
import * as fs from 'fs';
import * as path from 'path';
import type { EngineOptions, IndexProgress } from '../api';
import { Engine } from '../engine';
import { MANIFEST_FILE } from '../index/manifest';

export interface SessionOptions {
  root: string;
  indexDir: string;
  modelDir?: string;
  dense: boolean;
  excludePatterns?: string[];
  secretPatterns?: string[];
  log: (line: string) => void;
}

/** Phases in the order indexAll runs them, for one increasing progress value (MCP requires it). */
const PHASES: readonly IndexProgress['phase'][] = ['scan', 'parse', 'embed', 'save'];

export class IndexSession {
  /** The open index, once built or caught up. */
  readonly ready: Promise<Engine>;
  /** The latest progress while building, as a value rising from 0 to PHASES.length. */
  private latest: { progress: number; total: number; message: string } | undefined;
  private readonly listeners = new Set<(p: { progress: number; total: number; message: string }) => void>();
  private engine: Engine | undefined;
  private done = false;

  constructor(private readonly opts: SessionOptions, signal: AbortSignal) {
    this.ready = this.open(signal).then((e) => { this.done = true; return e; });
    this.ready.catch(() => undefined);
  }

  get building(): boolean {
    return !this.done;
  }

  /** Calls `listener` with the build's progress (the latest at once) until the index is ready; returns the unsubscribe. */
  onProgress(listener: (p: { progress: number; total: number; message: string }) => void): () => void {
    if (this.done) return () => undefined;
    if (this.latest) listener(this.latest);
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private report(p: IndexProgress): void {
    const phase = Math.max(0, PHASES.indexOf(p.phase));
    const value = Math.max(this.latest?.progress ?? 0, phase + (p.total ? Math.min(1, p.done / p.total) : 0));
    this.latest = { progress: value, total: PHASES.length, message: `indexing the workspace: ${p.phase} ${p.done}/${p.total}` };
    for (const l of this.listeners) l(this.latest);
  }

  private engineOptions(readOnly: boolean): EngineOptions {
    const { root, indexDir, modelDir, dense, excludePatterns, secretPatterns, log } = this.opts;
    return { root, indexDir, modelDir, dense, excludePatterns, secretPatterns, readOnly, log };
  }

  private async open(signal: AbortSignal): Promise<Engine> {
    const exists = fs.existsSync(path.join(this.opts.indexDir, MANIFEST_FILE));
    this.engine = await Engine.open(this.engineOptions(exists));
    const stats = await this.engine.indexAll((p) => this.report(p), signal);
    this.opts.log(`${exists ? 'read' : 'built'} the index at ${this.opts.indexDir}: ${stats.files} files, ${stats.chunks} chunks${exists && stats.changedFiles ? `, ${stats.changedFiles} changed since its last commit (caught up in memory)` : ''}`);
    if (!this.engine.writable) return this.engine;
    // Built and saved by this process: reopen read-only so an editor opening the folder later may write it.
    await this.engine.close();
    this.engine = undefined;
    this.engine = await Engine.open(this.engineOptions(true));
    await this.engine.indexAll(undefined, signal);
    return this.engine;
  }

  async close(): Promise<void> {
    await this.ready.catch(() => undefined);
    await this.engine?.close();
  }
}
