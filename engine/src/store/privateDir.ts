// An index holds the repository's code (and the names and fragments around whatever secrets the
// redactor did not recognise): its folders are the user's only (0700) and its files 0600, and a
// folder made by an older version is narrowed when an engine opens it. No effect on Windows.
import * as fs from 'node:fs';
import * as path from 'node:path';

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

function narrow(p: string, mode: number): void {
  try {
    if ((fs.statSync(p).mode & 0o077) !== 0) fs.chmodSync(p, mode);
  } catch {
    // gone meanwhile, or not ours to change: the folder's own mode still guards what is inside
  }
}

/** Creates `dir` (and missing parents) for the user only; an existing one is narrowed, with what it holds. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  narrow(dir, PRIVATE_DIR_MODE);
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) ensurePrivateDir(p);
    else if (e.isFile()) narrow(p, PRIVATE_FILE_MODE);
  }
}
