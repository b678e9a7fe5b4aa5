// A buffer's hover lookups are readied again after each live update of it: the resolver's scopes
// and module summary of the text the user typed would otherwise be built by the first hover after
// typing, on its path (110-140 ms for hono's 2,800-line types.test.ts in bench:ui). The editor's
// live update comes a pause after the last keystroke (reporecall.index.liveUpdateDelayMs), and the
// warm-up readies the file the user is in the same way (extension/src/features/warmUp.ts): this is
// background work, one file at a time, the latest update winning over a queued one. vscode-free.

export class PrepareAgain {
  private next: string | undefined;
  private running: Promise<void> | undefined;
  private closed = false;

  /** `prepare`: readies a file's lookups for its current text (the engine's prepareFile). */
  constructor(private readonly prepare: (file: string) => Promise<void>) {}

  /** A live update of `file`'s text: prepared again after any prepare under way (a newer update replaces a queued one). */
  changed(file: string): void {
    if (this.closed) return;
    this.next = file;
    this.running ??= this.drain();
  }

  /** The file, or a folder holding it, left the index: not prepared. */
  forget(file: string): void {
    if (this.next === file || this.next?.startsWith(`${file}/`)) this.next = undefined;
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
