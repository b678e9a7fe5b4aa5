import type { Foreground } from './foreground';

/** One turn of the event loop: messages and timers waiting meanwhile run first. */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * Lets the event loop run during a long loop of synchronous work (parsing, chunk enrichment, a
 * directory walk). `await` on a resolved promise only drains microtasks: worker messages (pings,
 * queries, cancellations) and timers wait for a macrotask turn. Without one, a 100k-file index kept
 * the engine deaf for 15 s stretches, and under load long enough to be taken for a hang.
 */
export class Breather {
  private last = Date.now();

  /**
   * @param everyMs longest stretch of work between two turns of the event loop
   * @param foreground requests that go first: while one is in flight, each breath waits for it (util/foreground.ts)
   */
  constructor(private readonly everyMs = 15, private readonly signal?: AbortSignal, private readonly foreground?: Foreground) {}

  /** Yields when `everyMs` have passed since the last turn, or waits while a foreground request runs; then honours the abort signal. */
  async breathe(): Promise<void> {
    if (this.foreground?.busy) await this.foreground.idle();
    else if (Date.now() - this.last < this.everyMs) return;
    await nextTurn();
    this.last = Date.now();
    this.signal?.throwIfAborted();
  }
}
