// One completion request started at the keystroke, before VS Code asks for inline completions.
// VS Code waits its own 50 ms after a keystroke before it calls the provider; the built-in source
// answers in a few ms plus a round trip to the engine process, so a request started when the edit
// arrives is usually done by the time the provider is called, which then only picks up the result.
// A prediction that misses (the cursor ended elsewhere, another edit came first) costs one engine
// call and is never served: the provider's key must match exactly. vscode-free.
import { delay } from './adaptiveDebounce';

/** Identifies the document state and cursor a completion is for: uri, backend, version, offset. */
export type PrefetchKey = string;

export function prefetchKey(docKey: string, version: number, offset: number): PrefetchKey {
  return `${docKey}\u0000${version}\u0000${offset}`;
}

/** A finished prefetch's answer (`value` undefined: the source had nothing to offer). */
export interface Prefetched<T> {
  value: T | undefined;
}

interface InFlight<T> {
  key: PrefetchKey;
  /** Undefined when the request was cancelled or failed: the provider then asks itself. */
  result: Promise<Prefetched<T> | undefined>;
  controller: AbortController;
}

export class CompletionPrefetch<T> {
  private current: InFlight<T> | undefined;

  /** Starts `run` for `key` after `delayMs`, cancelling the request in flight (a newer keystroke makes it useless). */
  start(key: PrefetchKey, delayMs: number, run: (signal: AbortSignal) => Promise<T | undefined>): void {
    this.cancel();
    const controller = new AbortController();
    const result = delay(delayMs, controller.signal)
      .then(async (go) => (go && !controller.signal.aborted ? { value: await run(controller.signal) } : undefined))
      .then((r) => (controller.signal.aborted ? undefined : r), () => undefined);
    this.current = { key, result, controller };
  }

  /** The request started for exactly this key, if any (it may still be running). */
  take(key: PrefetchKey): Promise<Prefetched<T> | undefined> | undefined {
    const c = this.current;
    if (!c || c.key !== key || c.controller.signal.aborted) return undefined;
    return c.result;
  }

  cancel(): void {
    this.current?.controller.abort();
    this.current = undefined;
  }
}

/**
 * Where the cursor is after a single edit, as an offset in the new text: at the end of what was
 * inserted (typing, pasting, deleting a selection). Undefined for several changes at once
 * (multi-cursor edits, formatters), where no single cursor can be predicted.
 */
export function cursorAfterEdit(changes: ReadonlyArray<{ rangeOffset: number; text: string }>): number | undefined {
  if (changes.length !== 1) return undefined;
  return changes[0].rangeOffset + changes[0].text.length;
}
