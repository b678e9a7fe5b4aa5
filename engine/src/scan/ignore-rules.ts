// All ignore-file logic of the scanner, modelled on ripgrep's `ignore` crate: a stack of matchers,
// one per directory that has ignore files, each matching paths relative to its own directory.
// The deepest matcher with an opinion decides (so a nested `!pattern` re-includes), and the
// configured excludes are an override layer above every file.
//
// Precedence, lowest first:
//   <repo>/.git/info/exclude  <  .gitignore (root ... deepest)  — within one directory, .reporecallignore
//   beats .gitignore (as ripgrep's .ignore does)  <  ScanOptions.excludePatterns.
// .gitignore files are honoured whether or not the folder is a git repository.
import ignore, { type Ignore } from 'ignore';

/** Ignore files read in every directory, in increasing precedence. */
export const IGNORE_FILE_NAMES = ['.gitignore', '.reporecallignore'] as const;

// git matches case-insensitively where the filesystem does (core.ignorecase).
const IGNORE_CASE = process.platform === 'win32' || process.platform === 'darwin';

interface Layer {
  /** Workspace-relative directory the patterns are anchored at ('' = root), no trailing slash. */
  base: string;
  matcher: Ignore;
  /** Where the patterns came from, for the skip detail (`sub/.gitignore`). */
  source: string;
}

export interface IgnoreDecision {
  ignored: boolean;
  /** The file and pattern that decided, e.g. `sub/.gitignore: *.log`. */
  reason?: string;
}

export function createMatcher(patterns: string | readonly string[]): Ignore {
  return ignore({ ignorecase: IGNORE_CASE }).add(patterns as string[]);
}

/** The ignore rules in force for one directory: its ancestors' layers plus its own. Immutable. */
export class IgnoreRules {
  private constructor(
    private readonly layers: readonly Layer[],
    private readonly overrides: Layer | null,
  ) {}

  /** Rules for the workspace root, before any ignore file is read. */
  static root(excludePatterns: readonly string[]): IgnoreRules {
    const overrides = excludePatterns.length
      ? { base: '', matcher: createMatcher(excludePatterns), source: 'excludePatterns' }
      : null;
    return new IgnoreRules([], overrides);
  }

  /**
   * Rules for a directory below (or at) the current one. `files` are the ignore files found in it
   * as [source name, text] pairs, lowest precedence first (e.g. `.git/info/exclude`, `.gitignore`,
   * `.reporecallignore`). Returns `this` when the directory adds nothing.
   */
  withDirectory(dirRel: string, files: ReadonlyArray<readonly [name: string, text: string]>): IgnoreRules {
    const added: Layer[] = [];
    for (const [name, text] of files) {
      if (!text.trim()) continue;
      added.push({ base: dirRel, matcher: createMatcher(text), source: dirRel ? `${dirRel}/${name}` : name });
    }
    return added.length ? new IgnoreRules([...this.layers, ...added], this.overrides) : this;
  }

  /** Whether a workspace-relative path (forward slashes) is ignored. */
  match(relPath: string, isDir: boolean): IgnoreDecision {
    let decision: IgnoreDecision = { ignored: false };
    for (const layer of this.layers) {
      decision = testLayer(layer, relPath, isDir) ?? decision;
    }
    if (this.overrides) decision = testLayer(this.overrides, relPath, isDir) ?? decision;
    return decision;
  }
}

function testLayer(layer: Layer, relPath: string, isDir: boolean): IgnoreDecision | null {
  let local: string;
  if (layer.base === '') local = relPath;
  else if (relPath.startsWith(layer.base + '/')) local = relPath.slice(layer.base.length + 1);
  else return null;
  if (!local) return null;
  let result;
  try {
    // A trailing slash tells `ignore` this is a directory, so `dir/` patterns apply.
    result = layer.matcher.test(isDir ? local + '/' : local);
  } catch {
    // `ignore` rejects some exotic names (e.g. ones it reads as non-relative); no pattern can match them.
    return null;
  }
  if (result.ignored) return { ignored: true, reason: `${layer.source}: ${result.rule?.pattern ?? '?'}` };
  if (result.unignored) return { ignored: false, reason: `${layer.source}: ${result.rule?.pattern ?? '?'}` };
  return null;
}
