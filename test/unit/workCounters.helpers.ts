// Counters of the work a lookup does, for the hover tests' "no work repeated / none on the
// request path" checks (not a test file itself): calls of a module function, scopes built.
import * as scopes from '../../engine/src/resolve/scopes';

/**
 * Calls to `owner[key]` whose first argument `mine` accepts while `run` runs (the original is called
 * through); other engines of the same test process may parse meanwhile: their calls are not counted.
 */
export async function counting<T extends object>(owner: T, key: keyof T, mine: (first: unknown) => boolean, run: () => Promise<unknown>): Promise<number> {
  const original = owner[key] as (...args: unknown[]) => unknown;
  let calls = 0;
  (owner as Record<keyof T, unknown>)[key] = function (this: unknown, ...args: unknown[]) {
    if (mine(args[0])) calls++;
    return original.apply(this, args);
  };
  try {
    await run();
  } finally {
    (owner as Record<keyof T, unknown>)[key] = original;
  }
  return calls;
}

/** LocalScopes built for `file` (its tree's text names it) while `run` runs: the O(file) part of resolving a name there. */
export async function scopesBuilt(marker: string, run: () => Promise<unknown>): Promise<number> {
  const original = scopes.LocalScopes;
  let built = 0;
  const mod = scopes as { LocalScopes: typeof scopes.LocalScopes };
  mod.LocalScopes = class extends original {
    constructor(...args: ConstructorParameters<typeof original>) {
      super(...args);
      if (args[0].rootNode.text.includes(marker)) built++;
    }
  };
  try {
    await run();
  } finally {
    mod.LocalScopes = original;
  }
  return built;
}
