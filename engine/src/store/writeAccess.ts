// Whether this process may write an index directory, and if not, why: another process holds the
// writer lock, the folder is on a read-only file system or not ours to write, or the disk is
// full. An engine that may not write still answers from the last commit and keeps its own
// changes in memory; the reason is what its status shows.
import { acquireWriterLock, type HeldLock } from './lock';
import { ensurePrivateDir } from './privateDir';

/** What a failed write says about the folder, for the status: undefined when it is some other error. */
export function unwritableReason(err: unknown): string | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'EROFS': return 'the index folder is on a read-only file system (EROFS)';
    case 'EACCES': case 'EPERM': return `the index folder cannot be written (${code})`;
    case 'ENOSPC': case 'EDQUOT': return `the disk holding the index is full (${code})`;
    default: return undefined;
  }
}

export type WriteAccess = { lock: HeldLock } | { readOnly: string };

/** Takes the writer lock of `dir`, or says why this process only reads it (`readOnly`: asked to). */
export function openForWriting(dir: string, readOnly = false): WriteAccess {
  if (readOnly) return { readOnly: 'opened read-only' };
  try {
    ensurePrivateDir(dir);
    const lock = acquireWriterLock(dir);
    if ('heldBy' in lock) return { readOnly: `the index is written by process ${lock.heldBy.pid} on ${lock.heldBy.hostname}` };
    return { lock };
  } catch (err) {
    const reason = unwritableReason(err);
    if (reason) return { readOnly: reason };
    throw err;
  }
}
