// The text the engine shows and re-reads: unsaved editor buffers (they win over the disk copy)
// and the lines of recently used files.

/** Files whose lines are kept in memory for showing retrieved chunks. */
export const LINE_CACHE_FILES = 256;

export class Buffers {
  /** Unsaved editor buffers, by relPath. */
  private readonly overlays = new Map<string, string>();
  private readonly lines = new Map<string, string[]>();

  /** @param read a file's text from disk by relPath (throws when it cannot be read) */
  constructor(private readonly read: (relPath: string) => string, private readonly split: (text: string) => string[], private readonly capacity = LINE_CACHE_FILES) {}

  /** Every unsaved buffer (applied again after a synced index replaced the loaded one). */
  overlayEntries(): Array<[string, string]> {
    return [...this.overlays];
  }

  overlay(relPath: string): string | undefined {
    return this.overlays.get(relPath);
  }

  /** Sets (or, with undefined, drops) the unsaved buffer of a file. */
  setOverlay(relPath: string, content: string | undefined): void {
    if (content !== undefined) this.overlays.set(relPath, content);
    else this.overlays.delete(relPath);
  }

  /** A file's lines: its buffer's, else the disk's; none when it cannot be read. */
  linesOf(file: string): string[] {
    let lines = this.lines.get(file);
    if (!lines) {
      const overlay = this.overlays.get(file);
      try {
        lines = this.split(overlay ?? this.read(file));
      } catch {
        lines = [];
      }
      this.cacheLines(file, lines);
    }
    return lines;
  }

  /** Keeps the lines of the most recently used files (a cold index must not keep them all). */
  cacheLines(file: string, lines: string[]): void {
    this.lines.delete(file);
    if (this.lines.size >= this.capacity) this.lines.delete(this.lines.keys().next().value!);
    this.lines.set(file, lines);
  }

  /** Forgets the cached lines of a file (it changed or left the index). */
  forgetLines(file: string): void {
    this.lines.delete(file);
  }
}
