// The team index against a real PostgreSQL server (Debian's package; no pgvector there, so these
// run without vectors: team.pgvector.test.ts covers the vector path against real pgvector).
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Client } from 'pg';
import { Engine } from '../../engine/src/engine';
import { sha1 } from '../../engine/src/index/indexStore';
import type { EditorState } from '../../engine/src/types';
import { TeamIndexError } from '../../engine/src/team/connection';
import { TeamIndexReader } from '../../engine/src/team/reader';
import { bm25Tuning, pruningCounts } from '../../engine/src/team/bm25Sql';
import { teamRetrieve } from '../../engine/src/team/retrieve';
import { migrate, SCHEMA } from '../../engine/src/team/schema';
import { writeTeamIndex, type TeamWriteOptions } from '../../engine/src/team/writer';
import { copyEngineSources, freePort, startPostgresOrSkip, SUPERUSER_PASSWORD, type PgServer } from './team.helpers';

const CLI = path.resolve(__dirname, '../../../bin/reporecall.js');

/** Editor states at a few places in the repository, and free-text queries. */
export function queriesFor(root: string): (EditorState | string)[] {
  const files = listFiles(root).filter((f) => f.endsWith('.ts')).sort();
  const out: (EditorState | string)[] = ['parse the config file', 'cosine similarity of two vectors', 'BM25 score of a document', 'split identifier into sub tokens'];
  files.forEach((rel, i) => {
    if (i % 6 !== 0) return;
    const lines = fs.readFileSync(path.join(root, rel), 'utf8').split('\n');
    for (const frac of [0.35, 0.7]) {
      const line = Math.floor(lines.length * frac);
      if (line < 2) continue;
      out.push({ file: rel, prefix: lines.slice(0, line).join('\n') + '\n', line });
    }
  });
  return out;
}

function listFiles(root: string, rel = ''): string[] {
  return fs.readdirSync(path.join(root, rel), { withFileTypes: true }).flatMap((e) => {
    const r = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? listFiles(root, r) : [r];
  });
}

type Row = string;
/** Each signal's rank, in a fixed order. */
function signalsOf(s: Record<string, number>): string {
  return Object.keys(s).sort().map((k) => `${k}#${s[k]}`).join(',');
}
/** A ranking as comparable rows: place, then the score (equal to 1e-12: the same sums, computed twice). */
export async function localRanking(engine: Engine, q: EditorState | string, k = 10): Promise<Row[]> {
  const hits = await engine.retrieve(q, { k });
  return hits.map((h) => `${h.file}:${h.startLine}-${h.endLine} ${h.score.toPrecision(12)} ${signalsOf(h.signals)}`);
}

export async function teamRanking(reader: TeamIndexReader, q: EditorState | string, opts: Parameters<typeof teamRetrieve>[2] = {}): Promise<Row[]> {
  const hits = await teamRetrieve(reader, q, { k: 10, ...opts });
  return hits.map((h) => `${h.file}:${h.startLine}-${h.endLine} ${h.score.toPrecision(12)} ${signalsOf(h.signals)}`);
}

async function adminQuery(url: string, sql: string, params: unknown[] = []) {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return await c.query(sql, params);
  } finally {
    await c.end();
  }
}

describe('team index on PostgreSQL', function () {
  this.timeout(240_000);
  let pg: PgServer;
  let root: string;
  let localIndex: string;
  const write = (extra: Partial<TeamWriteOptions> = {}) => writeTeamIndex({ root, url: pg.url(), repo: 'engine', dense: false, ...extra });

  before(async function () {
    pg = await startPostgresOrSkip(this);
    root = copyEngineSources();
    localIndex = fs.mkdtempSync(path.join(os.tmpdir(), 'rr-team-local-'));
  });

  after(() => {
    pg?.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
    if (localIndex) fs.rmSync(localIndex, { recursive: true, force: true });
  });

  it('writes files, chunks, postings, definitions and call edges; a re-run of an unchanged folder writes nothing', async () => {
    // Dense asked for, but this server has no pgvector: written without vectors (nothing embedded), and said so.
    const first = await write({ dense: true });
    assert.ok(first.committed);
    assert.strictEqual(first.generation, 1);
    assert.ok(first.files > 50, `files ${first.files}`);
    assert.strictEqual(first.vectors, false);
    assert.match(first.vectorNote ?? '', /pgvector/);
    const counts = (await adminQuery(pg.url(), `SELECT (SELECT count(*) FROM ${SCHEMA}.file) f, (SELECT count(*) FROM ${SCHEMA}.chunk) c, (SELECT count(*) FROM ${SCHEMA}.posting) p, (SELECT count(*) FROM ${SCHEMA}.definition) d, (SELECT count(*) FROM ${SCHEMA}.call_edge) e`)).rows[0];
    assert.strictEqual(Number(counts.f), first.files);
    assert.strictEqual(Number(counts.c), first.chunksWritten);
    for (const k of ['p', 'd', 'e']) assert.ok(Number(counts[k]) > 0, `${k}: ${counts[k]}`);
    // A definition this repository certainly has, linked to its chunk.
    const def = (await adminQuery(pg.url(), `SELECT d.path, c.start_line FROM ${SCHEMA}.definition d JOIN ${SCHEMA}.chunk c ON c.id = d.chunk_id WHERE d.name = 'lexicalTerms'`)).rows;
    assert.deepStrictEqual(def.map((r) => r.path), ['lexical/tokenize.ts']);
    const again = await write();
    assert.strictEqual(again.committed, false);
    assert.strictEqual(again.chunksWritten, 0);
    assert.strictEqual(again.generation, 1);
  });

  it('ranks exactly as the local engine, and still after an incremental update', async () => {
    const engine = await Engine.open({ root, indexDir: localIndex, dense: false });
    const reader = await TeamIndexReader.open(pg.url(), 'engine');
    try {
      await engine.indexAll();
      const queries = queriesFor(root);
      assert.ok(queries.length >= 20, `${queries.length} queries`);
      let nonEmpty = 0;
      for (const q of queries) {
        const local = await localRanking(engine, q);
        if (local.length) nonEmpty++;
        assert.deepStrictEqual(await teamRanking(reader, q), local, typeof q === 'string' ? q : `${q.file}:${q.line}`);
      }
      assert.ok(nonEmpty >= queries.length - 2, `${nonEmpty} of ${queries.length} queries found something`);
      // Pruning (bm25Sql.ts) left most matched documents unsorted, and ranks as exhaustive scoring does, with MaxScore's split too.
      assert.ok(pruningCounts.matched > 3 * pruningCounts.returned, JSON.stringify(pruningCounts));
      for (const q of queries.slice(0, 12)) {
        const exhaustive = await teamRanking(reader, q, { prune: false });
        assert.deepStrictEqual(await teamRanking(reader, q), exhaustive, typeof q === 'string' ? q : `${q.file}:${q.line}`);
        bm25Tuning.essentialTerms = true;
        try {
          assert.deepStrictEqual(await teamRanking(reader, q), exhaustive, typeof q === 'string' ? q : `${q.file}:${q.line}`);
        } finally {
          bm25Tuning.essentialTerms = false;
        }
      }
      assert.ok(pruningCounts.restricted > 0, JSON.stringify(pruningCounts));

      // Change one file, delete one, add one: only those are written.
      const untouchedIds = (await adminQuery(pg.url(), `SELECT id FROM ${SCHEMA}.chunk WHERE path = 'lexical/bm25.ts' ORDER BY id`)).rows.map((r) => r.id);
      fs.appendFileSync(path.join(root, 'lexical/tokenize.ts'), '\n/** Counts distinct sub tokens. */\nexport function distinctSubTokenCount(text: string): number {\n  return new Set(lexicalTerms(text)).size;\n}\n');
      fs.rmSync(path.join(root, 'util/prng.ts'));
      fs.writeFileSync(path.join(root, 'util/newHelper.ts'), 'export function clampToRange(value: number, low: number, high: number): number {\n  return Math.min(high, Math.max(low, value));\n}\n');
      const inc = await write();
      assert.ok(inc.committed);
      assert.strictEqual(inc.generation, 2);
      assert.strictEqual(inc.changedFiles, 2);
      assert.strictEqual(inc.removedFiles, 1);
      const after = (await adminQuery(pg.url(), `SELECT id FROM ${SCHEMA}.chunk WHERE path = 'lexical/bm25.ts' ORDER BY id`)).rows.map((r) => r.id);
      assert.deepStrictEqual(after, untouchedIds, 'chunks of an unchanged file are not rewritten');
      assert.strictEqual(Number((await adminQuery(pg.url(), `SELECT count(*) n FROM ${SCHEMA}.file WHERE path = 'util/prng.ts'`)).rows[0].n), 0);
      await engine.indexAll();
      for (const q of [...queriesFor(root), 'distinct sub token count', 'clamp value to range']) {
        assert.deepStrictEqual(await teamRanking(reader, q), await localRanking(engine, q), typeof q === 'string' ? q : `${q.file}:${q.line}`);
      }
      const top = await teamRetrieve(reader, 'clamp value to range low high', { k: 1 });
      assert.strictEqual(top[0]?.file, 'util/newHelper.ts');
    } finally {
      await reader.close();
      await engine.close();
    }
  });

  it('a writer keeping its local index between runs parses only changed files and writes what a fresh writer writes', async () => {
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'rr-team-cache-'));
    try {
      const first = await write({ repo: 'engine-cached', localIndexDir: cache });
      assert.strictEqual(first.parsedFiles, first.files);
      const unchanged = await write({ repo: 'engine-cached', localIndexDir: cache });
      assert.strictEqual(unchanged.parsedFiles, 0);
      assert.strictEqual(unchanged.committed, false);
      fs.appendFileSync(path.join(root, 'util/newHelper.ts'), '\nexport function clampToUnit(value: number): number {\n  return Math.min(1, Math.max(0, value));\n}\n');
      const inc = await write({ repo: 'engine-cached', localIndexDir: cache });
      assert.strictEqual(inc.parsedFiles, 1);
      assert.strictEqual(inc.changedFiles, 1);
      assert.ok(inc.committed);
      // A writer that parses everything, into a repository of its own.
      const fresh = await write({ repo: 'engine-fresh' });
      assert.strictEqual(fresh.parsedFiles, fresh.files);
      const [cached, full] = [await TeamIndexReader.open(pg.url(), 'engine-cached'), await TeamIndexReader.open(pg.url(), 'engine-fresh')];
      try {
        for (const q of [...queriesFor(root).slice(0, 10), 'clamp value to unit']) {
          assert.deepStrictEqual(await teamRanking(cached, q), await teamRanking(full, q), typeof q === 'string' ? q : `${q.file}:${q.line}`);
        }
      } finally {
        await cached.close();
        await full.close();
      }
    } finally {
      fs.rmSync(cache, { recursive: true, force: true });
    }
  });

  it('two writers: the second fails cleanly or waits; readers during a write see the last commit', async () => {
    const reader = await TeamIndexReader.open(pg.url(), 'engine');
    const queries = queriesFor(root).slice(0, 8);
    const before = await Promise.all(queries.map((q) => teamRanking(reader, q)));
    const genBefore = (await reader.info()).generation;
    fs.appendFileSync(path.join(root, 'retrieve/excerpt.ts'), '\nexport const EXCERPT_MARKER_FOR_WRITERS = 1;\n');
    fs.appendFileSync(path.join(root, 'scan/scanner.ts'), '\nexport const SCANNER_MARKER_FOR_WRITERS = 2;\n');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let paused!: () => void;
    const isPaused = new Promise<void>((r) => (paused = r));
    const first = write({
      afterBatch: async (n) => {
        if (n !== 1) return;
        paused();
        await held;
      },
    });
    try {
      await isPaused;
      // A second writer now: refused at once, having written nothing.
      await assert.rejects(write(), (e: unknown) => e instanceof TeamIndexError && e.code === 'locked' && /another writer/.test(e.message));
      // A third waits for the lock.
      const third = write({ waitMs: 120_000 });
      // Readers meanwhile (several at once, each its own connection) see the previous commit.
      const readers = await Promise.all([0, 1, 2, 3].map(() => TeamIndexReader.open(pg.url(), 'engine')));
      try {
        const seen = await Promise.all(readers.map((r) => Promise.all(queries.map((q) => teamRanking(r, q)))));
        for (const s of seen) assert.deepStrictEqual(s, before);
        for (const r of readers) assert.strictEqual((await r.info()).generation, genBefore);
      } finally {
        await Promise.all(readers.map((r) => r.close()));
      }
      release();
      const a = await first;
      assert.ok(a.committed);
      assert.strictEqual(a.generation, genBefore + 1);
      const c = await third;
      assert.strictEqual(c.committed, false, 'the waiting writer found the work done');
      assert.strictEqual((await reader.info()).generation, genBefore + 1);
    } finally {
      release();
      await first.catch(() => undefined);
      await reader.close();
    }
  });

  it('a server killed mid-write leaves the last commit intact, and the next run completes it', async () => {
    {
      const reader = await TeamIndexReader.open(pg.url(), 'engine');
      const queries = queriesFor(root).slice(0, 10);
      const before = await Promise.all(queries.map((q) => teamRanking(reader, q)));
      const genBefore = (await reader.info()).generation;
      await reader.close();
      // Many files change, so the write spans several batches.
      const changedFiles = listFiles(root).filter((f) => f.startsWith('chunk/') || f.startsWith('embed/'));
      for (const f of changedFiles) fs.appendFileSync(path.join(root, f), '\nexport const ZQMARKER = 3;\n');
      await assert.rejects(
        write({ afterBatch: (n) => { if (n === 1) pg.crash(); } }),
        (e: unknown) => e instanceof TeamIndexError && ['connection-lost', 'unreachable'].includes(e.code),
      );
      pg.start();
      const orphans = Number((await adminQuery(pg.url(), `SELECT count(*) n FROM ${SCHEMA}.chunk c JOIN ${SCHEMA}.repo r ON r.id = c.repo WHERE c.gen > r.generation`)).rows[0].n);
      assert.ok(orphans > 0, 'the first batch was committed before the crash');
      const reader2 = await TeamIndexReader.open(pg.url(), 'engine');
      try {
        assert.strictEqual((await reader2.info()).generation, genBefore);
        assert.deepStrictEqual(await Promise.all(queries.map((q) => teamRanking(reader2, q))), before, 'no part of the killed write is visible');
        const done = await write();
        assert.ok(done.committed);
        assert.strictEqual(done.generation, genBefore + 1);
        const left = Number((await adminQuery(pg.url(), `SELECT count(*) n FROM ${SCHEMA}.chunk c JOIN ${SCHEMA}.repo r ON r.id = c.repo WHERE c.gen > r.generation`)).rows[0].n);
        assert.strictEqual(left, 0);
        // The completed write holds the tree as it is now: every file's content hash, and the
        // new text's terms in each file the killed run had started on.
        // This repository's rows only: an earlier test's repository ('engine-cached') holds the same paths with older hashes.
        const hashes = new Map((await adminQuery(pg.url(), `SELECT f.path, f.hash FROM ${SCHEMA}.file f JOIN ${SCHEMA}.repo r ON r.id = f.repo WHERE r.name = 'engine'`)).rows.map((r) => [r.path, r.hash]));
        assert.ok(hashes.size >= listFiles(root).length - 2, `${hashes.size} files`);
        for (const [f, h] of hashes) assert.strictEqual(h, sha1(fs.readFileSync(path.join(root, f), 'utf8')), f);
        const marked = (await adminQuery(pg.url(), `SELECT DISTINCT c.path FROM ${SCHEMA}.posting p JOIN ${SCHEMA}.chunk c ON c.id = p.chunk_id WHERE p.term = 'zqmarker'`)).rows.map((r) => r.path).sort();
        assert.deepStrictEqual(marked, changedFiles.sort());
      } finally {
        await reader2.close();
      }
    }
  });

  it('bad URL, bad credentials and a server that is down give clear messages, never the password', async () => {
    await assert.rejects(writeTeamIndex({ root, url: 'http://example.org/x', dense: false }), (e: unknown) => e instanceof TeamIndexError && e.code === 'bad-url');
    await assert.rejects(TeamIndexReader.open('not a url', 'engine'), (e: unknown) => e instanceof TeamIndexError && e.code === 'bad-url');
    const wrong = pg.url('postgres', 'wrong-password-77');
    await assert.rejects(writeTeamIndex({ root, url: wrong, dense: false }), (e: unknown) => {
      assert.ok(e instanceof TeamIndexError);
      assert.strictEqual(e.code, 'auth');
      assert.ok(!e.message.includes('wrong-password-77'), e.message);
      return true;
    });
    const down = `postgres://postgres:pw@127.0.0.1:${await freePort()}/postgres`;
    await assert.rejects(TeamIndexReader.open(down, 'engine'), (e: unknown) => e instanceof TeamIndexError && e.code === 'unreachable' && /connection refused/.test(e.message));
    // The CLI says the same and exits non-zero; the password stays out of its output.
    const r = spawnSync(process.execPath, [CLI, 'index', root, '--to', wrong, '--no-dense'], { encoding: 'utf8' });
    assert.strictEqual(r.status, 1, r.stderr);
    assert.match(r.stderr, /refused the credentials/);
    assert.ok(!r.stderr.includes('wrong-password-77') && !r.stdout.includes('wrong-password-77'));
    // Nothing was lost: the last commit still reads.
    const reader = await TeamIndexReader.open(pg.url(), 'engine');
    assert.ok((await reader.info()).generation >= 1);
    await reader.close();
  });

  it('a dropped connection fails that query clearly, and the next one reconnects', async () => {
    const reader = await TeamIndexReader.open(pg.url(), 'engine', { applicationName: 'rr-dropped-test' });
    try {
      const q = 'BM25 score of a document';
      const before = await teamRanking(reader, q);
      assert.ok(before.length > 0);
      const killed = await adminQuery(pg.url(), `SELECT count(pg_terminate_backend(pid)) n FROM pg_stat_activity WHERE application_name = 'rr-dropped-test'`);
      assert.strictEqual(Number(killed.rows[0].n), 1);
      await assert.rejects(teamRanking(reader, q), (e: unknown) => e instanceof TeamIndexError && e.code === 'connection-lost');
      assert.deepStrictEqual(await teamRanking(reader, q), before);
    } finally {
      await reader.close();
    }
  });

  it('an old schema is refused by readers and migrated by the writer; a newer one is refused by both', async () => {
    await adminQuery(pg.url(), 'CREATE DATABASE old_schema');
    const url = pg.url('postgres', SUPERUSER_PASSWORD, 'old_schema');
    const c = new Client({ connectionString: url });
    await c.connect();
    try {
      assert.strictEqual(await migrate(c, 1), 0);
      await assert.rejects(TeamIndexReader.open(url, 'engine'), (e: unknown) => e instanceof TeamIndexError && e.code === 'schema' && /version 1, older/.test(e.message));
      const w = await writeTeamIndex({ root, url, repo: 'engine', dense: false });
      assert.ok(w.committed);
      const reader = await TeamIndexReader.open(url, 'engine');
      assert.ok((await teamRanking(reader, 'BM25 score of a document')).length > 0);
      await reader.close();
      assert.ok(Number((await c.query(`SELECT count(*) n FROM ${SCHEMA}.call_edge`)).rows[0].n) > 0, 'the migration added the call-graph table and it was filled');
      await c.query(`UPDATE ${SCHEMA}.meta SET value = '99' WHERE key = 'schema_version'`);
      await assert.rejects(writeTeamIndex({ root, url, repo: 'engine', dense: false }), (e: unknown) => e instanceof TeamIndexError && e.code === 'schema' && /newer/.test(e.message));
      await assert.rejects(TeamIndexReader.open(url, 'engine'), (e: unknown) => e instanceof TeamIndexError && e.code === 'schema' && /newer/.test(e.message));
    } finally {
      await c.end();
    }
  });

  it('a read-only role reads the index and cannot write it; secrets are never written', async () => {
    await adminQuery(pg.url(), `CREATE ROLE rr_editor LOGIN PASSWORD 'editor-pw-1'`);
    await adminQuery(pg.url(), `GRANT USAGE ON SCHEMA ${SCHEMA} TO rr_editor; GRANT SELECT ON ALL TABLES IN SCHEMA ${SCHEMA} TO rr_editor`);
    const editorUrl = pg.url('rr_editor', 'editor-pw-1');
    const reader = await TeamIndexReader.open(editorUrl, 'engine');
    assert.ok((await teamRanking(reader, 'cosine similarity of two vectors')).length > 0);
    await reader.close();
    await assert.rejects(writeTeamIndex({ root, url: editorUrl, repo: 'engine', dense: false }), (e: unknown) => e instanceof TeamIndexError && e.code === 'permission');

    const secretRepo = fs.mkdtempSync(path.join(os.tmpdir(), 'rr-team-secret-'));
    try {
      fs.writeFileSync(path.join(secretRepo, 'app.ts'), 'export function loadSettings(path: string) {\n  return readSettingsFile(path);\n}\n');
      fs.writeFileSync(path.join(secretRepo, '.env'), 'STRIPE_KEY=sk_live_verysecretvaluezz9\n');
      fs.mkdirSync(path.join(secretRepo, 'keys'));
      fs.writeFileSync(path.join(secretRepo, 'keys', 'id_rsa'), '-----BEGIN OPENSSH PRIVATE KEY-----\nprivatekeymaterialqq7\n-----END OPENSSH PRIVATE KEY-----\n');
      const w = await writeTeamIndex({ root: secretRepo, url: pg.url(), repo: 'secrets', dense: false });
      assert.ok(w.committed);
      const files = (await adminQuery(pg.url(), `SELECT f.path FROM ${SCHEMA}.file f JOIN ${SCHEMA}.repo r ON r.id = f.repo WHERE r.name = 'secrets'`)).rows.map((r) => r.path);
      assert.deepStrictEqual(files, ['app.ts']);
      const leaked = await adminQuery(pg.url(), `SELECT count(*) n FROM ${SCHEMA}.posting WHERE term LIKE '%verysecretvalue%' OR term LIKE '%privatekeymaterial%'`);
      assert.strictEqual(Number(leaked.rows[0].n), 0);
    } finally {
      fs.rmSync(secretRepo, { recursive: true, force: true });
    }
  });

  it('the CLI writes and queries as docs/operations.md shows, with the password in PGPASSWORD', () => {
    const url = `postgres://postgres@127.0.0.1:${pg.port}/postgres`;
    const env = { ...process.env, PGPASSWORD: SUPERUSER_PASSWORD };
    const w = spawnSync(process.execPath, [CLI, 'index', root, '--to', url, '--repo', 'cli', '--no-dense', '--json'], { encoding: 'utf8', env });
    assert.strictEqual(w.status, 0, w.stderr);
    const stats = JSON.parse(w.stdout);
    assert.strictEqual(stats.committed, true);
    assert.strictEqual(stats.repo, 'cli');
    const q = spawnSync(process.execPath, [CLI, 'query', root, '--from', url, '--repo', 'cli', '--text', 'split identifier into sub tokens', '--k', '3', '--json'], { encoding: 'utf8', env });
    assert.strictEqual(q.status, 0, q.stderr);
    const hits = JSON.parse(q.stdout) as { file: string; text?: string }[];
    assert.strictEqual(hits.length, 3);
    assert.ok(hits.some((h) => h.file === 'lexical/tokenize.ts'), JSON.stringify(hits));
    assert.ok(hits.every((h) => h.text === undefined), 'no text comes from the team index');
  });
});
