// Adaptive debounce for completion requests. Waiting a fixed time either fires in the middle of a
// fast burst of typing (wasted requests) or feels sluggish when typing slowly. The delay follows
// the user's recent inter-keystroke interval and the source's recent latency, within
// [base, 4 x base]. vscode-free.

export class AdaptiveDebounce {
  private lastRequestAt: number | undefined;
  private intervalEma: number | undefined;
  private latencyEma: number | undefined;

  constructor(private readonly baseMs: () => number, private readonly now: () => number = Date.now) {}

  /** Records a request (one per keystroke, as VS Code asks per change) and returns the delay to wait. */
  nextDelay(): number {
    const t = this.now();
    const gap = this.lastRequestAt === undefined ? Infinity : t - this.lastRequestAt;
    this.lastRequestAt = t;
    // Gaps over 2 s are pauses, not typing rhythm (and the first request has no gap).
    if (gap < 2000) this.intervalEma = this.intervalEma === undefined ? gap : 0.7 * this.intervalEma + 0.3 * gap;
    const base = this.baseMs();
    const rhythm = this.intervalEma === undefined ? base : 0.6 * this.intervalEma;
    const slowSource = this.latencyEma === undefined ? 0 : Math.min(0.25 * this.latencyEma, 2 * base);
    return Math.round(Math.min(4 * base, Math.max(base, rhythm + slowSource)));
  }

  /** Records how long the completion source took, so slow backends are asked less eagerly. */
  recordLatency(ms: number): void {
    this.latencyEma = this.latencyEma === undefined ? ms : 0.8 * this.latencyEma + 0.2 * ms;
  }
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
export function delay(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
