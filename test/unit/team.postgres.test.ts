// The team index against a real PostgreSQL server (Debian's package): CI publishes a repository's
// index as segment files (publish/publish.ts), an editor's engine syncs the one published for its
// HEAD or an ancestor (team/sync.ts) and answers from it locally, ranked as a local build ranks.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { Client } from 'pg';
import { Engine } from '../../engine/src/engine';
import type { TeamState } from '../../engine/src/api';
import type { EditorState } from '../../engine/src/types';
import { TeamIndexError } from '../../engine/src/team/connection';
import { publishTeamIndex, type PublishOptions } from '../../engine/src/publish/publish';
import { migrate, SCHEMA } from '../../engine/src/team/schema';
import { lexicalTerms } from '../../engine/src/lexical/tokenize';
import { adminQuery, cloneRepo, commitAll, copyEngineSources, freePort, git, ranking, startPostgresOrSkip, SUPERUSER_PASSWORD, type PgServer } from './team.helpers';
import { tempDir } from './tempDir';

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
  return fs.readdirSync(path.join(root, rel), { withFileTypes: true }).filter((e) => e.name !== '.git').flatMap((e) => {
    const r = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? listFiles(root, r) : [r];
  });
}

/** An editor's engine on `root` syncing repository `repo` from `url`: opened, caught up; the states it went through. */
export async function syncedEngine(root: string, indexDir: string, url: string, repo: string, dense = false): Promise<{ engine: Engine; states: TeamState[]; downloaded: number }> {
  const states: TeamState[] = [];
  const engine = await Engine.open({ root, indexDir, dense, team: { url, repo, urlOrigin: 'user' }, onTeamState: (s) => states.push(s) });
  let downloaded = 0;
  await engine.indexAll((p) => { if (p.phase === 'download') downloaded = p.done; });
  return { engine, states, downloaded };
}

describe('team index on PostgreSQL: publish and sync', function () {
  this.timeout(300_000);
  let pg: PgServer;
  let root: string;
  let cache: string;
  const tmpDirs: string[] = [];
  const tmp = (prefix: string) => {
    const d = tempDir(prefix);
    tmpDirs.push(d);
    return d;
  };
  const publish = (extra: Partial<PublishOptions> = {}) => publishTeamIndex({ root, url: pg.url(), repo: 'engine', dense: false, localIndexDir: cache, ...extra });

  before(async function () {
    pg = await startPostgresOrSkip(this);
    root = copyEngineSources('lexical', 'retrieve', 'store', 'util');
    commitAll(root, 'first');
    cache = tmp('rr-team-cache-');
  });

  after(() => {
    pg?.stop();
    for (const d of [root, ...tmpDirs]) if (d) fs.rmSync(d, { recursive: true, force: true });
  });

  it('publishes once per commit; a second publish of it, or two at once, changes nothing', async () => {
    const first = await publish();
    assert.ok(first.published && first.uploadedSegments === first.segments && first.uploadedBytes === first.bytes, JSON.stringify(first));
    const again = await publish();
    assert.deepStrictEqual([again.published, again.uploadedSegments], [false, 0]);
    // Two publishers of one new commit, each with its own local index: one records it, nothing twice.
    fs.appendFileSync(path.join(root, 'util/extraHelper.ts'), '\nexport function clampToUnit(value: number): number {\n  return Math.min(1, Math.max(0, value));\n}\n');
    const head = commitAll(root, 'second');
    const [a, b] = await Promise.all([publish({ localIndexDir: tmp('rr-team-pubA-') }), publish({ localIndexDir: tmp('rr-team-pubB-') })]);
    assert.deepStrictEqual([a.published, b.published].sort(), [false, true]);
    const rows = await adminQuery(pg.url(), `SELECT count(*) n FROM ${SCHEMA}.published p JOIN ${SCHEMA}.repo r ON r.id = p.repo WHERE r.name = 'engine' AND p.commit = $1`, [head]);
    assert.strictEqual(Number(rows.rows[0].n), 1);
    const orphans = await adminQuery(pg.url(), `SELECT count(*) n FROM ${SCHEMA}.segment s WHERE NOT EXISTS (SELECT 1 FROM ${SCHEMA}.segment_part p WHERE p.repo = s.repo AND p.sha256 = s.sha256)`);
    assert.strictEqual(Number(orphans.rows[0].n), 0);
  });

  it('an editor syncs the commit published for its HEAD, ranks exactly as a local build, and catches up a changed file', async () => {
    const clone = cloneRepo(root);
    tmpDirs.push(clone);
    const { engine, states, downloaded } = await syncedEngine(clone, tmp('rr-team-editor-'), pg.url(), 'engine');
    const local = await Engine.open({ root: clone, indexDir: tmp('rr-team-local-'), dense: false });
    try {
      await local.indexAll();
      assert.deepStrictEqual(states.map((s) => s.state).filter((s, i, a) => a[i - 1] !== s), ['checking', 'downloading', 'synced'], JSON.stringify(states.slice(-1)));
      assert.strictEqual(engine.stats().team?.commit, git(clone, 'rev-parse', 'HEAD'));
      assert.ok(downloaded > 0);
      // Nothing re-parsed after the install: every file matched the published commit by content.
      assert.strictEqual(engine.stats().changedFiles, 0);
      for (const q of queriesFor(clone)) assert.deepStrictEqual(await ranking(engine, q), await ranking(local, q), typeof q === 'string' ? q : `${q.file}:${q.line}`);
      // A file changed locally (not committed) is indexed locally over the synced index.
      fs.appendFileSync(path.join(clone, 'util/extraHelper.ts'), '\nexport function locallyAddedSquare(value: number): number {\n  return value * value;\n}\n');
      await engine.indexAll();
      const hits = await engine.retrieve('locallyAddedSquare value times value', { k: 3 });
      assert.strictEqual(hits[0]?.file, 'util/extraHelper.ts');
    } finally {
      await engine.close();
      await local.close();
    }
  });

  it('a one-file commit publishes and downloads its new segments only', async () => {
    const oneCache = tmp('rr-team-onefile-');
    const first = await publish({ repo: 'onefile', localIndexDir: oneCache });
    assert.ok(first.published);
    const editorIndex = tmp('rr-team-editor-');
    const clone = cloneRepo(root);
    tmpDirs.push(clone);
    await (await syncedEngine(clone, editorIndex, pg.url(), 'onefile')).engine.close();
    fs.appendFileSync(path.join(root, 'lexical/tokenize.ts'), '\nexport function oneFileCommitMarker(text: string): number {\n  return text.length;\n}\n');
    commitAll(root, 'one file');
    const s = await publish({ repo: 'onefile', localIndexDir: oneCache });
    assert.ok(s.published && s.parsedFiles === 1, JSON.stringify(s));
    assert.ok(s.uploadedBytes < s.bytes / 4, `uploaded ${s.uploadedBytes} of ${s.bytes}`);
    git(clone, 'pull', '-q', '--ff-only');
    const { engine, downloaded } = await syncedEngine(clone, editorIndex, pg.url(), 'onefile');
    try {
      assert.strictEqual(engine.stats().team?.state, 'synced');
      assert.strictEqual(engine.stats().team?.commit, git(root, 'rev-parse', 'HEAD'));
      assert.ok(downloaded > 0 && downloaded <= s.uploadedBytes, `downloaded ${downloaded}, the commit uploaded ${s.uploadedBytes}`);
      assert.strictEqual((await engine.retrieve('oneFileCommitMarker', { k: 1 }))[0]?.file, 'lexical/tokenize.ts');
    } finally {
      await engine.close();
    }
  });

  it('a HEAD nobody published syncs its newest published ancestor; retention keeps the newest commits', async () => {
    const published = (await publish()).commit;
    fs.writeFileSync(path.join(root, 'util/unpublished.ts'), 'export const unpublishedAnswer = 42;\n');
    const head = commitAll(root, 'not published');
    const { engine } = await syncedEngine(root, tmp('rr-team-editor-'), pg.url(), 'engine');
    try {
      assert.strictEqual(engine.stats().team?.commit, published);
      assert.notStrictEqual(published, head);
      assert.strictEqual((await engine.retrieve('unpublishedAnswer', { k: 1 }))[0]?.file, 'util/unpublished.ts');
    } finally {
      await engine.close();
    }
    const kept = await publish({ keepCommits: 1 });
    assert.ok(kept.collected && kept.collected.commits >= 3, JSON.stringify(kept.collected));
    const n = await adminQuery(pg.url(), `SELECT count(*) n FROM ${SCHEMA}.published p JOIN ${SCHEMA}.repo r ON r.id = p.repo WHERE r.name = 'engine'`);
    assert.strictEqual(Number(n.rows[0].n), 1);
  });

  it('a publisher whose connection dies mid-upload leaves no commit; the next publish completes it', async () => {
    fs.writeFileSync(path.join(root, 'util/killedPublish.ts'), 'export function killedPublishMarker() {\n  return 7;\n}\n');
    const head = commitAll(root, 'killed');
    let parts = 0;
    await assert.rejects(publish({
      applicationName: 'rr-killed-publisher',
      afterPart: async () => {
        if (++parts === 1) await adminQuery(pg.url(), 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = \'rr-killed-publisher\'');
      },
    }), (e: unknown) => e instanceof TeamIndexError && e.code === 'connection-lost');
    const seen = await adminQuery(pg.url(), `SELECT count(*) n FROM ${SCHEMA}.published WHERE commit = $1`, [head]);
    assert.strictEqual(Number(seen.rows[0].n), 0);
    const { engine } = await syncedEngine(root, tmp('rr-team-editor-'), pg.url(), 'engine');
    assert.notStrictEqual(engine.stats().team?.commit, head);
    await engine.close();
    const done = await publish();
    assert.ok(done.published && done.uploadedSegments > 0);
  });

  it('an index of another model is ignored with a message and built locally', async () => {
    const { engine, states } = await syncedEngine(root, tmp('rr-team-editor-'), pg.url(), 'engine', true);
    try {
      const last = states[states.length - 1];
      assert.strictEqual(last.state, 'ignored');
      assert.match(last.message ?? '', /built with model none, now .*built locally/);
      assert.ok(engine.stats().files > 0 && engine.stats().changedFiles === engine.stats().files, 'built locally');
    } finally {
      await engine.close();
    }
  });

  it('a read-only role syncs and cannot write; secrets never reach the store', async () => {
    await adminQuery(pg.url(), 'CREATE ROLE rr_editor LOGIN PASSWORD \'editor-pw-1\'');
    await adminQuery(pg.url(), `GRANT USAGE ON SCHEMA ${SCHEMA} TO rr_editor; GRANT SELECT ON ALL TABLES IN SCHEMA ${SCHEMA} TO rr_editor`);
    const editorUrl = pg.url('rr_editor', 'editor-pw-1');
    const { engine } = await syncedEngine(root, tmp('rr-team-editor-'), editorUrl, 'engine');
    assert.strictEqual(engine.stats().team?.state, 'synced');
    await engine.close();
    await assert.rejects(publish({ url: editorUrl }), (e: unknown) => e instanceof TeamIndexError && e.code === 'permission');
    await assert.rejects(adminQuery(editorUrl, `DELETE FROM ${SCHEMA}.segment_part`), /permission denied/);

    const secretRepo = tmp('rr-team-secret-');
    fs.writeFileSync(path.join(secretRepo, 'app.ts'), 'export function loadSettings(path: string) {\n  const awsKey = "AKIAZ7QF3XK2LMNOPQ5W";\n  const token = "ghp_R8fK2mWq9LxT4vB7nY3cZ6pJ1sD5hG0aE2uI";\n  return readSettingsFile(path, awsKey, token);\n}\n');
    fs.writeFileSync(path.join(secretRepo, '.env'), 'STRIPE_KEY=sk_live_verysecretvaluezz9\n');
    commitAll(secretRepo);
    const w = await publishTeamIndex({ root: secretRepo, url: pg.url(), repo: 'secrets', dense: false, localIndexDir: tmp('rr-team-secret-idx-') });
    assert.ok(w.published);
    const parts = await adminQuery(pg.url(), `SELECT p.data FROM ${SCHEMA}.segment_part p JOIN ${SCHEMA}.repo r ON r.id = p.repo WHERE r.name = 'secrets'`);
    const bytes = Buffer.concat([...parts.rows.map((r) => r.data as Buffer), Buffer.from((await adminQuery(pg.url(), `SELECT manifest FROM ${SCHEMA}.published`)).rows.map((r) => r.manifest).join())]);
    assert.ok(bytes.includes('loadSettings'), 'the published index holds the code');
    // The secrets as written, and every longer term the index would make of them unredacted.
    const secrets = ['AKIAZ7QF3XK2LMNOPQ5W', 'ghp_R8fK2mWq9LxT4vB7nY3cZ6pJ1sD5hG0aE2uI', 'sk_live_verysecretvaluezz9'];
    const terms = secrets.flatMap((x) => lexicalTerms(x)).filter((t) => t.length >= 6 && !/^(sk|live|ghp)$/.test(t));
    assert.ok(terms.length >= 3, JSON.stringify(terms));
    for (const secret of [...secrets, ...terms]) assert.ok(!bytes.includes(secret), `${secret} was published`);
  });

  it('bad URL, bad credentials, a server that is down and a newer schema give clear messages, never the password', async () => {
    await assert.rejects(publish({ url: 'http://example.org/x' }), (e: unknown) => e instanceof TeamIndexError && e.code === 'bad-url');
    const wrong = pg.url('postgres', 'wrong-password-77');
    await assert.rejects(publish({ url: wrong }), (e: unknown) => e instanceof TeamIndexError && e.code === 'auth' && !e.message.includes('wrong-password-77'));
    const down = `postgres://postgres:pw@127.0.0.1:${await freePort()}/postgres`;
    const { engine, states } = await syncedEngine(root, tmp('rr-team-editor-'), down, 'engine');
    try {
      assert.strictEqual(states[states.length - 1].state, 'unreachable');
      assert.match(states[states.length - 1].message ?? '', /connection refused.*built locally/);
      assert.ok(engine.stats().files > 0);
    } finally {
      await engine.close();
    }
    // The CLI says the same and exits non-zero; the password stays out of its output.
    const r = spawnSync(process.execPath, [CLI, 'publish', root, '--to', wrong, '--no-dense'], { encoding: 'utf8' });
    assert.strictEqual(r.status, 1, r.stderr);
    assert.match(r.stderr, /refused the credentials/);
    assert.ok(!r.stderr.includes('wrong-password-77') && !r.stdout.includes('wrong-password-77'));
    await adminQuery(pg.url(), 'CREATE DATABASE newer_schema');
    const c = new Client({ connectionString: pg.url('postgres', SUPERUSER_PASSWORD, 'newer_schema') });
    await c.connect();
    try {
      await migrate(c);
      await c.query(`UPDATE ${SCHEMA}.meta SET value = '99' WHERE key = 'schema_version'`);
      await assert.rejects(publish({ url: pg.url('postgres', SUPERUSER_PASSWORD, 'newer_schema') }), (e: unknown) => e instanceof TeamIndexError && e.code === 'schema' && /newer/.test(e.message));
    } finally {
      await c.end();
    }
  });

  it('an old per-posting schema is migrated: its tables dropped, the new ones made', async () => {
    await adminQuery(pg.url(), 'CREATE DATABASE old_schema');
    const url = pg.url('postgres', SUPERUSER_PASSWORD, 'old_schema');
    const c = new Client({ connectionString: url });
    await c.connect();
    try {
      assert.strictEqual(await migrate(c, 2), 0);
      assert.ok((await c.query(`SELECT to_regclass('${SCHEMA}.posting') t`)).rows[0].t);
      assert.ok((await publish({ url, localIndexDir: tmp('rr-team-old-') })).published);
      assert.strictEqual((await c.query(`SELECT to_regclass('${SCHEMA}.posting') t`)).rows[0].t, null);
    } finally {
      await c.end();
    }
  });

  it('the CLI publishes as docs/operations.md shows, with the password in PGPASSWORD', () => {
    const url = `postgres://postgres@127.0.0.1:${pg.port}/postgres`;
    const env = { ...process.env, PGPASSWORD: SUPERUSER_PASSWORD };
    const w = spawnSync(process.execPath, [CLI, 'publish', root, '--to', url, '--repo', 'cli', '--local-index', tmp('rr-team-cli-'), '--no-dense', '--json'], { encoding: 'utf8', env });
    assert.strictEqual(w.status, 0, w.stderr);
    const stats = JSON.parse(w.stdout);
    assert.deepStrictEqual([stats.published, stats.repo, stats.commit], [true, 'cli', git(root, 'rev-parse', 'HEAD')]);
  });
});
