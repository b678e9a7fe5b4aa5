// A temporary file written and read back by position, holding build-time data out of the heap
// (a merged lexical base's postings, rebuilt vector lists) until a save copies it into the index.
// It is unlinked while open where the platform allows it, so a crash leaves nothing behind;
// whoever ends up owning the descriptor calls `removeScratch` on close for the other platforms.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export interface ScratchFile {
  fd: number;
  /** Its name (already gone on Linux and macOS). */
  path: string;
}

/** Opens a new, empty scratch file in `dir` (default: the system's temp folder). */
export function openScratch(prefix: string, dir = os.tmpdir()): ScratchFile {
  const file = path.join(dir, `reporecall-${prefix}-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}.bin`);
  const fd = fs.openSync(file, 'w+', 0o600);
  try {
    fs.unlinkSync(file);
  } catch {
    /* Windows: removeScratch deletes it after the descriptor is closed */
  }
  return { fd, path: file };
}

/** Writes all of `bytes` at `position`. */
export function writeAt(fd: number, bytes: Uint8Array, position: number): void {
  for (let off = 0; off < bytes.length;) off += fs.writeSync(fd, bytes, off, bytes.length - off, position + off);
}

/** Closes a scratch file that no one took over (a failed or discarded build step) and deletes its name. */
export function discardScratch(file: ScratchFile): void {
  try {
    fs.closeSync(file.fd);
  } catch {
    /* already closed */
  }
  removeScratch(file.path);
}

/** Deletes a scratch file's name if it still has one (its descriptor closed first). */
export function removeScratch(file: string): void {
  fs.rmSync(file, { force: true });
}
