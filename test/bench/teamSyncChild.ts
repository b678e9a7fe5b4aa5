// bench:team's editor, in a process of its own (as the extension's engine process is), so its
// time and peak RSS are its own: opens an engine on ROOT with INDEX_DIR, syncing from the team
// index when a URL is given, catches up, answers one query, and prints what it measured as JSON.
//   node teamSyncChild.js '{"root":…,"indexDir":…,"url":…,"repo":…,"query":…}'
import { Engine } from '../../engine/src/engine';
import type { TeamState } from '../../engine/src/api';

interface Job {
  root: string;
  indexDir: string;
  url?: string;
  repo: string;
  query: string;
  dense: boolean;
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2]) as Job;
  const t0 = performance.now();
  let state: TeamState | undefined;
  let downloaded = 0;
  const engine = await Engine.open({ root: job.root, indexDir: job.indexDir, dense: job.dense, ...(job.url ? { team: { url: job.url, repo: job.repo, urlOrigin: 'user' as const }, onTeamState: (s: TeamState) => void (state = s) } : {}) });
  try {
    const stats = await engine.indexAll((p) => void (p.phase === 'download' && (downloaded = p.done)));
    const hits = await engine.retrieve(job.query, { k: 5 });
    const seconds = (performance.now() - t0) / 1000;
    console.log(JSON.stringify({
      time_to_first_query_s: Number(seconds.toFixed(2)), hits: hits.length, downloaded, state: state?.state, message: state?.message,
      files: stats.files, changed_files: stats.changedFiles, peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    }));
  } finally {
    await engine.close();
  }
}

main().then(() => process.exit(0), (e) => {
  console.error(e);
  process.exit(1);
});
