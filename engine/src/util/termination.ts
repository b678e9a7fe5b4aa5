// Ending a process on SIGTERM, SIGINT or SIGHUP the conventional way, after closing what it has
// open: the CLI and the engine process run their work through `closeOnSignals`. The first signal
// aborts the work and waits (at most CLOSE_GRACE_MS) for it to close the engine, which saves and
// releases the writer lock; then the locks still held are released and the same signal is raised
// again with its default action, so the parent sees the process killed by it (a shell: 128 + n).
// A second signal ends the process at once, the locks released first.
import { releaseHeldLocks, TERMINATION_SIGNALS } from '../store/lock';

/** How long a signalled process waits for its work to close before it ends anyway. */
export const CLOSE_GRACE_MS = 5000;

/**
 * Runs `work` with an AbortSignal that a termination signal aborts. Without a signal, the result
 * is the work's result or error, and the process's signal handling is back as it was. Once a signal
 * arrived it never settles: the process ends instead.
 */
export function closeOnSignals<T>(work: (signal: AbortSignal) => Promise<T>, graceMs = CLOSE_GRACE_MS): Promise<T> {
  const stop = new AbortController();
  let caught: NodeJS.Signals | undefined;
  const listen = (on: boolean) => {
    for (const s of TERMINATION_SIGNALS) {
      if (on) process.on(s, onSignal);
      else process.removeListener(s, onSignal);
    }
  };
  const end = (signal: NodeJS.Signals) => {
    listen(false);
    releaseHeldLocks();
    // Nobody is left to handle it: the default action ends the process, killed by this signal.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  };
  function onSignal(signal: NodeJS.Signals): void {
    if (caught) return end(signal);
    caught = signal;
    stop.abort(new Error(`stopped by ${signal}`));
    setTimeout(() => end(signal), graceMs).unref();
  }
  listen(true);
  const settled = work(stop.signal).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  return settled.then((r) => {
    if (caught) {
      end(caught);
      return new Promise<T>(() => undefined);
    }
    listen(false);
    if (r.ok) return r.value;
    throw r.error;
  });
}
