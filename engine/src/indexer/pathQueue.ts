// Runs the index work on one path in the order it was asked for. Without it a removal that arrives
// while an update of the same file is still parsing runs first, and the update, finishing after
// it, puts the deleted file back for good (a flaky integration test: "the deleted file never left
// the index").
export class PathQueue {
  private readonly tails = new Map<string, Promise<void>>();

  /**
   * Runs `work` after everything asked earlier for `path` (and, for `subtree`, for any path under
   * it: a deleted folder arrives as one event). A failed earlier step does not stop later ones.
   */
  run(path: string, work: () => Promise<void>, subtree = false): Promise<void> {
    const prefix = path.replace(/\/+$/, '') + '/';
    const before = subtree ? [...this.tails].filter(([p]) => p === path || p.startsWith(prefix)).map(([, t]) => t) : [this.tails.get(path)];
    const result = Promise.all(before).then(work);
    const tail = result.catch(() => undefined);
    this.tails.set(path, tail);
    void tail.then(() => {
      if (this.tails.get(path) === tail) this.tails.delete(path);
    });
    return result;
  }

  /** Paths with work queued or running (tests). */
  get size(): number {
    return this.tails.size;
  }
}
