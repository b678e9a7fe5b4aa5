// bench:team's measurement of one repository (a git checkout, published as CI would):
//  1. publish its HEAD from a fresh kept local index: publish_s, publish_bytes;
//  2. an editor's fresh clone: time to first query through the sync (sync + open + catch-up + one
//     query, in a process of its own: teamSyncChild.ts), beside a cold local build of the same
//     clone in the same run; the sync process's peak RSS;
//  3. rankings: the synced index and the local build answer the same editor states (`rankings`
//     gives them, e.g. protocol A and C tasks): identical when every top-10 is, place and score;
//     the synced index's query latency (and the local one's, for the ratio);
//  4. a one-file commit: its publish bytes and the bytes the editor's next sync downloads.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Engine } from '../../engine/src/engine';
import { publishTeamIndex } from '../../engine/src/publish/publish';
import { cloneRepo, commitAll, git } from '../unit/team.helpers';
import { percentile } from './protocols';

/** Answers one editor state on an engine: rows to compare (file, lines, score). */
export type Ranker = (engine: Engine, i: number) => Promise<string[]>;

export interface SyncBenchInput {
  url: string;
  repo: string;
  /** A git checkout with HEAD committed. */
  root: string;
  /** A file to append a function to for the one-file commit. */
  editFile: string;
  /** A free-text query the child answers first. */
  firstQuery: string;
  /** How many editor states `rank` answers (0..n-1). */
  states: number;
  rank: Ranker;
  dense: boolean;
  log: (line: string) => void;
}

export interface SyncBenchResult {
  files: number;
  publish_s: number;
  publish_bytes: number;
  commit_publish_bytes: number;
  commit_publish_s: number;
  time_to_first_query_s: number;
  cold_build_s: number;
  commit_download_bytes: number;
  commit_time_to_first_query_s: number;
  sync_peak_rss_mb: number;
  cold_build_peak_rss_mb: number;
  rankings_identical: boolean;
  rankings_compared: number;
  rankings_differing: number;
  query_p50_ms: number;
  query_p95_ms: number;
  local_query_p50_ms: number;
  local_query_p95_ms: number;
}

function child(job: Record<string, unknown>): Record<string, unknown> {
  const out = execFileSync(process.execPath, [path.join(__dirname, 'teamSyncChild.js'), JSON.stringify(job)], { encoding: 'utf8', maxBuffer: 1 << 24, stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(out.trim().split('\n').pop()!);
}

export async function syncBench(b: SyncBenchInput): Promise<SyncBenchResult> {
  const dirs = ['cache', 'synced', 'local'].map((n) => fs.mkdtempSync(path.join(os.tmpdir(), `rr-bench-sync-${n}-`)));
  const [cache, synced, localDir] = dirs;
  const clone = cloneRepo(b.root);
  try {
    const first = await publishTeamIndex({ root: b.root, url: b.url, repo: b.repo, dense: b.dense, localIndexDir: cache, log: (l) => b.log(`  publish: ${l}`) });
    b.log(`${b.repo}: published ${first.files} files, ${first.segments} segments, ${(first.bytes / 1e6).toFixed(1)} MB in ${first.seconds.toFixed(1)} s`);
    const job = { root: clone, repo: b.repo, query: b.firstQuery, dense: b.dense };
    const sync = child({ ...job, indexDir: synced, url: b.url });
    if (sync.state !== 'synced') throw new Error(`the editor did not sync: ${JSON.stringify(sync)}`);
    b.log(`${b.repo}: synced ${JSON.stringify(sync)}`);
    const cold = child({ ...job, indexDir: localDir });
    b.log(`${b.repo}: cold build ${JSON.stringify(cold)}`);

    // Rankings and latency: both indexes as saved, opened without the team index.
    const syncedEngine = await Engine.open({ root: clone, indexDir: synced, dense: b.dense });
    const localEngine = await Engine.open({ root: clone, indexDir: localDir, dense: b.dense });
    let differing = 0;
    const lat = { synced: [] as number[], local: [] as number[] };
    try {
      for (let i = 0; i < b.states; i++) {
        const t0 = performance.now();
        const s = await b.rank(syncedEngine, i);
        const t1 = performance.now();
        const l = await b.rank(localEngine, i);
        lat.synced.push(t1 - t0);
        lat.local.push(performance.now() - t1);
        if (JSON.stringify(s) !== JSON.stringify(l)) differing++;
      }
    } finally {
      await syncedEngine.close();
      await localEngine.close();
    }

    // A one-file commit: published from the kept index, then synced by the same editor.
    fs.appendFileSync(path.join(b.root, b.editFile), '\nexport function benchOneFileCommit(value: number): number {\n  return value * 3;\n}\n');
    commitAll(b.root, 'bench: one file');
    const second = await publishTeamIndex({ root: b.root, url: b.url, repo: b.repo, dense: b.dense, localIndexDir: cache });
    git(clone, 'pull', '-q', '--ff-only');
    const again = child({ ...job, indexDir: synced, url: b.url });
    if (again.state !== 'synced') throw new Error(`the editor did not sync the one-file commit: ${JSON.stringify(again)}`);
    b.log(`${b.repo}: one-file commit published ${second.uploadedBytes} bytes, downloaded ${again.downloaded}`);

    const ms = (xs: number[], p: number) => Number(percentile(xs, p).toFixed(1));
    return {
      files: first.files,
      publish_s: Number(first.seconds.toFixed(2)),
      publish_bytes: first.uploadedBytes,
      commit_publish_bytes: second.uploadedBytes + second.manifestBytes,
      commit_publish_s: Number(second.seconds.toFixed(2)),
      time_to_first_query_s: sync.time_to_first_query_s as number,
      cold_build_s: cold.time_to_first_query_s as number,
      // The manifest comes with the commit's row: counted beside the segments fetched.
      commit_download_bytes: (again.downloaded as number) + second.manifestBytes,
      commit_time_to_first_query_s: again.time_to_first_query_s as number,
      sync_peak_rss_mb: sync.peak_rss_mb as number,
      cold_build_peak_rss_mb: cold.peak_rss_mb as number,
      rankings_identical: differing === 0,
      rankings_compared: b.states,
      rankings_differing: differing,
      query_p50_ms: ms(lat.synced, 50), query_p95_ms: ms(lat.synced, 95),
      local_query_p50_ms: ms(lat.local, 50), local_query_p95_ms: ms(lat.local, 95),
    };
  } finally {
    for (const d of [...dirs, clone]) fs.rmSync(d, { recursive: true, force: true });
  }
}
