// The engine's side of the team index sync (sync.ts): the sync starts when the engine opens, in
// the background, while the engine answers from whatever local index it has; the engine's next
// catch-up (indexAll) waits for it, installs what it downloaded between two saves, loads it as at
// open, and then scans the workspace as after any reopen (files that differ from the published
// commit are indexed locally; unsaved buffers are applied again).
import type { IndexProgress, TeamState } from '../api';
import type { WorkspaceIndex } from '../indexer/workspaceIndex';
import { TeamSync, type SyncPlan, type SyncTarget } from './sync';

export class SyncedIndex {
  private pending: Promise<SyncPlan | undefined> | undefined;
  private progress: ((p: IndexProgress) => void) | undefined;
  private readonly abort = new AbortController();
  private readonly sync: TeamSync;

  constructor(target: SyncTarget, private readonly ws: WorkspaceIndex) {
    this.sync = new TeamSync({ ...target, signal: this.abort.signal });
    this.pending = this.sync.prepare((done, total) => this.progress?.({ phase: 'download', done, total }));
  }

  get state(): TeamState {
    return this.sync.state;
  }

  /** The state once the sync has found, downloaded or given up (not yet installed: indexAll does that). */
  async settled(): Promise<TeamState> {
    await this.pending;
    return this.sync.state;
  }

  /**
   * Waits for the sync (reporting its download as progress; `signal` stops the wait, not the
   * sync) and installs its commit. Returns the unsaved buffers, for the engine to apply again.
   */
  async install(onProgress?: (p: IndexProgress) => void, signal?: AbortSignal): Promise<Array<[string, string]>> {
    const pending = this.pending;
    if (!pending) return [];
    this.progress = onProgress;
    try {
      const plan = await untilAborted(pending, signal);
      if (this.pending === pending) this.pending = undefined;
      if (!plan) return [];
      await this.ws.saveQueue.run(async () => {
        try {
          this.sync.install(plan);
        } finally {
          this.ws.loadOrReset();
        }
      });
      return this.ws.buffers.overlayEntries();
    } finally {
      this.progress = undefined;
    }
  }

  /** Stops a download in progress (its parts stay for the next start) and waits for it to end. */
  async close(): Promise<void> {
    this.abort.abort();
    await this.pending;
  }
}

function untilAborted<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
