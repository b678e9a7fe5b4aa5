// The workspace walk: which files get indexed and why the others do not.
//
// The walk is iterative and uses synchronous fs calls (measured faster than promise-based ones:
// docs/investigations/ignore-rules-scale.md), yielding to the event loop every few milliseconds. Symbolic links are
// resolved after the plain tree has been walked, so a link to a directory that is also reachable
// directly is reported once as a duplicate instead of shadowing the real path; a realpath
// visited-set makes link loops terminate.
import { isUtf8 } from 'node:buffer';
import * as fs from 'node:fs';
import type { Dirent } from 'node:fs';
import * as path from 'node:path';
import type { ScannedFile, SkippedFile, SkipReason } from '../types';
import { classifyContent, classifyPath } from './classify';
import { IGNORE_FILE_NAMES, IgnoreRules, type IgnoreDecision } from './ignoreRules';
import { CONTENT_SAMPLE_BYTES, resolveScanOptions, type ResolvedScanOptions, type ScanOptions } from './options';
import { isSecretPath } from './secrets';
import { Breather } from '../util/breathe';

export interface ScanResult {
  /** Accepted files, sorted by `relPath`. */
  files: ScannedFile[];
  /** Everything passed over, sorted by `relPath`. An excluded directory is one entry (path ending
   *  in `/`); its contents are not listed. */
  skipped: SkippedFile[];
  /** True when `maxFiles` stopped the scan early. */
  truncated: boolean;
  /** Ignore rules not applied (a line or a file beyond the matching budget), each naming its file. */
  warnings: string[];
}

export interface ScanCallbacks {
  /** Called for each accepted file as it is found (walk order, not sorted). With `contentCheck: 'full'`, `bytes`
   *  is the whole file. Awaited: a slow consumer slows the scan instead of piling up buffers. */
  onFile?(file: ScannedFile, bytes?: Buffer): void | Promise<void>;
  /** Called for each skipped file or directory as it is found (progress / logging). */
  onSkip?(skipped: SkippedFile): void;
}

/** Scans a workspace folder (absolute path) and returns the files worth indexing. */
export async function scanWorkspace(
  root: string,
  opts: ScanOptions = {},
  callbacks: ScanCallbacks = {},
): Promise<ScanResult> {
  const walker = await Walker.create(root, resolveScanOptions(opts), callbacks);
  return walker.run();
}

/** Counts skips by reason, in the shape of `IndexStats.skipped`. */
export function countSkips(skipped: readonly SkippedFile[]): Partial<Record<SkipReason, number>> {
  const counts: Partial<Record<SkipReason, number>> = {};
  for (const s of skipped) counts[s.reason] = (counts[s.reason] ?? 0) + 1;
  return counts;
}

interface DirJob {
  abs: string;
  /** Workspace-relative, '' for the root. */
  rel: string;
  /** Real path (symlinks resolved), for loop detection. */
  real: string;
  rules: IgnoreRules;
}

interface LinkJob {
  abs: string;
  rel: string;
  rules: IgnoreRules;
}

const byRelPath = (a: { relPath: string }, b: { relPath: string }) =>
  a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0;

/** Yield to the event loop at least this often (ms of synchronous work). */
const YIELD_EVERY_MS = 15;

class Walker {
  private readonly files: ScannedFile[] = [];
  private readonly skipped: SkippedFile[] = [];
  private readonly pendingDirs: DirJob[] = [];
  /** Real paths of directories walked (or queued). */
  private readonly visitedDirs = new Set<string>();
  /** Real path -> relPath of accepted files, to spot links that duplicate them. */
  private readonly acceptedReal = new Map<string, string>();
  private pendingLinks: LinkJob[] = [];
  private truncated = false;
  private readonly warnings: string[] = [];
  /** Lets the event loop run (abort signals, worker messages) during a long synchronous walk. */
  private readonly breather: Breather;
  /** Reused buffer for head reads (the bytes are copied out before the next read). */
  private readonly sample = Buffer.allocUnsafe(CONTENT_SAMPLE_BYTES);

  private constructor(
    private readonly rootAbs: string,
    private readonly rootReal: string,
    private readonly opts: ResolvedScanOptions,
    private readonly callbacks: ScanCallbacks,
  ) {
    this.breather = new Breather(YIELD_EVERY_MS, opts.signal);
  }

  static async create(root: string, opts: ResolvedScanOptions, callbacks: ScanCallbacks): Promise<Walker> {
    if (typeof root !== 'string' || !root) throw new Error('scanWorkspace: root must be a non-empty path');
    const rootAbs = path.resolve(root);
    let rootReal: string;
    try {
      rootReal = fs.realpathSync(rootAbs);
      if (!fs.statSync(rootReal).isDirectory()) throw new Error('not a directory');
    } catch (err) {
      throw new Error(`scanWorkspace: cannot scan ${rootAbs}: ${describeError(err)}`, { cause: err });
    }
    return new Walker(rootAbs, rootReal, opts, callbacks);
  }

  async run(): Promise<ScanResult> {
    this.visitedDirs.add(this.rootReal);
    const rules = IgnoreRules.root(this.opts.excludePatterns, (w) => this.warnings.push(w));
    this.pendingDirs.push({ abs: this.rootAbs, rel: '', real: this.rootReal, rules });
    // Links last: by then every directory reachable without links is in visitedDirs.
    while (!this.truncated && (this.pendingDirs.length || this.pendingLinks.length)) {
      const dir = this.pendingDirs.pop();
      if (dir) await this.walkDir(dir);
      else await this.resolveLink(this.pendingLinks.shift()!);
    }
    const { files, skipped, truncated, warnings } = this;
    return { files: files.sort(byRelPath), skipped: skipped.sort(byRelPath), truncated, warnings };
  }

  private skip(relPath: string, reason: SkipReason, detail?: string): void {
    const entry: SkippedFile = detail === undefined ? { relPath, reason } : { relPath, reason, detail };
    this.skipped.push(entry);
    this.callbacks.onSkip?.(entry);
  }

  private async walkDir(dir: DirJob): Promise<void> {
    this.opts.signal?.throwIfAborted();
    let entries: Dirent[];
    try {
      entries = fs.readdirSync(dir.abs, { withFileTypes: true });
      // Node spells a name that is not UTF-8 with U+FFFD, a path that opens nothing: read such a directory's names as bytes.
      if (entries.some((e) => e.name.includes('\uFFFD'))) entries = this.withoutInvalidNames(dir);
    } catch (err) {
      this.skip(dir.rel ? dir.rel + '/' : './', 'unreadable', describeError(err));
      return;
    }
    const rules = this.rulesFor(dir, entries);
    const ignored = this.ignoredEntries(dir.rel, rules, entries);
    for (const entry of entries) {
      if (this.truncated) return;
      const name = entry.name;
      const rel = dir.rel ? `${dir.rel}/${name}` : name;
      const abs = path.join(dir.abs, name);
      if (entry.isDirectory()) {
        const real = `${dir.real}${path.sep}${name}`;
        if (this.excludeDir(name, rel, decision(ignored, name)) || this.visitedDirs.has(real)) continue;
        this.visitedDirs.add(real);
        this.pendingDirs.push({ abs, rel, real, rules });
      } else if (name === '.git') {
        this.skip(rel, 'ignored', 'git metadata'); // a worktree's or submodule's gitfile
      } else if (entry.isSymbolicLink()) {
        if (ignored.has(name)) this.skip(rel, 'ignored', ignored.get(name));
        else if (!this.opts.followSymlinks) this.skip(rel, 'ignored', 'symbolic link (followSymlinks is off)');
        else this.pendingLinks.push({ abs, rel, rules });
      } else if (entry.isFile()) {
        if (ignored.has(name)) this.skip(rel, 'ignored', ignored.get(name));
        else await this.inspectFile(abs, rel, `${dir.real}${path.sep}${name}`, null);
      } else {
        this.skip(rel, 'unsupported', 'not a regular file');
      }
      await this.breather.breathe();
    }
  }

  /** The directory's entries with names that are valid UTF-8; the others are reported as `invalid-name`. */
  private withoutInvalidNames(dir: DirJob): Dirent[] {
    const kept: Dirent[] = [];
    for (const entry of fs.readdirSync(dir.abs, { withFileTypes: true, encoding: 'buffer' })) {
      const raw = entry.name;
      if (isUtf8(raw)) {
        kept.push(Object.assign(entry, { name: raw.toString('utf8') }) as unknown as Dirent);
        continue;
      }
      const shown = escapeInvalidUtf8(raw);
      const rel = dir.rel ? `${dir.rel}/${shown}` : shown;
      this.skip(entry.isDirectory() ? rel + '/' : rel, 'invalid-name', 'name not valid UTF-8');
    }
    return kept;
  }

  /** True (and reported) when a directory is not to be entered. */
  private excludeDir(name: string, rel: string, ignored: IgnoreDecision): boolean {
    if (this.opts.defaultExcludedDirs.has(name)) {
      this.skip(rel + '/', 'ignored', 'default-excluded directory');
      return true;
    }
    if (ignored.ignored) {
      this.skip(rel + '/', 'ignored', ignored.reason);
      return true;
    }
    return false;
  }

  /** The directory's ignored entries (name -> reason), from the decision cache when rules and entries are unchanged. */
  private ignoredEntries(dirRel: string, rules: IgnoreRules, entries: readonly Dirent[]): ReadonlyMap<string, string> {
    const decide = () => {
      const out = new Map<string, string>();
      for (const e of entries) {
        const d = rules.match(dirRel ? `${dirRel}/${e.name}` : e.name, e.isDirectory());
        if (d.ignored) out.set(e.name, d.reason ?? '');
      }
      return out;
    };
    return this.opts.ignoreCache ? this.opts.ignoreCache.decisions(dirRel, rules.key, entries, decide) : decide();
  }

  /** Adds the directory's ignore files (and its repository's .git/info/exclude) to the rules. */
  private rulesFor(dir: DirJob, entries: readonly Dirent[]): IgnoreRules {
    const wanted: string[] = [];
    if (entries.some((e) => e.name === '.git' && e.isDirectory())) wanted.push('.git/info/exclude');
    for (const name of IGNORE_FILE_NAMES) {
      if (entries.some((e) => e.name === name && !e.isDirectory())) wanted.push(name);
    }
    if (!wanted.length) return dir.rules;
    const files: Array<[string, string]> = [];
    for (const name of wanted) {
      try {
        files.push([name, fs.readFileSync(path.join(dir.abs, name), 'utf8')]);
      } catch (err) {
        const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
        // .git/info/exclude is optional; a listed ignore file that cannot be read is worth reporting.
        if (!(missing && name.startsWith('.git/'))) {
          this.skip(dir.rel ? `${dir.rel}/${name}` : name, 'unreadable', describeError(err));
        }
      }
    }
    return dir.rules.withDirectory(dir.rel, files);
  }

  /** Checks a regular file (or a link's target) and accepts it or reports why not. */
  private async inspectFile(abs: string, rel: string, real: string, rules: IgnoreRules | null): Promise<void> {
    const opts = this.opts;
    // null: the ignore rules were applied already (walkDir's per-directory decisions).
    const ignored = rules?.match(rel, false);
    if (ignored?.ignored) return this.skip(rel, 'ignored', ignored.reason);
    if (isSecretPath(rel, opts.secretPatterns)) return this.skip(rel, 'secret');
    if (opts.extensions && !opts.extensions.has(path.extname(rel).toLowerCase())) {
      return this.skip(rel, 'unsupported', 'extension not selected');
    }
    const byName = classifyPath(rel);
    if (byName) return this.skip(rel, byName);

    const inspected = inspectContent(abs, opts.maxFileBytes, opts.contentCheck, this.sample);
    if ('reason' in inspected) return this.skip(rel, inspected.reason, inspected.detail);
    const reason = inspected.bytes ? classifyContent(rel, inspected.bytes) : null;
    if (reason) return this.skip(rel, reason);

    if (this.files.length >= opts.maxFiles) {
      this.truncated = true;
      return;
    }
    const file: ScannedFile = { relPath: rel, absPath: abs, size: inspected.size, mtimeMs: inspected.mtimeMs };
    this.files.push(file);
    this.acceptedReal.set(real, rel);
    const pending = this.callbacks.onFile?.(file, opts.contentCheck === 'full' ? inspected.bytes : undefined);
    if (pending) await pending;
  }

  private async resolveLink(link: LinkJob): Promise<void> {
    let real: string;
    let isDir: boolean;
    try {
      real = fs.realpathSync(link.abs);
      isDir = fs.statSync(real).isDirectory();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') return this.skip(link.rel, 'symlink-loop', 'link resolves to itself');
      return this.skip(link.rel, 'unreadable', code === 'ENOENT' ? 'dangling symbolic link' : describeError(err));
    }
    const targetRel = path.relative(this.rootReal, real);
    if (targetRel === '..' || targetRel.startsWith('..' + path.sep) || path.isAbsolute(targetRel)) {
      return this.skip(link.rel, 'ignored', 'symbolic link to outside the workspace');
    }
    if (isDir) {
      const name = path.basename(link.rel);
      if (this.excludeDir(name, link.rel, link.rules.match(link.rel, true))) return;
      if (this.visitedDirs.has(real)) {
        const detail = targetRel ? `directory already scanned as ${toSlash(targetRel)}` : 'links to the workspace root';
        return this.skip(link.rel + '/', 'symlink-loop', detail);
      }
      this.visitedDirs.add(real);
      this.pendingDirs.push({ abs: link.abs, rel: link.rel, real, rules: link.rules });
      return;
    }
    // A link must not smuggle a secret in under an innocent name.
    if (isSecretPath(toSlash(targetRel), this.opts.secretPatterns)) return this.skip(link.rel, 'secret');
    const duplicateOf = this.acceptedReal.get(real);
    if (duplicateOf !== undefined) return this.skip(link.rel, 'ignored', `symbolic link to ${duplicateOf}, indexed there`);
    return this.inspectFile(link.abs, link.rel, real, link.rules);
  }
}

type Inspection =
  | { size: number; mtimeMs: number; bytes?: Buffer }
  | { reason: SkipReason; detail?: string };

/**
 * Stats a file and reads what the content check needs; failures (permission denied, vanished
 * since it was listed) become skip reasons. `sample` is scratch space for head reads: in 'head' mode
 * the returned bytes are a view of it, valid until it is reused.
 */
export function inspectContent(
  abs: string,
  maxFileBytes: number,
  mode: ResolvedScanOptions['contentCheck'],
  sample: Buffer = Buffer.allocUnsafe(CONTENT_SAMPLE_BYTES),
): Inspection {
  try {
    const stat = fs.statSync(abs);
    if (!stat.isFile()) return { reason: 'unsupported', detail: 'not a regular file' };
    if (stat.size > maxFileBytes) return { reason: 'too-large', detail: `${stat.size} bytes` };
    const meta = { size: stat.size, mtimeMs: stat.mtimeMs };
    if (mode === 'none') return meta;
    if (mode === 'full') {
      const bytes = fs.readFileSync(abs);
      // The file may have grown since the stat.
      if (bytes.length > maxFileBytes) return { reason: 'too-large', detail: `${bytes.length} bytes` };
      return { ...meta, size: bytes.length, bytes };
    }
    const fd = fs.openSync(abs, 'r');
    try {
      const length = Math.min(stat.size, sample.length);
      const bytesRead = length ? fs.readSync(fd, sample, 0, length, 0) : 0;
      return { ...meta, bytes: sample.subarray(0, bytesRead) };
    } finally {
      fs.closeSync(fd);
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { reason: 'unreadable', detail: code === 'ENOENT' ? 'vanished during the scan' : describeError(err) };
  }
}

/** A name with its invalid UTF-8 bytes written as \xNN, so the user can find the file. */
export function escapeInvalidUtf8(raw: Buffer): string {
  let out = '';
  for (let i = 0; i < raw.length;) {
    const b = raw[i];
    const len = b < 0x80 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    const seq = raw.subarray(i, i + len);
    if (seq.length === len && isUtf8(seq)) {
      out += seq.toString('utf8');
      i += len;
    } else {
      out += `\\x${b.toString(16).padStart(2, '0')}`;
      i++;
    }
  }
  return out;
}

function decision(ignored: ReadonlyMap<string, string>, name: string): IgnoreDecision {
  return ignored.has(name) ? { ignored: true, reason: ignored.get(name) } : { ignored: false };
}

function toSlash(p: string): string {
  return path.sep === '/' ? p : p.split(path.sep).join('/');
}

function describeError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e?.code ? `${e.code}: ${e.message}` : String((e as Error)?.message ?? err);
}
