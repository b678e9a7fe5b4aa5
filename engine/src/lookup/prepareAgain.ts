// A file the hover reads is readied again after each live update of it: the resolver's scopes and
// module summary of the text the user typed would otherwise be built by the first hover after
// typing, on its path (110-140 ms for hono's 2,800-line types.test.ts in bench:ui). The editor's
// live update comes a pause after the last keystroke (reporecall.index.liveUpdateDelayMs), so this
// is background work: one file at a time, the latest asked, each step after the requests in flight.
// vscode-free.

/** Files whose live updates are prepared again: the few last warmed up or hovered. */
const WATCHED = 4;

export class PrepareAgain {
  /** Files readied or looked up, most recent first. */
  private watched: string[] = [];
  private next: string | undefined;
  private running: Promise<void> | undefined;
  private closed = false;

  /** `prepare`: readies a file's lookups for its current text (the engine's prepareFile). */
  constructor(private readonly prepare: (file: string) => Promise<void>) {}

  /** `file`'s lookups were readied or read (a warm-up, a hover): its next live updates are prepared again. */
  noteRead(file: string): void {
    this.watched = [file, ...this.watched.filter((f) => f !== file)].slice(0, WATCHED);
  }

  /** A live update of `file`'s text: prepared again if watched, after any prepare under way (a newer update replaces a queued one). */
  changed(file: string): void {
    if (this.closed || !this.watched.includes(file)) return;
    this.next = file;
    this.running ??= this.drain();
  }

  /** The file left the index: nothing to prepare. */
  forget(file: string): void {
    this.watched = this.watched.filter((f) => f !== file && !f.startsWith(`${file}/`));
    if (this.next === file) this.next = undefined;
  }

  /** Resolves when no prepare is queued or under way. */
  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  /** No prepare starts after this; the one under way is awaited. */
  close(): Promise<void> {
    this.closed = true;
    this.next = undefined;
    return this.idle();
  }

  private async drain(): Promise<void> {
    try {
      while (this.next !== undefined && !this.closed) {
        const file = this.next;
        this.next = undefined;
        await this.prepare(file).catch(() => undefined); // a failed warm-up costs the hover its time, nothing else
      }
    } finally {
      this.running = undefined;
    }
  }
}
