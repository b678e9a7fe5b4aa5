// Ignore decisions per directory, kept with the index so that reopening an unchanged workspace
// re-walks the tree without re-matching it (a 5,006-line .gitignore over 100,149 files took 637 s
// to reopen). A directory's decisions are a function of the rules in force (IgnoreRules.key: every
// rule file's text and where it applies) and of its entries (names and kinds), so both are the key;
// a changed rule file or an added or removed entry misses and is matched again. The file is a
// cache, not part of the index's commit: missing, corrupt or from another version, it is rebuilt.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import type { Dirent } from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../store/atomic';

export const IGNORE_CACHE_FILE = 'ignore-decisions.json';
const FORMAT = 'reporecall-ignore-decisions-1';

interface DirDecisions {
  rulesKey: string;
  entriesKey: string;
  /** Entry name -> the reason it is ignored; entries not listed are not ignored. */
  ignored: ReadonlyMap<string, string>;
}

export class IgnoreDecisionCache {
  /** What the last scan used, by workspace-relative directory ('' = root). */
  private readonly next = new Map<string, DirDecisions>();
  hits = 0;
  misses = 0;

  private constructor(private readonly previous: Map<string, DirDecisions>) {}

  static empty(): IgnoreDecisionCache {
    return new IgnoreDecisionCache(new Map());
  }

  /** Reads a saved cache; anything unreadable is an empty cache (`onProblem` hears why, except for a missing file). */
  static load(file: string, onProblem: (why: string) => void = () => undefined): IgnoreDecisionCache {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') onProblem(`cannot read ${file}: ${(err as Error).message}`);
      return IgnoreDecisionCache.empty();
    }
    try {
      const newline = text.indexOf('\n');
      const header = JSON.parse(text.slice(0, newline)) as { format?: string; sha256?: string };
      const body = text.slice(newline + 1);
      if (header.format !== FORMAT) throw new Error(`format ${String(header.format)}`);
      if (header.sha256 !== sha256(body)) throw new Error('checksum mismatch');
      const rows = JSON.parse(body) as Array<[string, string, string, Array<[string, string]>]>;
      return new IgnoreDecisionCache(new Map(rows.map(([dir, rulesKey, entriesKey, ignored]) => [dir, { rulesKey, entriesKey, ignored: new Map(ignored) }])));
    } catch (err) {
      onProblem(`${file} is not usable (${(err as Error).message}); ignore rules are matched again`);
      return IgnoreDecisionCache.empty();
    }
  }

  /**
   * The ignored entries of a directory (name -> reason): saved ones when the rules and entries are
   * the same as when they were saved, else `decide`'s, which are kept for the next save.
   */
  decisions(dir: string, rulesKey: string, entries: readonly Dirent[], decide: () => ReadonlyMap<string, string>): ReadonlyMap<string, string> {
    const entriesKey = entriesDigest(entries);
    const saved = this.previous.get(dir);
    if (saved && saved.rulesKey === rulesKey && saved.entriesKey === entriesKey) {
      this.hits++;
      this.next.set(dir, saved);
      return saved.ignored;
    }
    this.misses++;
    const ignored = decide();
    this.next.set(dir, { rulesKey, entriesKey, ignored });
    return ignored;
  }

  /** True when saving would write something other than what was loaded. */
  get changed(): boolean {
    return this.misses > 0 || this.next.size !== this.previous.size;
  }

  /** Writes what the last scan used (directories no longer walked drop out), atomically. */
  save(file: string): void {
    const rows = [...this.next].map(([dir, d]) => [dir, d.rulesKey, d.entriesKey, [...d.ignored]]);
    const body = JSON.stringify(rows);
    writeFileAtomic(file, `${JSON.stringify({ format: FORMAT, sha256: sha256(body) })}\n${body}`);
  }

  /** The decisions of this scan, to be used as the saved ones by the next scan in this process. */
  carryOver(): IgnoreDecisionCache {
    return new IgnoreDecisionCache(new Map(this.next));
  }
}

/** The cache file of one index folder: loaded before the first scan, carried from scan to scan, saved after each that changed it. */
export class SavedIgnoreDecisions {
  private cache: IgnoreDecisionCache | undefined;

  constructor(
    private readonly indexDir: string,
    private readonly log: (line: string) => void,
    /** Only the index's writer writes beside it. */
    private readonly mayWrite: () => boolean,
  ) {}

  forScan(): IgnoreDecisionCache {
    return (this.cache ??= IgnoreDecisionCache.load(path.join(this.indexDir, IGNORE_CACHE_FILE), this.log));
  }

  /** After a scan: its decisions become the saved ones (the file is a cache: failing to write it loses nothing). */
  scanned(): void {
    const used = this.forScan();
    this.cache = used.carryOver();
    if (!this.mayWrite() || !used.changed) return;
    try {
      fs.mkdirSync(this.indexDir, { recursive: true });
      used.save(path.join(this.indexDir, IGNORE_CACHE_FILE));
    } catch (e) {
      this.log(`ignore decisions not saved: ${(e as Error).message}`);
    }
  }
}

/** Names and kinds of a directory's entries (a file that became a directory decides differently). */
function entriesDigest(entries: readonly Dirent[]): string {
  const h = createHash('sha256');
  for (const e of entries) h.update(`${e.isDirectory() ? 'd' : e.isSymbolicLink() ? 'l' : e.isFile() ? 'f' : 'o'}${e.name}\0`);
  return h.digest('base64url');
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}
