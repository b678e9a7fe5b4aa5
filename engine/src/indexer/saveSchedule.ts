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

/** One pending save at a time: updates that arrive while one waits join it. */
export class SaveSchedule {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly save: () => void) {}

  /** A save `saveDelayMs(chunks)` from now, unless one is already pending. */
  schedule(chunks: number): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.save();
    }, saveDelayMs(chunks));
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
