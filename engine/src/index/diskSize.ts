// The bytes an index folder holds, walked once and then kept up to date by the store as it writes
// and deletes files, so a stats request after every file update does not walk the folder.
import * as fs from 'fs';
import * as path from 'path';

/** Bytes on disk of everything under `dir` (0 if it does not exist). */
export function walkBytes(dir: string): number {
  let total = 0;
  const walk = (d: string) => {
    if (!fs.existsSync(d)) return;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else total += fs.statSync(p, { throwIfNoEntry: false })?.size ?? 0; // a temp file may be renamed meanwhile
    }
  };
  walk(dir);
  return total;
}

export class DiskSize {
  /** Undefined until walked, and again once unknown (a failed save, a clear, a load of another commit). */
  private bytes: number | undefined;
  private readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  /** The folder's bytes: walked the first time, then as adjusted. */
  get(): number {
    return (this.bytes ??= walkBytes(this.dir));
  }

  /** A file of `bytes` was written under the folder, replacing one of `replaced` bytes (0: a new name). */
  wrote(bytes: number, replaced = 0): void {
    if (this.bytes !== undefined) this.bytes += bytes - replaced;
  }

  /** Deletes `file` (a file or folder under the index folder), counting what it held. */
  remove(file: string): void {
    if (this.bytes !== undefined) this.bytes -= walkOrStat(file);
    fs.rmSync(file, { recursive: true, force: true });
  }

  /** Forgets the size: the next get() walks the folder. */
  unknown(): void {
    this.bytes = undefined;
  }
}

function walkOrStat(file: string): number {
  const st = fs.statSync(file, { throwIfNoEntry: false });
  if (!st) return 0;
  return st.isDirectory() ? walkBytes(file) : st.size;
}
