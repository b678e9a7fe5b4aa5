// Requests a user is waiting for (a hover, a completion, Find Related Code) go before background work
// on the engine's one thread: a live update waits between its slices while any is in flight, instead
// of taking turns with it (bench:ui: a hover beside a live update took 650-880 ms at p95's tail).
// vscode-free.

/** Longest a background slice waits for the requests in flight (a stream of them must not starve an update). */
export const FOREGROUND_MAX_WAIT_MS = 2000;

export class Foreground {
  private active = 0;
  private waiters: Array<() => void> = [];

  /** Runs `fn` as a request a user waits for. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    this.active++;
    try {
      return await fn();
    } finally {
      if (--this.active === 0) for (const wake of this.waiters.splice(0)) wake();
    }
  }

  /** Whether such a request is in flight. */
  get busy(): boolean {
    return this.active > 0;
  }

  /** Resolves when no such request is in flight, or after `maxMs`. */
  idle(maxMs = FOREGROUND_MAX_WAIT_MS): Promise<void> {
    if (!this.active) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== wake);
        resolve();
      }, maxMs);
      this.waiters.push(wake);
    });
  }
}
