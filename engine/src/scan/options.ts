// Options of the workspace scanner, with their defaults in one place.
import type { IgnoreDecisionCache } from './ignoreCache';

/**
 * Directory names skipped wherever they appear (exact basename match, directories only).
 *
 * VCS metadata, installed dependencies, virtual environments, caches and build output: code the user
 * did not write, or wrote once and compiled. `build`, `out`, `dist`, `target` and `vendor` are
 * occasionally real source directories; skipping them anyway matches what Copilot/Cody-class tools
 * do, and a repository that keeps sources there can pass its own `defaultExcludedDirs`.
 */
export const DEFAULT_EXCLUDED_DIRS: readonly string[] = [
  // version control
  '.git', '.hg', '.svn', '.bzr', '_darcs',
  // JavaScript / TypeScript dependencies, caches and build output
  'node_modules', 'bower_components', 'jspm_packages', '.yarn', '.pnpm-store', '.next', '.nuxt',
  '.svelte-kit', '.turbo', '.parcel-cache', '.angular', '.vscode-test', '.nyc_output', 'coverage',
  // Python environments and caches
  '__pycache__', '.venv', 'venv', '.tox', '.nox', '.mypy_cache', '.pytest_cache', '.ruff_cache',
  '.ipynb_checkpoints', '.eggs', 'site-packages',
  // generic build output and vendored dependencies (Go, PHP, Ruby)
  'dist', 'build', 'out', 'target', 'obj', 'vendor', '.gradle', '.terraform', 'Pods', 'DerivedData',
  // editor / tool state
  '.idea', '.vs', '.cache',
];

/** How much of each file the scanner reads to classify it. */
export type ContentCheck =
  /** Names and sizes only; the caller must run `classifyContent` when it reads the file. */
  | 'none'
  /** Read the first `CONTENT_SAMPLE_BYTES` of each candidate (binary/minified/generated/UTF-8 checks). */
  | 'head'
  /** Read each candidate whole (at most `maxFileBytes`) and hand the bytes to `onFile`, so the
   *  indexer does not read the file a second time. */
  | 'full';

export interface ScanOptions {
  /** Files larger than this many bytes are skipped as `too-large`. Default 1 MiB. */
  maxFileBytes?: number;
  /** Extra gitignore-style patterns, anchored at the workspace root (e.g. VS Code's `files.exclude`
   *  converted by the caller). They take precedence over every ignore file, and may use `!` to
   *  re-include what an ignore file excluded. */
  excludePatterns?: string[];
  /** Extra secret deny-list patterns (gitignore syntax), on top of `BUILTIN_SECRET_PATTERNS`.
   *  Secret files are never opened. */
  secretPatterns?: string[];
  /** Directory basenames skipped at any depth; replaces `DEFAULT_EXCLUDED_DIRS` when given
   *  (pass `[]` to walk everything that no ignore file excludes). */
  defaultExcludedDirs?: readonly string[];
  /** When given, only files with these extensions are accepted (`.py` or `py`, case-insensitive);
   *  others are skipped as `unsupported`. */
  extensions?: string[];
  /** Follow symbolic links (default true). Links to directories are followed once per real directory
   *  (a realpath visited-set breaks loops); links whose target lies outside the workspace are skipped. */
  followSymlinks?: boolean;
  /** Stop after accepting this many files (a safety cap for huge trees); the result says `truncated`. */
  maxFiles?: number;
  /** How much of each file is read during the scan. Default `'head'`. */
  contentCheck?: ContentCheck;
  /** Cancels the scan (checked between files); `scanWorkspace` then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Ignore decisions per directory from an earlier scan; this scan uses and updates it. */
  ignoreCache?: IgnoreDecisionCache;
}

/** Bytes read from the head of a file for content classification. */
export const CONTENT_SAMPLE_BYTES = 64 * 1024;

export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

export interface ResolvedScanOptions {
  maxFileBytes: number;
  excludePatterns: string[];
  secretPatterns: string[];
  defaultExcludedDirs: ReadonlySet<string>;
  extensions: ReadonlySet<string> | null;
  followSymlinks: boolean;
  maxFiles: number;
  contentCheck: ContentCheck;
  signal: AbortSignal | undefined;
  ignoreCache: IgnoreDecisionCache | undefined;
}

export function resolveScanOptions(opts: ScanOptions = {}): ResolvedScanOptions {
  const positive = (name: string, value: number | undefined, fallback: number): number => {
    if (value === undefined) return fallback;
    if (!Number.isFinite(value) || value <= 0) {
      throw new Error(`scan option ${name} must be a positive number, got ${value}`);
    }
    return value;
  };
  const contentCheck = opts.contentCheck ?? 'head';
  if (!['none', 'head', 'full'].includes(contentCheck)) {
    throw new Error(`scan option contentCheck must be 'none', 'head' or 'full', got ${String(contentCheck)}`);
  }
  return {
    maxFileBytes: positive('maxFileBytes', opts.maxFileBytes, DEFAULT_MAX_FILE_BYTES),
    excludePatterns: opts.excludePatterns ?? [],
    secretPatterns: opts.secretPatterns ?? [],
    defaultExcludedDirs: new Set(opts.defaultExcludedDirs ?? DEFAULT_EXCLUDED_DIRS),
    extensions: opts.extensions
      ? new Set(opts.extensions.map((e) => (e.startsWith('.') ? e : '.' + e).toLowerCase()))
      : null,
    followSymlinks: opts.followSymlinks ?? true,
    maxFiles: positive('maxFiles', opts.maxFiles, Infinity),
    contentCheck,
    signal: opts.signal,
    ignoreCache: opts.ignoreCache,
  };
}
