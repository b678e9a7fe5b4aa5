// `node out/test/bench/scale/scanIgnore.js --files N [--dir DIR] [--gitignore-lines 5000] [--runs 3]`
// What ignore rules cost the scan of a generated tree (generate.ts), without indexing: the scan
// with the generator's small .gitignore; with pathological lines added (repeated `**/`, many stars
// in one name); with N more ordinary lines; and the last again with the per-directory decisions of
// the previous scan (a reopen). Prints JSON: the best of `--runs` scans each, in seconds.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { IgnoreDecisionCache, scanWorkspace } from '../../../engine/src/scan';
import { generateRepo } from './generate';

async function bestOf(runs: number, scan: () => Promise<unknown>): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await scan();
    best = Math.min(best, (performance.now() - t) / 1000);
  }
  return Math.round(best * 1000) / 1000;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const get = (n: string) => { const i = argv.indexOf(`--${n}`); return i >= 0 ? argv[i + 1] : undefined; };
  const files = Number(get('files') ?? 100_000), runs = Number(get('runs') ?? 3), lines = Number(get('gitignore-lines') ?? 5000);
  const work = get('dir') ?? fs.mkdtempSync(path.join(os.tmpdir(), 'rr-scan-ignore-'));
  const root = path.join(work, 'repo');
  if (!fs.existsSync(root)) generateRepo(root, { files });
  const gitignore = path.join(root, '.gitignore');
  const plain = fs.readFileSync(gitignore, 'utf8');
  const scan = (cache?: IgnoreDecisionCache) => scanWorkspace(root, { contentCheck: 'none', ignoreCache: cache });
  const scanned = (await scan()).files.length;
  const result: Record<string, number | string> = { files: scanned, plainGitignoreSeconds: await bestOf(runs, () => scan()) };
  const hostile = ['**/'.repeat(14) + 'zz', 'src/' + '**/'.repeat(12) + 'zz', '*a'.repeat(8) + '*b', '**/*e*e*e*e*e*e*x'];
  fs.writeFileSync(gitignore, plain + hostile.join('\n') + '\n');
  result.hostileGitignoreSeconds = await bestOf(runs, () => scan());
  const big = generateRepoGitignore(lines);
  fs.writeFileSync(gitignore, plain + big);
  result.gitignoreLines = lines;
  result.bigGitignoreSeconds = await bestOf(runs, () => scan());
  const cache = IgnoreDecisionCache.empty();
  await scan(cache);
  result.bigGitignoreCachedSeconds = await bestOf(runs, () => scan(cache.carryOver()));
  fs.writeFileSync(gitignore, plain);
  console.log(JSON.stringify(result));
  if (!get('dir')) fs.rmSync(work, { recursive: true, force: true });
}

/** The generator's big-.gitignore lines, through a throwaway generation of no files. */
function generateRepoGitignore(lines: number): string {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rr-gitignore-'));
  try {
    generateRepo(tmp, { files: 1, gitignoreLines: lines });
    return fs.readFileSync(path.join(tmp, '.gitignore'), 'utf8').split('\n').slice(4).join('\n');
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
