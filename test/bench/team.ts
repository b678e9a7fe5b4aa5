// `npm run bench:team -- [--split DIR] [--out F.json] [--url postgres://… | --postgres] [--limit N] [--repos a,b] [--no-dense] [--compare-pruning] [--generated N [--queries Q]]`
// The team index beside the local engine on the split's repositories, one Engine per repository
// reading the team index through the editor's path (team/overlay.ts) and, with the team switched
// off, its own local index: both answer the same tasks in the same run.
//  - Protocol A through the product path: the chunks `retrieve` ranks (k = 30), each mapped to the
//    protocol's 20-line fragments it overlaps (the task file cursor-aligned, others on the grid),
//    in order; MRR@10 of the positive fragment (rankOfPositive). The task file is as on disk.
//  - Protocol C as EngineSystem runs it: the task file holds only the left context (an unsaved
//    buffer: for the team index that file is the local overlay), the context is what `retrieve`
//    returns for a 1,024-token budget (k = 20, fresh names), the query window excluded;
//    new-identifier recall.
//  - Latency: the editor's `retrieve` from the team index and from the local index (protocol A's
//    queries, the query embedding included where dense is on), p50/p95, over loopback; identical top-10 counts how often the team's ranking equals the local one.
//  - Write time, rows and bytes of the team index in PostgreSQL.
//  - --generated N: the scale bench's generated repository of N files instead (teamGenerated.ts).
//  - --compare-pruning: each protocol A query also without MaxScore pruning (bm25Sql.ts), in
//    turn with the pruned one: both latencies from the same run, and whether any ranking differs.
// Without --url it starts its own PGlite with pgvector behind the wire protocol; --postgres starts
// Debian's PostgreSQL server as the tests do (no pgvector there: use --no-dense).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Client } from 'pg';
import { Engine } from '../../engine/src/engine';
import { SCHEMA } from '../../engine/src/team/schema';
import { pruningCounts } from '../../engine/src/team/bm25Sql';
import { generatedRun } from './teamGenerated';
import { writeTeamIndex } from '../../engine/src/team/writer';
import type { EditorState } from '../../engine/src/types';
import { cursorAlignedFragments, gridFragments, percentile, rankMetrics, rankOfPositive, scoreContext, type Fragment } from './protocols';
import { LANGUAGE_EXTENSIONS, languageFamily, loadTasks, splitLines, type Task } from './split';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const row = (h: { file: string; startLine: number; endLine: number; score: number }) => `${h.file}:${h.startLine}-${h.endLine} ${h.score.toPrecision(12)}`;

interface Scores {
  a: number[];
  c: number[];
}

/** The fragments a ranked list of chunks covers, in order (protocol A's split of the task file). */
function fragmentsOf(hits: { file: string; startLine: number; endLine: number }[], task: Task, lineCount: (file: string) => number): Fragment[] {
  const out: Fragment[] = [];
  for (const h of hits) {
    const n = lineCount(h.file);
    const frags = h.file === task.file ? cursorAlignedFragments(h.file, n, task.cursor.line) : gridFragments(h.file, n);
    for (const f of frags) if (f.endLine >= h.startLine && f.startLine <= h.endLine) out.push(f);
  }
  return out;
}

async function main(): Promise<void> {
  const split = arg('split') ?? path.resolve(__dirname, '../../../../shared/bench');
  const out = arg('out') ?? path.resolve('.bench-out/team.json');
  const limit = arg('limit') ? Number(arg('limit')) : undefined;
  const repos = arg('repos')?.split(',').filter(Boolean);
  const dense = !process.argv.includes('--no-dense');
  let url = arg('url');
  let server = 'PostgreSQL at --url';
  let stopServer: (() => Promise<void>) | undefined;
  if (!url && process.argv.includes('--postgres')) {
    const { startPostgres } = await import('../unit/team.helpers');
    const pg = await startPostgres();
    if (!pg) throw new Error('--postgres: PostgreSQL is not installed (scripts/team/install-postgres.sh)');
    url = pg.url();
    server = "Debian's PostgreSQL server (loopback), started by the bench";
    stopServer = async () => pg.stop();
  } else if (!url) {
    const { startPglite } = await import('../unit/team.helpers');
    const s = await startPglite();
    url = s.url;
    server = 'PGlite + pgvector over the wire protocol (loopback)';
    stopServer = s.stop;
  }
  if (arg('generated')) {
    // The generated repository alone (teamGenerated.ts).
    try {
      const generated = await generatedRun(url, Number(arg('generated')), Number(arg('queries') ?? 40), process.argv.includes('--compare-pruning'));
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.writeFileSync(out, JSON.stringify({ server, generated }, null, 1));
      console.log(JSON.stringify(generated));
    } finally {
      await stopServer?.();
    }
    return;
  }
  const tasks = loadTasks(split, { limit, repos });
  const byRepo = new Map<string, Task[]>();
  for (const t of tasks) byRepo.set(t.repo, [...(byRepo.get(t.repo) ?? []), t]);
  const result: Record<string, unknown> = {};
  const teamLatency: number[] = [];
  const localLatency: number[] = [];
  const unprunedLatency: number[] = [];
  const comparePruning = process.argv.includes('--compare-pruning');
  let unprunedDiffer = 0;
  const local: Scores = { a: [], c: [] };
  const team: Scores = { a: [], c: [] };
  let identical = 0, total = 0, fallbacks = 0, writeSeconds = 0;
  try {
    for (const [name, ts] of byRepo) {
      const root = path.join(split, 'repos', name);
      const extensions = LANGUAGE_EXTENSIONS[languageFamily(ts[0].language)];
      const w = await writeTeamIndex({ root, url, repo: name, dense, extensions, log: (l) => console.error(`  ${l}`) });
      writeSeconds += w.seconds;
      const indexDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rr-bench-team-'));
      // A deadline no query reaches: the bench measures the team index, never the fallback.
      const engine = await Engine.open({ root, indexDir, dense, extensions, team: { url, repo: name, timeoutMs: 600_000, retryMs: 0 } });
      const overlay = engine.team!;
      const lines = new Map<string, number>();
      const lineCount = (file: string) => {
        let n = lines.get(file);
        if (n === undefined) lines.set(file, (n = splitLines(fs.readFileSync(path.join(root, file), 'utf8')).length));
        return n;
      };
      /** `retrieve` from the team index (with the local overlay) or, with `localOnly`, from the local index alone. */
      const retrieve = async (localOnly: boolean, timed: boolean, ...args: Parameters<Engine['retrieve']>) => {
        engine.team = localOnly ? undefined : overlay;
        try {
          const t0 = performance.now();
          const hits = await engine.retrieve(...args);
          if (timed) (localOnly ? localLatency : overlay.prune ? teamLatency : unprunedLatency).push(performance.now() - t0);
          if (!localOnly && overlay.state.state !== 'team') fallbacks++;
          return hits;
        } finally {
          engine.team = overlay;
        }
      };
      try {
        await engine.indexAll();
        if ((await overlay.settled()).state !== 'team') throw new Error(`team index not serving: ${JSON.stringify(overlay.state)}`);
        let same = 0;
        const repoScores = { local: { a: [] as number[], c: [] as number[] }, team: { a: [] as number[], c: [] as number[] } };
        for (const t of ts) {
          const state: EditorState = { file: t.file, prefix: t.prefix_lines.join('\n') + '\n', line: t.cursor.line };
          const [l, m] = [await retrieve(true, true, state, { k: 30 }), await retrieve(false, true, state, { k: 30 })];
          if (JSON.stringify(l.slice(0, 10).map(row)) === JSON.stringify(m.slice(0, 10).map(row))) same++;
          if (comparePruning) {
            // The same query without MaxScore pruning (the team index before it): its time, and the same ranking.
            overlay.prune = false;
            const u = await retrieve(false, true, state, { k: 30 }).finally(() => (overlay.prune = true));
            if (JSON.stringify(u.map(row)) !== JSON.stringify(m.map(row))) unprunedDiffer++;
          }
          repoScores.local.a.push(rankOfPositive(fragmentsOf(l, t, lineCount), t, 'A'));
          repoScores.team.a.push(rankOfPositive(fragmentsOf(m, t, lineCount), t, 'A'));
        }
        // Protocol C: the task file cut at the cursor, as the editor's unsaved buffer.
        for (const t of ts) {
          await engine.updateFile(t.file, t.left_context);
          const state = { file: t.file, language: t.language, prefix: t.left_context, line: t.cursor.line };
          for (const [side, scores] of [[true, repoScores.local], [false, repoScores.team]] as const) {
            const hits = await retrieve(side, false, state, { k: 20, budgetTokens: 1024, freshNames: true });
            const context = hits.filter((h) => !(h.file === t.file && h.endLine >= t.context_start_line && h.startLine <= t.cursor.line - 1)).map((h) => h.text).join('\n');
            const x = scoreContext(t, context).newIdRecall;
            if (x !== undefined) scores.c.push(x);
          }
          await engine.updateFile(t.file);
        }
        identical += same;
        total += ts.length;
        local.a.push(...repoScores.local.a); local.c.push(...repoScores.local.c);
        team.a.push(...repoScores.team.a); team.c.push(...repoScores.team.c);
        result[name] = {
          files: w.files, chunks: w.chunksWritten, write_s: Number(w.seconds.toFixed(2)), vectors: w.vectors, tasks: ts.length, identical_top10: same,
          local: { A_mrr10: rankMetrics(repoScores.local.a).mrr10, C_new_id_recall: mean(repoScores.local.c) },
          team: { A_mrr10: rankMetrics(repoScores.team.a).mrr10, C_new_id_recall: mean(repoScores.team.c) },
        };
        console.error(`${name}: ${JSON.stringify(result[name])}`);
      } finally {
        engine.team = overlay;
        await engine.close();
        fs.rmSync(indexDir, { recursive: true, force: true });
      }
    }
    const c = new Client({ connectionString: url });
    await c.connect();
    const sizes = (await c.query(`SELECT c.relname AS t, pg_total_relation_size(c.oid) AS b FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = '${SCHEMA}' AND c.relkind = 'r'`)).rows;
    const rowsByTable: Record<string, number> = {};
    for (const s of sizes) rowsByTable[s.t] = Number((await c.query(`SELECT count(*) AS n FROM ${SCHEMA}.${s.t}`)).rows[0].n);
    await c.end();
    const ms = (xs: number[]) => ({ p50: Number(percentile(xs, 50).toFixed(1)), p95: Number(percentile(xs, 95).toFixed(1)) });
    const report = {
      local: { A_mrr10: rankMetrics(local.a).mrr10, C_new_id_recall: mean(local.c), latency_ms: ms(localLatency) },
      team: {
        A_mrr10: rankMetrics(team.a).mrr10, C_new_id_recall: mean(team.c), latency_ms: ms(teamLatency),
        write_s: Number(writeSeconds.toFixed(2)), rows: Object.values(rowsByTable).reduce((x, y) => x + y, 0), bytes: sizes.reduce((a, s) => a + Number(s.b), 0),
        rows_by_table: rowsByTable, identical_top10: identical, tasks: total, fallbacks,
        ...(comparePruning ? { unpruned: { latency_ms: ms(unprunedLatency), rankings_differing: unprunedDiffer } } : {}),
        pruned_lists: pruningCounts,
      },
      server, dense, split, limit: limit ?? null,
      protocols: 'A through the product path (retrieved chunks -> the fragments they overlap), C as EngineSystem (task file = left context)',
      repos: result,
    };
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify(report, null, 1));
    console.log(JSON.stringify({ local: report.local, team: { ...report.team, rows_by_table: undefined } }));
  } finally {
    await stopServer?.();
  }
}

const mean = (xs: number[]) => (xs.length ? Number((xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(4)) : 0);

main().then(() => process.exit(0), (e) => {
  console.error(e);
  process.exit(1);
});
