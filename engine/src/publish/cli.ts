// The CLI's team-index command (cli.ts hands it over):
//   reporecall publish DIR --to URL [--repo NAME] [--commit SHA] [--local-index D] [--keep-commits N] [--model DIR] [--no-dense] [--json]
// The password is best given in PGPASSWORD (or ~/.pgpass), not in the URL: messages mask it anyway.
import { maskUrl, TeamIndexError } from '../team/connection';
import { publishTeamIndex } from './publish';
import type { PublishArgs } from '../util/cliArgs';

export async function publishMain(args: PublishArgs): Promise<number> {
  try {
    const s = await publishTeamIndex({
      root: args.root, url: args.url, repo: args.repo, commit: args.commit, localIndexDir: args.localIndex, modelDir: args.model, dense: args.dense,
      keepCommits: args.keepCommits, log: (l) => console.error(l),
    });
    if (args.json) console.log(JSON.stringify(s));
    else {
      const what = s.published ? `published commit ${s.commit}` : `commit ${s.commit} was already published (unchanged)`;
      const mb = (b: number) => (b / 1e6).toFixed(2);
      const collected = s.collected ? `; retention removed ${s.collected.commits} commits and ${s.collected.segments} segments (${mb(s.collected.bytes)} MB)` : '';
      console.log(`team index ${maskUrl(args.url)} repository ${s.repo}: ${what}: ${s.files} files, ${s.chunks} chunks (${s.parsedFiles} parsed); ${s.segments} index files, ${mb(s.bytes)} MB, of which ${s.uploadedSegments} uploaded (${mb(s.uploadedBytes)} MB)${collected}; ${s.seconds.toFixed(2)} s`);
    }
    return 0;
  } catch (e) {
    if (e instanceof TeamIndexError) {
      console.error(`reporecall: ${e.message}`);
      return e.code === 'locked' ? 3 : 1;
    }
    throw e;
  }
}
