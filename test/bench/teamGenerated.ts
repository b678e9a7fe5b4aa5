// bench:team's `--generated N`: the team index of the scale bench's generated repository of N files
// (test/bench/scale/generate.ts, seed 1): the first write (a writer with a kept local index), the
// write after one file's edit (only that file parsed), rows and bytes in PostgreSQL, and the
// editor's retrieval latency from the team index and from the local index at random editor
// states (editorStates.ts), with --compare-pruning also without pruning. Dense is off (the
// generated code is not what the model was trained for, and the vectors would dominate the time).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Client } from 'pg';
import { Engine } from '../../engine/src/engine';
import { pruningCounts } from '../../engine/src/team/bm25Sql';
import { SCHEMA } from '../../engine/src/team/schema';
import { writeTeamIndex } from '../../engine/src/team/writer';
import { generateRepo, prng } from './scale/generate';
import { CODE_FILE, editorStateAt } from './scale/editorStates';
import { percentile } from './protocols';

export async function generatedRun(url: string, files: number, queries: number, comparePruning: boolean): Promise<Record<string, unknown>> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `rr-team-gen-${files}-`));
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'rr-team-gen-cache-'));
  const localDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rr-team-gen-local-'));
  try {
    const repo = generateRepo(root, { files });
    const repoName = `generated-${files}`;
    const first = await writeTeamIndex({ root, url, repo: repoName, dense: false, localIndexDir: cache, log: (l) => console.error(`  ${l}`) });
    console.error(`generated ${files}: first write ${first.seconds.toFixed(1)} s, ${first.chunksWritten} chunks`);
    const code = repo.indexable.map((f) => f.relPath).filter((p) => CODE_FILE.test(p));
    const edited = code[Math.floor(code.length / 2)];
    fs.appendFileSync(path.join(root, edited), '\nexport function generatedBenchEdit(value: number): number {\n  return value * 3;\n}\n');
    const again = await writeTeamIndex({ root, url, repo: repoName, dense: false, localIndexDir: cache });
    const c = new Client({ connectionString: url });
    await c.connect();
    const rows = Number((await c.query(`SELECT (SELECT count(*) FROM ${SCHEMA}.posting) + (SELECT count(*) FROM ${SCHEMA}.chunk) + (SELECT count(*) FROM ${SCHEMA}.file) + (SELECT count(*) FROM ${SCHEMA}.define) + (SELECT count(*) FROM ${SCHEMA}.definition) + (SELECT count(*) FROM ${SCHEMA}.call_edge) AS n`)).rows[0].n);
    const bytes = Number((await c.query(`SELECT sum(pg_total_relation_size(c.oid)) AS b FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = '${SCHEMA}' AND c.relkind = 'r'`)).rows[0].b);
    await c.end();
    const engine = await Engine.open({ root, indexDir: localDir, dense: false, team: { url, repo: repoName, timeoutMs: 600_000, retryMs: 0 } });
    const overlay = engine.team!;
    const lat = { team: [] as number[], unpruned: [] as number[], local: [] as number[] };
    let differ = 0;
    try {
      const t0 = performance.now();
      await engine.indexAll();
      const localIndexS = (performance.now() - t0) / 1000;
      if ((await overlay.settled()).state !== 'team') throw new Error(`team index not serving: ${JSON.stringify(overlay.state)}`);
      const r = prng(7);
      const lists0 = { ...pruningCounts };
      for (let i = 0; i < queries; i++) {
        const state = editorStateAt(root, code[Math.floor(r() * code.length)], r);
        const time = async (which: 'team' | 'unpruned' | 'local') => {
          engine.team = which === 'local' ? undefined : overlay;
          overlay.prune = which !== 'unpruned';
          const q0 = performance.now();
          const hits = await engine.retrieve(state, { k: 10 });
          lat[which].push(performance.now() - q0);
          engine.team = overlay;
          overlay.prune = true;
          return hits.map((h) => `${h.file}:${h.startLine} ${h.score.toPrecision(12)}`).join('|');
        };
        const team = await time('team');
        if (comparePruning && (await time('unpruned')) !== team) differ++;
        await time('local');
      }
      const ms = (xs: number[]) => ({ p50: Number(percentile(xs, 50).toFixed(1)), p95: Number(percentile(xs, 95).toFixed(1)) });
      return {
        files, chunks: first.chunksWritten, write_s: Number(first.seconds.toFixed(2)), write_after_one_edit_s: Number(again.seconds.toFixed(2)), parsed_after_one_edit: again.parsedFiles,
        rows, bytes, local_index_s: Number(localIndexS.toFixed(1)), queries,
        latency_ms: { team: ms(lat.team), local: ms(lat.local), ...(comparePruning ? { team_unpruned: ms(lat.unpruned), rankings_differing_unpruned: differ } : {}) },
        matched_docs_per_list: Math.round((pruningCounts.matched - lists0.matched) / Math.max(1, pruningCounts.lists - lists0.lists)),
      };
    } finally {
      engine.team = overlay;
      await engine.close();
    }
  } finally {
    for (const d of [root, cache, localDir]) fs.rmSync(d, { recursive: true, force: true });
  }
}
