// Where an index lives when nobody says: the per-user cache directory, keyed by workspace path.
import { createHash } from 'crypto';
import * as os from 'os';
import * as path from 'path';

export function userCacheDir(): string {
  if (process.env.REPORECALL_CACHE_DIR) return process.env.REPORECALL_CACHE_DIR;
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library/Caches/reporecall');
  if (process.platform === 'win32') return path.join(process.env.LOCALAPPDATA ?? os.homedir(), 'reporecall', 'cache');
  return path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'reporecall');
}

/** `<cache>/indexes/<basename>-<hash of the absolute path>`: readable, and unique per folder. */
export function defaultIndexDir(root: string): string {
  const abs = path.resolve(root);
  const hash = createHash('sha1').update(abs).digest('hex').slice(0, 12);
  return path.join(userCacheDir(), 'indexes', `${path.basename(abs)}-${hash}`);
}
