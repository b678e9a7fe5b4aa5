// A save's small files written in order by one thread (as writeAllAtomic: temp file, fsync, rename,
// folder fsync), so a query during a save does not wait for the fsyncs; it lives from the writer's
// open to its close (why, measured: docs/investigations/first-edit-query-wait.md).
import { Worker } from 'node:worker_threads';
import type { AtomicWrite } from './atomic';

/** The thread's code (evaluated, so a bundle needs no second file); temp names as atomic.ts tempPathFor. */
const SOURCE = `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs'), path = require('node:path');
function fsyncPath(p) {
  const fd = fs.openSync(p, 'r');
  try { fs.fsyncSync(fd); } catch (e) { if (e.code !== 'EINVAL' && e.code !== 'EISDIR') throw e; } finally { fs.closeSync(fd); }
}
parentPort.on('message', ({ id, writes }) => {
  try {
    for (const w of writes) {
      const tmp = w.file + '.tmp-' + process.pid + '-' + Math.random().toString(36).slice(2, 8);
      try {
        fs.writeFileSync(tmp, w.data, { mode: 0o600 }); // privateDir.ts PRIVATE_FILE_MODE
        fsyncPath(tmp);
        fs.renameSync(tmp, w.file);
        if (w.syncDir !== false) fsyncPath(path.dirname(w.file));
      } catch (e) {
        fs.rmSync(tmp, { force: true });
        throw e;
      }
    }
    parentPort.postMessage({ id });
  } catch (e) {
    parentPort.postMessage({ id, error: String((e && e.message) || e) });
  }
});`;

export class WriterThread {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();
  /** Starts the thread now, idle, so that no save starts it beside a query (see the header). */
  prepare(): void {
    this.worker ??= this.start();
  }

  /** Whether the thread is running (tests). */
  get started(): boolean {
    return this.worker !== undefined;
  }

  /** Performs `writes` in order on the thread; resolves once all are durable. */
  write(writes: AtomicWrite[]): Promise<void> {
    const worker = (this.worker ??= this.start());
    worker.ref(); // keeps the process alive while writes are pending
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      // Large buffers that own their memory move to the thread instead of being copied (the vectors' pending file: up to MBs).
      const moved = writes.map((w) => w.data).filter((d): d is Buffer => typeof d !== 'string' && d.length >= 1 << 16 && d.byteOffset === 0 && d.buffer.byteLength === d.length);
      worker.postMessage({ id, writes }, moved.map((d) => d.buffer as ArrayBuffer));
    });
  }

  private start(): Worker {
    const worker = new Worker(SOURCE, { eval: true });
    worker.unref(); // an idle thread does not keep the process alive
    worker.on('message', ({ id, error }: { id: number; error?: string }) => {
      const w = this.waiting.get(id);
      this.waiting.delete(id);
      if (error) w?.reject(new Error(error));
      else w?.resolve();
      if (this.waiting.size === 0) worker.unref(); // an idle thread does not keep the process alive
    });
    const fail = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the index writer thread exited (${code})`)));
    return worker;
  }

  /** Ends the thread once its writes are done (a later write starts a new one); resolves when it is gone and its descriptors closed. */
  async close(): Promise<void> {
    if (this.waiting.size) return;
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }
}
