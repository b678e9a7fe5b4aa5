// An advisory writer lock for an index directory: two VS Code windows (or a window and the CLI) on
// one workspace share one index, and only one of them may write it. The lock is a file
// `<indexDir>/writer.lock` created with O_EXCL, holding the owner's pid, hostname and start time.
// A lock whose owner is a dead process on this host is stale and taken over; so is one whose pid now
// names a process started at another time (the pid was recycled: Linux, /proc/<pid>/stat's
// starttime, recorded in the lock; elsewhere the pid alone decides). A lock from another host (a
// shared network home) is respected, since its pid cannot be checked from here. A held lock is
// released on exit and on SIGTERM, SIGINT and SIGHUP (only SIGKILL leaves it behind).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { isMainThread } from 'worker_threads';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './privateDir';

export const LOCK_FILE_NAME = 'writer.lock';

/** Who holds a lock, as written in the lock file. */
export interface LockOwner {
  pid: number;
  hostname: string;
  /** When the owner took the lock (ms since the epoch). */
  since: number;
  /** The owner process's start time (Linux: clock ticks after boot, /proc/<pid>/stat field 22); absent elsewhere. */
  startTime?: number;
}

export interface HeldLock {
  readonly path: string;
  readonly owner: LockOwner;
  /** Removes the lock file if it is still ours. Idempotent. */
  release(): void;
}

export type LockResult = HeldLock | { heldBy: LockOwner };

export interface LockOptions {
  /** Identity written into the lock (tests use it to plant foreign or stale owners); default: this process. */
  owner?: LockOwner;
  /** Says whether a pid on this host is alive; default: `process.kill(pid, 0)`. */
  isAlive?: (pid: number) => boolean;
}

/** Locks released automatically when this process exits (normally or by an uncaught exception). */
const heldByThisProcess = new Set<HeldLock>();
let exitHookInstalled = false;

/** Releases every lock this process (thread) holds; synchronous, for exit and signal handlers. */
export function releaseHeldLocks(): void {
  for (const lock of [...heldByThisProcess]) lock.release();
}

/** Signals that end a process by default and can be caught. */
export const TERMINATION_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' handlers must be synchronous, which release() is. SIGKILL cannot be caught: the
  // next acquirer finds the pid dead and takes the stale lock over.
  process.on('exit', releaseHeldLocks);
  // Signals reach the main thread only; a worker thread's locks go with its process's exit.
  if (isMainThread) for (const signal of TERMINATION_SIGNALS) process.on(signal, onTerminationSignal);
}

/**
 * A signal's default action skips 'exit' handlers. Where nobody else handles the signal, release
 * the locks and let the default action end the process (killed by that signal, as before); a
 * process that handles it itself (the CLI, the engine process) closes and exits in its own time.
 */
function onTerminationSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  releaseHeldLocks();
  process.removeListener(signal, onTerminationSignal);
  process.kill(process.pid, signal);
}

export function pidIsAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** When a process started (Linux: /proc/<pid>/stat field 22, clock ticks after boot); undefined where unknown. */
export function processStartTime(pid: number): number | undefined {
  if (process.platform !== 'linux' || !Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    // Field 2 (the command name) is in parentheses and may hold spaces: count fields after its ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const startTime = Number(fields[22 - 3]);
    return Number.isFinite(startTime) ? startTime : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the lock's owner on this host is gone: its pid dead, or now naming a process started at another time. */
function ownerGone(owner: LockOwner, isAlive: (pid: number) => boolean): boolean {
  if (!isAlive(owner.pid)) return true;
  if (owner.startTime === undefined) return false; // written where the start time is unknown: the pid alone decides
  const now = processStartTime(owner.pid);
  return now !== undefined && now !== owner.startTime;
}

function readOwner(file: string): LockOwner | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LockOwner>;
    if (typeof parsed.pid === 'number' && typeof parsed.hostname === 'string' && typeof parsed.since === 'number') {
      const owner: LockOwner = { pid: parsed.pid, hostname: parsed.hostname, since: parsed.since };
      if (typeof parsed.startTime === 'number') owner.startTime = parsed.startTime;
      return owner;
    }
  } catch {
    // unreadable, half-written or vanished: treated as no valid owner below
  }
  return undefined;
}

/**
 * Takes the writer lock of `dir` (created if missing), or says who holds it. The same process
 * asking twice is refused the second time: each Engine instance is one writer.
 */
export function acquireWriterLock(dir: string, opts: LockOptions = {}): LockResult {
  const owner: LockOwner = opts.owner ?? ownProcess();
  const isAlive = opts.isAlive ?? pidIsAlive;
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const file = path.join(dir, LOCK_FILE_NAME);
  const body = JSON.stringify(owner);
  // Two rounds: the first may find a stale lock and remove it; the second creates ours, unless
  // another process raced us to it (then it wins and we report it).
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, PRIVATE_FILE_MODE);
      try {
        fs.writeSync(fd, body);
        fs.fsyncSync(fd);
      } catch (err) {
        fs.rmSync(file, { force: true }); // a full disk: no empty lock left behind
        throw err;
      } finally {
        fs.closeSync(fd);
      }
      return makeHeld(file, owner, body);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const current = readOwner(file);
    if (current && !(current.hostname === os.hostname() && ownerGone(current, isAlive))) return { heldBy: current };
    if (!current) {
      // A file that does not parse is either being written right now (give its writer a moment)
      // or left half-written by a crash. Only the second reading decides.
      const age = ageMs(file);
      if (age !== undefined && age < 2000) return { heldBy: { pid: 0, hostname: 'unknown', since: Date.now() - age } };
    }
    removeIfUnchanged(file, current);
  }
  const winner = readOwner(file);
  return { heldBy: winner ?? { pid: 0, hostname: 'unknown', since: Date.now() } };
}

function ownProcess(): LockOwner {
  const owner: LockOwner = { pid: process.pid, hostname: os.hostname(), since: Date.now() };
  const startTime = processStartTime(process.pid);
  if (startTime !== undefined) owner.startTime = startTime;
  return owner;
}

function ageMs(file: string): number | undefined {
  try {
    return Date.now() - fs.statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Removes a stale lock, unless someone replaced it since we read it. */
function removeIfUnchanged(file: string, seen: LockOwner | undefined): void {
  const now = readOwner(file);
  if (JSON.stringify(now) !== JSON.stringify(seen)) return;
  try {
    fs.unlinkSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

function makeHeld(file: string, owner: LockOwner, body: string): HeldLock {
  let released = false;
  const lock: HeldLock = {
    path: file,
    owner,
    release() {
      if (released) return;
      released = true;
      heldByThisProcess.delete(lock);
      try {
        // Only our own lock: a takeover after we were wrongly judged dead must not be undone.
        if (fs.readFileSync(file, 'utf8') === body) fs.unlinkSync(file);
      } catch {
        // already gone
      }
    },
  };
  heldByThisProcess.add(lock);
  installExitHook();
  return lock;
}

/** Who holds the lock of `dir` right now, if anyone (for a read-only window's status message). */
export function lockOwner(dir: string): LockOwner | undefined {
  return readOwner(path.join(dir, LOCK_FILE_NAME));
}
