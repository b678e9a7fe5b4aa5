// Disposal that does not stop at the first failure: one throwing disposable must not leave the
// engines, providers and watchers after it alive (issue 32). No `vscode` import: unit-tested as is.

/** Anything with a dispose() (vscode.Disposable, a FolderIndex, a timer wrapper). */
export interface DisposableLike {
  dispose(): unknown;
}

/**
 * Disposes each in order, even when some throw, then throws what they threw: the error itself
 * when one failed, an AggregateError when several did.
 */
export function disposeAll(disposables: Iterable<DisposableLike>): void {
  throwCollected(disposeEach(disposables));
}

/** Disposables added as they come (a feature registering more later); disposed together, last first, even when some throw. */
export class DisposableStore {
  private readonly parts: DisposableLike[] = [];

  add(...parts: DisposableLike[]): void {
    this.parts.push(...parts);
  }

  dispose(): void {
    disposeAll(this.parts.splice(0).reverse());
  }
}

/** One disposable for many (a feature's registrations), disposed as DisposableStore does. */
export function combined(...parts: DisposableLike[]): DisposableStore {
  const store = new DisposableStore();
  store.add(...parts);
  return store;
}

/** Disposes each in order, even when some throw; returns what they threw. */
export function disposeEach(disposables: Iterable<DisposableLike>): unknown[] {
  const errors: unknown[] = [];
  for (const d of disposables) {
    try {
      d.dispose();
    } catch (e) {
      errors.push(e);
    }
  }
  return errors;
}

/** Throws nothing, the one error, or all of them together. */
export function throwCollected(errors: unknown[]): void {
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, `${errors.length} disposables failed: ${errors.map((e) => (e instanceof Error ? e.message : String(e))).join('; ')}`);
}
