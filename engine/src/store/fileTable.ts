// The engine's per-file bookkeeping (content hash, size, mtime, language) as typed-array columns
// indexed by the file's path index in a shared pool: ~40 bytes a file. The file's chunks are listed
// by the chunk table and its definitions by the definition table, not here.
import { BinaryReader, BinaryWriter, owned } from './binary';
import { grow } from './columns';
import { StringPool } from './stringPool';
import { moveToEnd } from './orderedSet';

export interface FileEntry {
  /** sha1 hex of the file's text. */
  hash: string;
  size: number;
  mtimeMs: number;
  language?: string;
}

const HASH_BYTES = 20;

export class FileTable {
  private present = new Uint8Array(0);
  private hash = new Uint8Array(0);
  private size = new Float64Array(0);
  private mtime = new Float64Array(0);
  /** Index into `languageNames` + 1; 0 = none. */
  private language = new Uint8Array(0);
  private readonly languageNames: string[] = [];
  private live = 0;
  /**
   * Paths set, touched or deleted since the index store last committed them (it clears the set),
   * most recent last: what the next save's delta segment records (index/tablesDelta.ts).
   */
  readonly changed = new Set<string>();

  constructor(readonly paths: StringPool) {}

  private note(rel: string): void {
    moveToEnd(this.changed, rel);
  }

  get count(): number {
    return this.live;
  }

  private slot(p: number): void {
    if (p < this.present.length) return;
    const used = this.present.length;
    this.present = grow(this.present, p + 1, used);
    const cap = this.present.length;
    this.hash = grow(this.hash, cap * HASH_BYTES, used * HASH_BYTES);
    this.size = grow(this.size, cap, used);
    this.mtime = grow(this.mtime, cap, used);
    this.language = grow(this.language, cap, used);
  }

  private indexOf(rel: string): number {
    const p = this.paths.find(rel);
    return p >= 0 && p < this.present.length && this.present[p] ? p : -1;
  }

  has(rel: string): boolean {
    return this.indexOf(rel) >= 0;
  }

  /** The languages files were indexed with (each once, in first-seen order). */
  get languages(): readonly string[] {
    return this.languageNames;
  }

  get(rel: string): FileEntry | undefined {
    const p = this.indexOf(rel);
    if (p < 0) return undefined;
    const e: FileEntry = { hash: Buffer.from(this.hash.subarray(p * HASH_BYTES, (p + 1) * HASH_BYTES)).toString('hex'), size: this.size[p], mtimeMs: this.mtime[p] };
    if (this.language[p]) e.language = this.languageNames[this.language[p] - 1];
    return e;
  }

  set(rel: string, e: FileEntry): void {
    this.note(rel);
    const p = this.paths.intern(rel);
    this.slot(p);
    if (!this.present[p]) this.live++;
    this.present[p] = 1;
    const hash = Buffer.from(e.hash, 'hex');
    if (hash.length !== HASH_BYTES) throw new Error(`file hash of ${hash.length} bytes`);
    this.hash.set(hash, p * HASH_BYTES);
    this.size[p] = e.size;
    this.mtime[p] = e.mtimeMs;
    let lang = 0;
    if (e.language !== undefined) {
      let i = this.languageNames.indexOf(e.language);
      if (i < 0 && this.languageNames.length < 255) i = this.languageNames.push(e.language) - 1;
      lang = i + 1;
    }
    this.language[p] = lang;
  }

  setMtime(rel: string, mtimeMs: number): void {
    const p = this.indexOf(rel);
    if (p < 0) return;
    this.mtime[p] = mtimeMs;
    this.note(rel);
  }

  delete(rel: string): boolean {
    const p = this.indexOf(rel);
    if (p < 0) return false;
    this.note(rel);
    this.present[p] = 0;
    this.live--;
    return true;
  }

  /** Every file's relative path. */
  relPaths(): string[] {
    const out: string[] = [];
    for (let p = 0; p < this.present.length; p++) if (this.present[p]) out.push(this.paths.get(p));
    return out;
  }

  write(w: BinaryWriter): void {
    const n = this.paths.size;
    this.slot(n - 1);
    w.u32(n);
    w.bytes(this.present.subarray(0, n));
    w.bytes(this.hash.subarray(0, n * HASH_BYTES));
    w.bytes(this.size.subarray(0, n));
    w.bytes(this.mtime.subarray(0, n));
    w.bytes(this.language.subarray(0, n));
    w.bytes(Buffer.from(JSON.stringify(this.languageNames)));
  }

  static read(r: BinaryReader, paths: StringPool): FileTable {
    const t = new FileTable(paths);
    const n = r.u32();
    if (n !== paths.size) throw new Error(`file table has ${n} rows for ${paths.size} paths`);
    t.present = owned(r.uint8s(n));
    t.hash = owned(r.uint8s(n * HASH_BYTES));
    t.size = owned(r.float64s(n));
    t.mtime = owned(r.float64s(n));
    t.language = owned(r.uint8s(n));
    const languages = JSON.parse(r.bytes().toString('utf8')) as unknown;
    if (!Array.isArray(languages) || languages.some((l) => typeof l !== 'string')) throw new Error('file table languages malformed');
    t.languageNames.push(...(languages as string[]));
    for (let p = 0; p < n; p++) {
      if (t.present[p] > 1 || t.language[p] > t.languageNames.length) throw new Error('file table malformed');
      t.live += t.present[p];
    }
    return t;
  }
}
