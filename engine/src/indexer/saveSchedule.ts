// When the index is written after single-file updates: once they settle, later the larger the
// index. Typing never writes the index (unsaved buffers are not persisted); saves follow changes
// on disk. Values: PARAMS.md.

/** Quiet period after single-file updates before the index is written. */
export const SAVE_DELAY_MS = 2000;
/**
 * A save writes a delta segment (tens of ms, index/indexStore.ts), but one that is due a merge
 * still rewrites a base while queries wait, so large indexes wait a little longer: this many ms
 * per 1,000 chunks, up to MAX_SAVE_DELAY_MS (PARAMS.md). Nothing is lost by waiting: files changed
 * on disk since the last save are found again by the next scan (size/mtime, then content hash).
 */
export const SAVE_DELAY_MS_PER_1K_CHUNKS = 100;
export const MAX_SAVE_DELAY_MS = 10_000;

/** How long an index of `chunks` chunks waits after an update before it is written. */
export function saveDelayMs(chunks: number): number {
  return Math.min(MAX_SAVE_DELAY_MS, Math.max(SAVE_DELAY_MS, (chunks / 1000) * SAVE_DELAY_MS_PER_1K_CHUNKS));
}

/**
 * A save due while the editor is asking (a completion, Copilot's context: a read within
 * READ_QUIET_MS) waits for that quiet moment, MAX_SAVE_DEFERRAL_MS at most: a save blocks the
 * engine's thread for 100-400 ms on a 2-core machine, longer than a keystroke's request may take.
 */
export const READ_QUIET_MS = 300;
export const MAX_SAVE_DEFERRAL_MS = 10_000;

/** One pending save at a time: updates that arrive while one waits join it. */
export class SaveSchedule {
  private timer: NodeJS.Timeout | undefined;
  private lastRead = -Infinity;

  constructor(private readonly save: () => void, private readonly delayMs: (chunks: number) => number = saveDelayMs, private readonly quietMs = READ_QUIET_MS) {}

  /** A request for the editor arrived (the save waits for a quiet moment). */
  noteRead(): void {
    this.lastRead = performance.now();
  }

  /** A save `delayMs(chunks)` from now, unless one is already pending; then once no read came for quietMs (MAX_SAVE_DEFERRAL_MS more at most). */
  schedule(chunks: number): void {
    if (this.timer) return;
    const latest = performance.now() + this.delayMs(chunks) + MAX_SAVE_DEFERRAL_MS;
    const due = (): void => {
      const wait = this.lastRead + this.quietMs - performance.now();
      if (wait > 0 && performance.now() < latest) return this.arm(due, wait);
      this.timer = undefined;
      this.save();
    };
    this.arm(due, this.delayMs(chunks));
  }

  private arm(f: () => void, ms: number): void {
    this.timer = setTimeout(f, ms);
    this.timer.unref();
  }

  /** Drops the pending save (the caller saves now, or closes). */
  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** Saves written one after another: each starts once the one before it ended (failed or not). */
export class SaveQueue {
  private last: Promise<void> | undefined;

  /** Runs `save` after the saves queued before it; resolves or rejects with it. */
  run(save: () => Promise<void>): Promise<void> {
    const next = (this.last ?? Promise.resolve()).catch(() => undefined).then(save);
    this.last = next;
    void next.catch(() => undefined).finally(() => {
      if (this.last === next) this.last = undefined;
    });
    return next;
  }
}
