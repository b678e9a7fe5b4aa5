// Crash-safe file writes and file digests, shared by every part of the index that persists
// (vector lists, BM25 files, tables, the manifest): data goes to a temp file beside the target,
// is fsynced, then renamed over it, so a reader sees the old file or the new one, never a torn one.
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { PRIVATE_FILE_MODE } from './privateDir';

export interface FileDigest {
  bytes: number;
  sha256: string;
}

export function sha256File(file: string): FileDigest {
  const hash = createHash('sha256');
  const fd = fs.openSync(file, 'r');
  const chunk = Buffer.alloc(1 << 20);
  let bytes = 0;
  try {
    for (let n; (n = fs.readSync(fd, chunk, 0, chunk.length, null)) > 0; bytes += n) hash.update(chunk.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
  return { bytes, sha256: hash.digest('hex') };
}

/** Forces a file (or directory entry list) to stable storage. */
function fsyncPath(p: string): void {
  const fd = fs.openSync(p, 'r');
  try {
    fs.fsyncSync(fd);
  } catch (err) {
    // Some filesystems refuse fsync on directories; the data files themselves were synced.
    if ((err as NodeJS.ErrnoException).code !== 'EINVAL' && (err as NodeJS.ErrnoException).code !== 'EISDIR') throw err;
  } finally {
    fs.closeSync(fd);
  }
}

/** A temp path next to `target`, so the final rename stays on one filesystem. */
export function tempPathFor(target: string): string {
  return `${target}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * Makes a fully written temp file durable and moves it over `target` in one step. `syncDir`
 * false leaves the rename's durability to a later write in the same directory that syncs it (the
 * index's segment files, committed by the manifest written after them: one fsync less each).
 */
export function commitTempFile(tmp: string, target: string, syncDir = true): void {
  fsyncPath(tmp);
  fs.renameSync(tmp, target);
  if (syncDir) fsyncPath(path.dirname(target));
}

export function writeFileAtomic(target: string, data: Buffer | string, opts: { syncDir?: boolean } = {}): void {
  const tmp = tempPathFor(target);
  try {
    fs.writeFileSync(tmp, data, { mode: PRIVATE_FILE_MODE });
    commitTempFile(tmp, target, opts.syncDir);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/** Like writeFileAtomic for data produced in pieces; returns the digest of what was written. */
export function writePartsAtomic(target: string, parts: Iterable<Uint8Array>): FileDigest {
  const tmp = tempPathFor(target);
  const hash = createHash('sha256');
  let bytes = 0;
  try {
    const fd = fs.openSync(tmp, 'w', PRIVATE_FILE_MODE);
    try {
      for (const part of parts) {
        for (let off = 0; off < part.length;) off += fs.writeSync(fd, part, off, part.length - off);
        hash.update(part);
        bytes += part.length;
      }
    } finally {
      fs.closeSync(fd);
    }
    commitTempFile(tmp, target);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  return { bytes, sha256: hash.digest('hex') };
}

export function sha256Buffer(buf: Buffer): FileDigest {
  return { bytes: buf.length, sha256: createHash('sha256').update(buf).digest('hex') };
}

/** One file of a save: written whole to a temp file, made durable and renamed over `file`. */
export interface AtomicWrite {
  file: string;
  data: Buffer | string;
  /** false: the rename's durability is left to a later write in the same directory (writeFileAtomic). */
  syncDir?: boolean;
}

/** Performs `writes` in order, as writeFileAtomic does, on this thread. */
export function writeAllAtomic(writes: AtomicWrite[]): void {
  for (const w of writes) writeFileAtomic(w.file, w.data, { syncDir: w.syncDir });
}
