// `npm run bench:team -- [--generated N] [--split DIR --repos a,b [--limit N]] [--url postgres://… | --pglite] [--dense] [--out F.json] [--states N]`
// The team index as CI publishes it and editors sync it (teamSync.ts), on Debian's PostgreSQL
// server started by the bench (loopback), or the one at --url, or PGlite over the wire protocol:
//  - --generated N: the scale bench's generated repository of N files (scale/generate.ts, seed 1),
//    committed to git; the rankings compared at N random editor states (scale/editorStates.ts).
//  - otherwise each repository of the DEV split (../shared/bench, or --split) copied into a git
//    checkout; the rankings compared on its protocol A tasks (the task file on disk, the prefix up
//    to the cursor, k = 30) and C tasks (the left context as the unsaved buffer, a 1,024-token
//    budget, fresh names), as the engine system of `npm run bench` asks them.
// Dense is off unless --dense (the generated code is not what the model was trained for; the
// editor must use the publisher's model, or the synced index is ignored).
// Writes {server, sync: {...}} (one repository) or {server, repos: {name: sync}} to --out.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Engine } from '../../engine/src/engine';
import type { EditorState } from '../../engine/src/types';
import { commitAll } from '../unit/team.helpers';
import { CODE_FILE, editorStateAt } from './scale/editorStates';
import { generateRepo, prng } from './scale/generate';
import { loadTasks, type Task } from './split';
import { syncBench, type SyncBenchResult } from './teamSync';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const rows = (hits: Array<{ file: string; startLine: number; endLine: number; score: number }>) => hits.map((h) => `${h.file}:${h.startLine}-${h.endLine} ${h.score.toPrecision(12)}`);

async function server(): Promise<{ url: string; name: string; stop: () => Promise<void> }> {
  const url = arg('url');
  if (url) return { url, name: 'PostgreSQL at --url', stop: async () => undefined };
  const helpers = await import('../unit/team.helpers');
  if (process.argv.includes('--pglite')) {
    const s = await helpers.startPglite();
    return { url: s.url, name: 'PGlite over the wire protocol (loopback)', stop: s.stop };
  }
  const pg = await helpers.startPostgres();
  if (!pg) throw new Error('PostgreSQL is not installed (scripts/team/install-postgres.sh), and no --url or --pglite was given');
  return { url: pg.url(), name: "Debian's PostgreSQL server (loopback), started by the bench", stop: async () => pg.stop() };
}

/** The generated repository of `files` files, as one git commit. */
async function generated(url: string, files: number, states: number, dense: boolean): Promise<SyncBenchResult> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `rr-team-gen-${files}-`));
  try {
    const repo = generateRepo(root, { files });
    commitAll(root, 'generated');
    const code = repo.indexable.map((f) => f.relPath).filter((p) => CODE_FILE.test(p));
    const r = prng(7);
    const editorStates = Array.from({ length: states }, () => editorStateAt(root, code[Math.floor(r() * code.length)], r));
    return await syncBench({
      url, repo: `generated-${files}`, root, editFile: code[Math.floor(code.length / 2)], firstQuery: 'parse the config value', states, dense,
      rank: async (engine, i) => rows(await engine.retrieve(editorStates[i], { k: 10 })), log: (l) => console.error(l),
    });
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** Protocol A's query, then protocol C's (the left context as the unsaved buffer), of one task. */
async function taskRanking(engine: Engine, t: Task, protocol: 'A' | 'C'): Promise<string[]> {
  if (protocol === 'A') {
    const state: EditorState = { file: t.file, prefix: t.prefix_lines.join('\n') + '\n', line: t.cursor.line };
    return rows(await engine.retrieve(state, { k: 30 }));
  }
  await engine.updateFile(t.file, t.left_context);
  try {
    return rows(await engine.retrieve({ file: t.file, language: t.language, prefix: t.left_context, line: t.cursor.line }, { k: 20, budgetTokens: 1024, freshNames: true }));
  } finally {
    await engine.updateFile(t.file);
  }
}

async function devRepo(url: string, split: string, name: string, tasks: Task[], dense: boolean): Promise<SyncBenchResult> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `rr-team-dev-${name}-`));
  try {
    fs.cpSync(path.join(split, 'repos', name), root, { recursive: true });
    commitAll(root, name);
    const editFile = tasks[0].file;
    return await syncBench({
      url, repo: name, root, editFile, firstQuery: 'parse the config value', states: tasks.length * 2, dense,
      rank: (engine, i) => taskRanking(engine, tasks[i >> 1], i % 2 ? 'C' : 'A'), log: (l) => console.error(l),
    });
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const out = arg('out') ?? path.resolve('.bench-out/team.json');
  const dense = process.argv.includes('--dense');
  const s = await server();
  let report: Record<string, unknown>;
  try {
    if (arg('generated')) {
      const sync = await generated(s.url, Number(arg('generated')), Number(arg('states') ?? 200), dense);
      report = { server: s.name, dense, generated: Number(arg('generated')), sync };
    } else {
      const split = arg('split') ?? path.resolve(__dirname, '../../../../shared/bench');
      const tasks = loadTasks(split, { limit: arg('limit') ? Number(arg('limit')) : undefined, repos: arg('repos')?.split(',').filter(Boolean) });
      const byRepo = new Map<string, Task[]>();
      for (const t of tasks) byRepo.set(t.repo, [...(byRepo.get(t.repo) ?? []), t]);
      const repos: Record<string, SyncBenchResult> = {};
      for (const [name, ts] of byRepo) repos[name] = await devRepo(s.url, split, name, ts, dense);
      report = { server: s.name, dense, split, protocols: 'A (k = 30) and C (1,024-token budget, fresh names) per task', repos };
    }
  } finally {
    await s.stop();
  }
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify(report, null, 1));
  console.log(JSON.stringify(report));
}

main().then(() => process.exit(0), (e) => {
  console.error(e);
  process.exit(1);
});
