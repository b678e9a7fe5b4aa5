// `node out/test/bench/teamPruning.js [--split DIR] [--repos a,b] [--limit N]` (default: the
// held-out validation split): the team index's lexical scoring variants side by side on one
// PostgreSQL server it starts (Debian's, as the tests), dense off, each task's teamRetrieve timed:
// exhaustive (every posting ordered and summed, no term-statistics cache: the team index before
// pruning), two-pass (bm25Sql.ts's default) and MaxScore's essential-term split before the
// two-pass. Prints p50/p95 per variant over two rounds and how many rankings differ from
// exhaustive. The choice of bm25Sql.ts's default was made on this, not on DEV.
import * as os from 'os';
import * as path from 'path';
import { bm25Tuning } from '../../engine/src/team/bm25Sql';
import { TeamIndexReader } from '../../engine/src/team/reader';
import { teamRetrieve } from '../../engine/src/team/retrieve';
import { writeTeamIndex } from '../../engine/src/team/writer';
import { startPostgres } from '../unit/team.helpers';
import { percentile } from './protocols';
import { LANGUAGE_EXTENSIONS, languageFamily, loadTasks, type Task } from './split';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const split = arg('split') ?? path.join(os.homedir(), '.cache/reporecall-heldout/validation');
  const tasks = loadTasks(split, { repos: arg('repos')?.split(','), limit: Number(arg('limit') ?? 60) });
  const pg = await startPostgres();
  if (!pg) throw new Error('PostgreSQL is not installed (scripts/team/install-postgres.sh)');
  const byRepo = new Map<string, Task[]>();
  for (const t of tasks) byRepo.set(t.repo, [...(byRepo.get(t.repo) ?? []), t]);
  const row = (h: { file: string; startLine: number; score: number }) => `${h.file}:${h.startLine} ${h.score.toPrecision(12)}`;
  const variants: [string, boolean, boolean][] = [['exhaustive', false, false], ['two-pass', true, false], ['maxscore+two-pass', true, true]];
  try {
    for (const [repo, ts] of byRepo) {
      const w = await writeTeamIndex({ root: path.join(split, 'repos', repo), url: pg.url(), repo, dense: false, extensions: LANGUAGE_EXTENSIONS[languageFamily(ts[0].language)] });
      const reader = await TeamIndexReader.open(pg.url(), repo);
      const state = (t: Task) => ({ file: t.file, prefix: t.prefix_lines.join('\n') + '\n', line: t.cursor.line });
      const ref: string[] = [];
      for (const t of ts) ref.push((await teamRetrieve(reader, state(t), { k: 10, weights: { dense: 0 }, prune: false })).map(row).join('|'));
      for (let round = 1; round <= 2; round++) {
        for (const [name, prune, essential] of variants) {
          bm25Tuning.essentialTerms = essential;
          const ms: number[] = [];
          let differ = 0;
          for (let i = 0; i < ts.length; i++) {
            const t0 = performance.now();
            const hits = await teamRetrieve(reader, state(ts[i]), { k: 10, weights: { dense: 0 }, prune });
            ms.push(performance.now() - t0);
            if (hits.map(row).join('|') !== ref[i]) differ++;
          }
          console.log(`${repo} (${w.chunksWritten} chunks, ${ts.length} tasks) round ${round} ${name}: p50 ${percentile(ms, 50).toFixed(1)} ms, p95 ${percentile(ms, 95).toFixed(1)} ms, rankings differing from exhaustive ${differ}`);
        }
      }
      bm25Tuning.essentialTerms = false;
      await reader.close();
    }
  } finally {
    pg.stop();
  }
}

main().then(() => process.exit(0), (e) => {
  console.error(e);
  process.exit(1);
});
