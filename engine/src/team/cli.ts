// The CLI's team-index commands (cli.ts hands them over):
//   reporecall index DIR --to URL [--repo NAME] [--wait SECONDS] [--model DIR] [--no-dense] [--local-index CACHE_DIR] [--json]
//   reporecall query DIR --from URL [--repo NAME] (--file F --line L | --text T) [--k N] [--json]
// The password is best given in PGPASSWORD (or ~/.pgpass), not in the URL: messages mask it anyway.
import * as path from 'path';
import { maskUrl, TeamIndexError } from './connection';
import { TeamIndexReader } from './reader';
import { teamRetrieve } from './retrieve';
import { writeTeamIndex } from './writer';
import { queryFromArgs, type IndexArgs, type QueryArgs } from '../util/cliArgs';


/** Runs a team command; undefined when `args` is not one. */
export async function teamMain(args: IndexArgs | QueryArgs): Promise<number | undefined> {
  const team = args.cmd === 'index' ? args.to : args.from;
  if (!team) return undefined;
  const { root, json } = args;
  const repo = team.repo ?? path.basename(root);
  try {
    if (args.cmd === 'index') {
      const to = args.to!;
      const s = await writeTeamIndex({
        root, url: to.url, repo, modelDir: args.model, dense: args.dense, localIndexDir: to.localIndex,
        waitMs: to.waitSeconds * 1000, log: (l) => console.error(l),
      });
      if (json) console.log(JSON.stringify(s));
      else {
        const what = s.committed ? `committed generation ${s.generation}` : `already up to date at generation ${s.generation}`;
        console.log(`team index ${maskUrl(to.url)} repository ${s.repo}: ${s.files} files, ${s.changedFiles} changed, ${s.removedFiles} removed, ${s.chunksWritten} chunks written, ${s.parsedFiles} files parsed; ${what}; vectors ${s.vectors ? 'stored' : 'not stored'}; ${s.seconds.toFixed(2)} s`);
      }
      return 0;
    }
    const query = queryFromArgs(args.ask, root);
    const reader = await TeamIndexReader.open(team.url, repo);
    try {
      // Lexical and symbol signals only from the CLI (no model is loaded here).
      const hits = await teamRetrieve(reader, query, { k: args.k, weights: { dense: 0 } });
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
