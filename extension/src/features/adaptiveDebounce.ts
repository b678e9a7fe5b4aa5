// Debounce of completion requests, counted from the keystroke. VS Code already waits 50 ms after a
// keystroke before it asks the provider (its inline-suggest debounce) and cancels the request when
// the next keystroke comes, so the provider waits only what is left of the base delay. A slow
// source (a model backend) is asked less eagerly: its recent latency adds up to 2 x base, within
// [base, 4 x base] of the keystroke. The built-in engine answers in milliseconds and a cancelled
// request costs it little, so it gets the base delay alone. vscode-free.

/** VS Code's own inline-suggest debounce (its InlineCompletionsDebounce, min = max = 50 ms). */
export const VSCODE_INLINE_SUGGEST_DELAY_MS = 50;

/**
 * Time since the keystroke behind an automatic request. The extension host hears of the edit late
 * on a busy machine (often just before the request), but VS Code asks only after its own delay, so
 * at least that much has passed since the keystroke.
 */
export function sinceKeystroke(sinceEditMs: number): number {
  return Math.max(VSCODE_INLINE_SUGGEST_DELAY_MS, sinceEditMs);
}

export class AdaptiveDebounce {
  private latencyEma: number | undefined;

  constructor(private readonly baseMs: () => number) {}

  /** The delay still to wait, `sinceKeystrokeMs` after the keystroke that led to this request. */
  nextDelay(sinceKeystrokeMs = 0): number {
    const base = this.baseMs();
    const slowSource = this.latencyEma === undefined ? 0 : Math.min(0.25 * this.latencyEma, 2 * base);
    const target = Math.min(4 * base, base + slowSource);
    return Math.max(0, Math.round(target - Math.max(0, sinceKeystrokeMs)));
  }

  /** Records how long a slow completion source took, so it is asked less eagerly. */
  recordLatency(ms: number): void {
    this.latencyEma = this.latencyEma === undefined ? ms : 0.8 * this.latencyEma + 0.2 * ms;
  }

  /** Forgets the latency (the source changed). */
  reset(): void {
    this.latencyEma = undefined;
  }
}

/**
 * When each document last changed (Date.now()), fed from onDidChangeTextDocument: VS Code asks for
 * inline completions some time after the keystroke (its own debounce), and the completion debounce
 * counts from the keystroke, not from that request.
 */
export class EditClock {
  private readonly last = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  note(key: string): void {
    this.last.set(key, this.now());
  }

  forget(key: string): void {
    this.last.delete(key);
  }

  /** Milliseconds since the document's last change; Infinity when none was seen. */
  since(key: string): number {
    const t = this.last.get(key);
    return t === undefined ? Infinity : this.now() - t;
  }
}

/** Resolves true after `ms`, or false as soon as `signal` aborts; 0 ms resolves at once. */
export function delay(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
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
