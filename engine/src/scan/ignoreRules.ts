// All ignore-file logic of the scanner, modelled on ripgrep's `ignore` crate: a stack of matchers,
// one per directory that has ignore files, each matching paths relative to its own directory.
// The deepest matcher with an opinion decides (so a nested `!pattern` re-includes), and the
// configured excludes are an override layer above every file.
//
// Precedence, lowest first:
//   <repo>/.git/info/exclude  <  .gitignore (root ... deepest)  — within one directory, .reporecallignore
//   beats .gitignore (as ripgrep's .ignore does)  <  ScanOptions.excludePatterns.
// .gitignore files are honoured whether or not the folder is a git repository.
// Lines are parsed and matched by gitignoreGlob.ts (linear time: a repository's ignore file is
// untrusted input); a line or file beyond the matching budget is not applied, with a warning.
import { createHash } from 'node:crypto';
import { literalKeys, parseGitignoreLine, ruleMatches, type GlobRule } from './gitignoreGlob';

/** Ignore files read in every directory, in increasing precedence. */
export const IGNORE_FILE_NAMES = ['.gitignore', '.reporecallignore'] as const;

/** One rule file's budget: beyond it the file is not applied at all (a 5,000-line .gitignore is ~150 KB). */
export const MAX_RULES_PER_SOURCE = 50_000;
export const MAX_SOURCE_CHARS = 4 * 1024 * 1024;

// git matches case-insensitively where the filesystem does (core.ignorecase).
const IGNORE_CASE = process.platform === 'win32' || process.platform === 'darwin';
/** Bump when matching semantics change: persisted per-directory decisions keyed by it go stale. */
const RULES_VERSION = 'gitignore-glob-1'; // a cache key: unchanged by the file's rename

export interface RuleTest {
  ignored: boolean;
  unignored: boolean;
  rule?: GlobRule;
}

/** The rules of one source (an ignore file, or configured patterns), in order: the last match wins. */
export class RuleList {
  readonly rules: GlobRule[] = [];
  /** Lines or the whole source not applied, and why (`sub/.gitignore:3: ...`). */
  readonly warnings: string[] = [];

  // As ripgrep's globset: a rule that needs a literal path segment, or a literal extension of the
  // name, is tried only for paths that have it (a 5,000-line .gitignore is mostly such rules).
  private readonly bySegment = new Map<string, number[]>();
  private readonly byExtension = new Map<string, number[]>();
  private readonly general: number[] = [];

  constructor(patterns: string | readonly string[], readonly source = 'patterns') {
    const text = typeof patterns === 'string' ? patterns.replace(/^\uFEFF/, '') : patterns.join('\n');
    const lines = text.split('\n');
    if (lines.length > MAX_RULES_PER_SOURCE || text.length > MAX_SOURCE_CHARS) {
      this.warnings.push(`${source}: ${lines.length} lines, ${text.length} characters exceed the matching budget (${MAX_RULES_PER_SOURCE} lines, ${MAX_SOURCE_CHARS} characters); its rules are not applied`);
      return;
    }
    lines.forEach((line, i) => {
      const parsed = parseGitignoreLine(line, IGNORE_CASE);
      if (parsed && 'skip' in parsed) this.warnings.push(`${source}:${i + 1}: ${parsed.skip}; this line is not applied`);
      else if (parsed) this.add(parsed);
    });
  }

  private add(rule: GlobRule): void {
    const index = this.rules.push(rule) - 1;
    const keys = literalKeys(rule);
    const list = keys.segment !== undefined ? getList(this.bySegment, keys.segment) : keys.extension !== undefined ? getList(this.byExtension, keys.extension) : this.general;
    list.push(index);
  }

  /** The decision for this path alone (its parent directories are the caller's to check). */
  test(path: string, isDir = false): RuleTest {
    const folded = IGNORE_CASE ? path.toLowerCase() : path;
    const parts = folded.split('/');
    const base = parts[parts.length - 1];
    const dot = base.lastIndexOf('.');
    let best = this.lastMatch(this.general, -1, path, isDir);
    if (dot >= 0) best = this.lastMatch(this.byExtension.get(base.slice(dot)), best, path, isDir);
    for (const part of parts) best = this.lastMatch(this.bySegment.get(part), best, path, isDir);
    if (best < 0) return { ignored: false, unignored: false };
    const rule = this.rules[best];
    return { ignored: !rule.negative, unignored: rule.negative, rule };
  }

  /** The last rule of `candidates` (ascending indexes) after `best` that matches, else `best`. */
  private lastMatch(candidates: number[] | undefined, best: number, path: string, isDir: boolean): number {
    if (!candidates) return best;
    for (let i = candidates.length - 1; i >= 0 && candidates[i] > best; i--) {
      if (ruleMatches(this.rules[candidates[i]], path, isDir, IGNORE_CASE)) return candidates[i];
    }
    return best;
  }

  /** Whether a file path, or one of its parent directories, is ignored (git: a file in an ignored directory is). */
  ignores(path: string): boolean {
    const parts = path.split('/').filter(Boolean);
    for (let i = 1; i <= parts.length; i++) {
      if (this.test(parts.slice(0, i).join('/'), i < parts.length).ignored) return true;
    }
    return false;
  }
}

function getList(map: Map<string, number[]>, key: string): number[] {
  let list = map.get(key);
  if (!list) map.set(key, (list = []));
  return list;
}

export function createMatcher(patterns: string | readonly string[], source?: string): RuleList {
  return new RuleList(patterns, source);
}

interface Layer {
  /** Workspace-relative directory the patterns are anchored at ('' = root), no trailing slash. */
  base: string;
  /** Where the patterns came from, for the skip detail (`sub/.gitignore`). */
  source: string;
  rules: RuleList;
}

export interface IgnoreDecision {
  ignored: boolean;
  /** The file and pattern that decided, e.g. `sub/.gitignore: *.log`. */
  reason?: string;
}

/** The ignore rules in force for one directory: its ancestors' layers plus its own. Immutable. */
export class IgnoreRules {
  private constructor(
    private readonly layers: readonly Layer[],
    private readonly overrides: Layer | null,
    /** Digest of every rule in force and where it applies: equal keys, equal decisions. */
    readonly key: string,
    private readonly warn: (message: string) => void,
  ) {}

  /** Rules for the workspace root, before any ignore file is read. `warn` hears of rules not applied. */
  static root(excludePatterns: readonly string[], warn: (message: string) => void = () => undefined): IgnoreRules {
    const overrides = excludePatterns.length ? compile('', 'excludePatterns', excludePatterns, warn) : null;
    const key = digest([RULES_VERSION, String(IGNORE_CASE), ...excludePatterns]);
    return new IgnoreRules([], overrides, key, warn);
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
      added.push(compile(dirRel, dirRel ? `${dirRel}/${name}` : name, text, this.warn));
    }
    if (!added.length) return this;
    const key = digest([this.key, ...files.flatMap(([name, text]) => [dirRel, name, text])]);
    return new IgnoreRules([...this.layers, ...added], this.overrides, key, this.warn);
  }

  /** Whether a workspace-relative path (forward slashes) is ignored; its parent directories are not checked. */
  match(relPath: string, isDir: boolean): IgnoreDecision {
    let decision: IgnoreDecision = { ignored: false };
    for (const layer of this.layers) {
      decision = IgnoreRules.testLayer(layer, relPath, isDir) ?? decision;
    }
    if (this.overrides) decision = IgnoreRules.testLayer(this.overrides, relPath, isDir) ?? decision;
    return decision;
  }

  private static testLayer(layer: Layer, relPath: string, isDir: boolean): IgnoreDecision | null {
    let local: string;
    if (layer.base === '') local = relPath;
    else if (relPath.startsWith(layer.base + '/')) local = relPath.slice(layer.base.length + 1);
    else return null;
    if (!local) return null;
    const result = layer.rules.test(local, isDir);
    if (!result.ignored && !result.unignored) return null;
    return { ignored: result.ignored, reason: `${layer.source}: ${result.rule?.pattern ?? '?'}` };
  }
}

/** Compiled when read (the warnings then reach the user on every scan, cached decisions or not). */
function compile(base: string, source: string, text: string | readonly string[], warn: (message: string) => void): Layer {
  const rules = new RuleList(text, source);
  rules.warnings.forEach(warn);
  return { base, source, rules };
}

function digest(parts: readonly string[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(`${p.length}:`).update(p);
  return h.digest('base64url');
}
