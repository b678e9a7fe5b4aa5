// The workspace's git history as the team index sees it: the commit a publisher names by default
// (HEAD) and the commits an editor may sync from (HEAD and its ancestors, newest first, bounded so
// a huge history never stalls the sync). git is run without a shell, with a time limit.
import { execFile } from 'child_process';

/** How many of HEAD's ancestors an editor looks for in the store (a published commit older than this is not used). */
export const MAX_ANCESTORS = 1000;
const GIT_TIMEOUT_MS = 15_000;

function git(root: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', ['-C', root, ...args], { timeout: GIT_TIMEOUT_MS, maxBuffer: 64 << 20, windowsHide: true }, (err, stdout, stderr) => {
      if (err) reject(new Error(`git ${args[0]} in ${root} failed: ${(stderr || err.message).trim().split('\n')[0]}`));
      else resolve(stdout);
    });
  });
}

/** The full sha of HEAD. */
export async function headCommit(root: string): Promise<string> {
  return (await git(root, ['rev-parse', '--verify', 'HEAD'])).trim();
}

/** HEAD and its ancestors, newest first, at most `max`. */
export async function ancestry(root: string, max = MAX_ANCESTORS): Promise<string[]> {
  return (await git(root, ['rev-list', `--max-count=${max}`, 'HEAD'])).split('\n').filter((l) => /^[0-9a-f]{40,64}$/.test(l));
}
