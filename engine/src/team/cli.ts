// The CLI's team-index commands (cli.ts hands them over):
//   reporecall index DIR --to URL [--repo NAME] [--wait SECONDS] [--model DIR] [--no-dense] [--local-index CACHE_DIR] [--json]
//   reporecall query DIR --from URL [--repo NAME] (--file F --line L | --text T) [--k N] [--json]
// The password is best given in PGPASSWORD (or ~/.pgpass), not in the URL: messages mask it anyway.
import * as fs from 'fs';
import * as path from 'path';
import { maskUrl, TeamIndexError } from './connection';
import { TeamIndexReader } from './reader';
import { teamRetrieve } from './retrieve';
import { writeTeamIndex } from './writer';
import { flag, queryFromArgs } from '../util/cliArgs';


/** Runs a team command; undefined when `argv` is not one. */
export async function teamMain(argv: string[]): Promise<number | undefined> {
  const [cmd, dirArg] = argv;
  const to = flag(argv, 'to');
  const from = flag(argv, 'from');
  if (!(cmd === 'index' && to !== undefined) && !(cmd === 'query' && from !== undefined)) return undefined;
  const root = path.resolve(dirArg ?? '.');
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) {
    console.error(`reporecall: ${root} is not a directory`);
    return 2;
  }
  const json = argv.includes('--json');
  const repo = flag(argv, 'repo') ?? path.basename(root);
  try {
    if (cmd === 'index') {
      const wait = Number(flag(argv, 'wait') ?? 0);
      const s = await writeTeamIndex({
        root, url: to!, repo, modelDir: flag(argv, 'model'), dense: !argv.includes('--no-dense'), localIndexDir: flag(argv, 'local-index'),
        waitMs: Number.isFinite(wait) && wait > 0 ? wait * 1000 : 0, log: (l) => console.error(l),
      });
      if (json) console.log(JSON.stringify(s));
      else {
        const what = s.committed ? `committed generation ${s.generation}` : `already up to date at generation ${s.generation}`;
        console.log(`team index ${maskUrl(to!)} repository ${s.repo}: ${s.files} files, ${s.changedFiles} changed, ${s.removedFiles} removed, ${s.chunksWritten} chunks written, ${s.parsedFiles} files parsed; ${what}; vectors ${s.vectors ? 'stored' : 'not stored'}; ${s.seconds.toFixed(2)} s`);
      }
      return 0;
    }
    const reader = await TeamIndexReader.open(from!, repo);
    try {
      const k = Number(flag(argv, 'k') ?? 5);
      const asked = queryFromArgs(argv, root);
      if ('error' in asked) {
        console.error(asked.error);
        return 2;
      }
      // Lexical and symbol signals only from the CLI (no model is loaded here).
      const hits = await teamRetrieve(reader, asked.query, { k, weights: { dense: 0 } });
      if (json) console.log(JSON.stringify(hits, null, 1));
      else for (const h of hits) {
        const why = Object.entries(h.signals).map(([s, r]) => `${s}#${r}`).join(' ');
        console.log(`${h.file}:${h.startLine + 1}-${h.endLine + 1}  ${h.kind}${h.name ? ' ' + h.name : ''}  score ${h.score.toFixed(4)}  (${why})`);
      }
      return 0;
    } finally {
      await reader.close();
    }
  } catch (e) {
    if (e instanceof TeamIndexError) {
      console.error(`reporecall: ${e.message}`);
      return e.code === 'locked' ? 3 : 1;
    }
    throw e;
  }
}
