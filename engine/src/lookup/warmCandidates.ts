// A hover on a member whose receiver is not known (`res.headers.get(...)`) describes every
// definition of its spelling as a candidate, each read from its file's definitions
// (fileDefinitions.ts: a parse of the file): 62-65 ms on bench:ui's first `get` in hono, most of it
// parsing hono.test.ts and context.ts. A file's warm-up reads those files in the background
// instead, one a pause, so the first hover on such a name parses none of them. What the hover
// answers is unchanged: the same kept definitions, per file text.

/** Files one warm-up parses for its member names' candidates (PARAMS.md). */
export const WARMED_CANDIDATE_FILES = 32;

export interface CandidateSource {
  /** The definition table's files for a name, in its order (the hover reads them in this order). */
  definitionsOf(name: string): ReadonlyArray<{ file: string }>;
  /** Whether reading the file's definitions costs nothing (kept for its current text, or nothing to read). */
  kept(file: string): boolean;
  /** Whether the file defines `name` (reading and keeping its definitions). */
  defines(file: string, name: string): Promise<boolean>;
  /** Whether the warm-up's text is no longer the file's latest (a newer one has its own warm-up). */
  stale(): boolean;
}

/** Distinct names after `.`, `->` or `::` in a text, first seen first: the members a hover there may not resolve. */
export function memberNames(text: string, minLength = 2): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(/(?:\.|->|::)[ \t]*([A-Za-z_$][\w$]*)/g)) if (m[1].length >= minLength) names.add(m[1]);
  return [...names];
}

/**
 * Reads the files whose definitions a hover on each member name of `text` would describe (the
 * first `perName` files defining it, as the hover reads them), a `pause` before each file not yet
 * kept, at most `maxFiles` of them; stops when the text is stale. Returns the files read.
 */
export async function warmCandidates(text: string, src: CandidateSource, pause: () => Promise<void>, perName: number, maxFiles = WARMED_CANDIDATE_FILES): Promise<number> {
  let read = 0;
  for (const name of memberNames(text)) {
    let found = 0;
    for (const ref of src.definitionsOf(name)) {
      if (found >= perName) break;
      if (!src.kept(ref.file)) {
        if (read >= maxFiles) return read;
        await pause();
        if (src.stale()) return read;
        read++;
      }
      if (await src.defines(ref.file, name)) found++;
    }
  }
  return read;
}
