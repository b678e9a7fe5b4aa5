// Per-request timings of the editor features (completion, hover, Find Related Code), each split into
// the engine's own time and the rest (extension host, RPC, serialization). Read by `npm run
// bench:ui` through the hidden command `reporecall.timings`, or appended as JSON lines to the
// file named by REPORECALL_TIMINGS_FILE (set by the benchmark). Cheap: one record per request, kept
// in a bounded ring; the file, when asked for, is written in batches off the request path.
// vscode-free.
import { AsyncLocalStorage } from 'node:async_hooks';
import * as fs from 'node:fs';
import type { CallTiming } from '../../engine/src/public';

export interface TimingRecord {
  /** complete | hover | findRelated | warmup | ... */
  kind: string;
  /** Wall clock at the start (ms since the epoch, comparable across processes on this machine). */
  at: number;
  /** The feature's whole time, from the provider or command being called to its answer (ms). */
  ms: number;
  /** Engine time of the requests made meanwhile (ms), and their round trips as the client saw them. */
  engineMs: number;
  rpcMs: number;
  calls: number;
  /** How it ended (completion: cache, shown, empty, cancelled, ...). */
  outcome?: string;
  /** Anything else worth a look (the debounce waited, ...). */
  detail?: Record<string, number | string>;
}

const RING = 2000;
const FLUSH_MS = 250;

export class Timings {
  private readonly als = new AsyncLocalStorage<TimingRecord>();
  private readonly ring: TimingRecord[] = [];
  private pending: string[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  readonly activatedAt = Date.now();

  constructor(
    private readonly file: string | undefined = process.env.REPORECALL_TIMINGS_FILE || undefined,
    /** Monotonic ms clock for span durations (tests pass their own). */
    private readonly now: () => number = () => performance.now(),
  ) {
    if (file) this.record({ kind: 'activate', at: this.activatedAt, ms: 0, engineMs: 0, rpcMs: 0, calls: 0 });
  }

  /** Runs `fn` as one timed request of `kind`; `fn` may set the outcome and details on the record. */
  async span<T>(kind: string, fn: (rec: TimingRecord) => Promise<T>): Promise<T> {
    const rec: TimingRecord = { kind, at: Date.now(), ms: 0, engineMs: 0, rpcMs: 0, calls: 0 };
    const t0 = this.now();
    try {
      return await this.als.run(rec, () => fn(rec));
    } finally {
      rec.ms = Math.round((this.now() - t0) * 10) / 10;
      rec.engineMs = Math.round(rec.engineMs * 10) / 10;
      this.record(rec);
    }
  }

  /** Adds details to the record of the span this runs in, if any (a feature's phases). */
  note(detail: Record<string, number | string>): void {
    const rec = this.als.getStore();
    if (rec) rec.detail = { ...rec.detail, ...detail };
  }

  /** EngineClient.onTiming listener: adds the call to the span it was made in, if any. */
  readonly onEngineCall = (t: CallTiming): void => {
    const rec = this.als.getStore();
    if (!rec) return;
    rec.engineMs += t.engineMs;
    rec.rpcMs += t.totalMs;
    rec.calls++;
  };

  record(rec: TimingRecord): void {
    this.ring.push(rec);
    if (this.ring.length > RING) this.ring.splice(0, this.ring.length - RING);
    if (!this.file) return;
    this.pending.push(JSON.stringify(rec));
    this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  private flush(): void {
    this.flushTimer = undefined;
    if (!this.file || !this.pending.length) return;
    const lines = this.pending.join('\n') + '\n';
    this.pending = [];
    fs.appendFile(this.file, lines, () => undefined);
  }

  /** What `reporecall.timings` returns. */
  snapshot(): { activatedAt: number; records: TimingRecord[] } {
    return { activatedAt: this.activatedAt, records: [...this.ring] };
  }

  dispose(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flush();
  }
}
