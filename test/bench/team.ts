// `npm run bench:team -- [--split DIR] [--out F.json] [--url postgres://…] [--limit N] [--repos a,b] [--no-dense]`
// The team index beside the local engine on the split's repositories: for each repository, the
// team index is written (write time), a local index is built, and at each task's cursor both rank
// the repository's chunks; the bench reports how many of those rankings are identical (places and
// scores), the team query's latency (p50/p95, one client over loopback) and the rows and bytes the
// team index takes. Without --url it starts its own PGlite with pgvector behind the wire protocol.
// Not done here: protocols A and C's quality metrics through the team index (rankings being
// identical, they would equal the local engine's; protocol C edits the task file, which needs the
// editor's overlay of changed files).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Client } from 'pg';
import { Engine } from '../../engine/src/engine';
import { TeamIndexReader } from '../../engine/src/team/reader';
import { teamRetrieve } from '../../engine/src/team/retrieve';
import { SCHEMA } from '../../engine/src/team/schema';
import { writeTeamIndex } from '../../engine/src/team/writer';
import type { EditorState } from '../../engine/src/types';
import { percentile } from './protocols';
import { languageFamily, loadTasks, type Task } from './split';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const row = (h: { file: string; startLine: number; endLine: number; score: number }) => `${h.file}:${h.startLine}-${h.endLine} ${h.score.toPrecision(12)}`;

async function main(): Promise<void> {
  const split = arg('split') ?? path.resolve(__dirname, '../../../../shared/bench');
  const out = arg('out') ?? path.resolve('.bench-out/team.json');
  const limit = arg('limit') ? Number(arg('limit')) : undefined;
  const repos = arg('repos')?.split(',').filter(Boolean);
  const dense = !process.argv.includes('--no-dense');
  let url = arg('url');
  let stopServer: (() => Promise<void>) | undefined;
  if (!url) {
    const { startPglite } = await import('../unit/team.helpers');
    const s = await startPglite();
    url = s.url;
    stopServer = s.stop;
  }
  const tasks = loadTasks(split, { limit, repos });
  const byRepo = new Map<string, Task[]>();
  for (const t of tasks) byRepo.set(t.repo, [...(byRepo.get(t.repo) ?? []), t]);
  const result: Record<string, unknown> = {};
  const allLatency: number[] = [];
  let identical = 0, total = 0;
  try {
    for (const [name, ts] of byRepo) {
      const root = path.join(split, 'repos', name);
      const extensions = languageFamily(ts[0].language) === 'python' ? ['.py'] : ['.ts', '.tsx', '.mts', '.cts'];
      const w = await writeTeamIndex({ root, url, repo: name, dense, extensions, log: (l) => console.error(`  ${l}`) });
      const indexDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rr-bench-team-'));
      const engine = await Engine.open({ root, indexDir, dense, extensions });
      const reader = await TeamIndexReader.open(url, name);
      try {
        await engine.indexAll();
        const embed = engine as unknown as { embedQuery(t: string): Promise<Float32Array | undefined> };
        const latency: number[] = [];
        let same = 0;
        for (const t of ts) {
          const state: EditorState = { file: t.file, prefix: t.prefix_lines.join('\n') + '\n', line: t.cursor.line };
          const local = (await engine.retrieve(state, { k: 10 })).map(row);
          // The query's embedding is the editor's work either way: its time is left out.
          let embedMs = 0;
          const embedQuery = async (x: string) => {
            const e0 = performance.now();
            const v = await embed.embedQuery(x);
            embedMs += performance.now() - e0;
            return v;
          };
          const t0 = performance.now();
          const team = (await teamRetrieve(reader, state, { k: 10, embedQuery: dense ? embedQuery : undefined, weights: dense ? undefined : { dense: 0 } })).map(row);
          latency.push(performance.now() - t0 - embedMs);
          if (JSON.stringify(team) === JSON.stringify(local)) same++;
        }
        allLatency.push(...latency);
        identical += same;
        total += ts.length;
        result[name] = {
          files: w.files, chunks: w.chunksWritten, write_s: Number(w.seconds.toFixed(2)), vectors: w.vectors, tasks: ts.length, identical_top10: same,
          latency_ms: { p50: Number(percentile(latency, 50).toFixed(1)), p95: Number(percentile(latency, 95).toFixed(1)) },
        };
        console.error(`${name}: ${JSON.stringify(result[name])}`);
      } finally {
        await reader.close();
        await engine.close();
        fs.rmSync(indexDir, { recursive: true, force: true });
      }
    }
    const c = new Client({ connectionString: url });
    await c.connect();
    const sizes = (await c.query(`SELECT c.relname AS t, pg_total_relation_size(c.oid) AS b, c.reltuples AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = '${SCHEMA}' AND c.relkind = 'r'`)).rows;
    const rows: Record<string, number> = {};
    for (const s of sizes) rows[s.t] = Number((await c.query(`SELECT count(*) AS n FROM ${SCHEMA}.${s.t}`)).rows[0].n);
    await c.end();
    const report = {
      server: stopServer ? 'PGlite + pgvector over the wire protocol (loopback)' : 'PostgreSQL at --url',
      dense,
      repos: result,
      team: {
        identical_top10: identical, tasks: total,
        latency_ms: { p50: Number(percentile(allLatency, 50).toFixed(1)), p95: Number(percentile(allLatency, 95).toFixed(1)) },
        rows, bytes: sizes.reduce((a, s) => a + Number(s.b), 0),
      },
    };
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify(report, null, 1));
    console.log(JSON.stringify(report.team));
  } finally {
    await stopServer?.();
  }
}

main().then(() => process.exit(0), (e) => {
  console.error(e);
  process.exit(1);
});
