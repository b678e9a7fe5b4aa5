// reporecall.teamIndex.url in a real VS Code against a real PostgreSQL server: the workspace is
// written to the team index by the CLI, the setting (a URL without a password) plus the password
// stored by the command make the folder's engine read it (status bar, report, a live connection on
// the server), a password typed into the URL is moved out of the setting, and a server that goes
// away leaves retrieval answering from the local index with the status bar saying so.
import * as assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Client } from 'pg';
import type { RepoRecallApi } from '../../extension/src/extension';
import { startFakePostgres, type FakePostgres } from '../unit/fakePostgres';
import { startPostgres, SUPERUSER_PASSWORD, type PgServer } from '../unit/team.helpers';
import { activatedApi, eventually, EXTENSION_ID, fileUri, folder } from './helpers';

describe('the team index setting', function () {
  this.timeout(240_000);
  let api: RepoRecallApi;
  let pg: PgServer | undefined;
  const setting = () => vscode.workspace.getConfiguration('reporecall');

  before(async function () {
    api = await activatedApi();
    pg = await startPostgres();
    if (!pg) {
      console.log('    (PostgreSQL is not installed here: skipped; scripts/test.sh installs it)');
      this.skip();
    }
    const cli = path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'bin', 'reporecall.js');
    const url = `postgres://postgres@127.0.0.1:${pg!.port}/postgres`;
    execFileSync(process.execPath, [cli, 'index', folder().uri.fsPath, '--to', url, '--repo', 'ws', '--no-dense'], { env: { ...process.env, PGPASSWORD: SUPERUSER_PASSWORD, ELECTRON_RUN_AS_NODE: '1' }, stdio: 'pipe' });
  });

  after(async () => {
    await vscode.commands.executeCommand('reporecall.clearTeamIndexPassword').then(undefined, () => undefined);
    await setting().update('teamIndex.url', undefined, vscode.ConfigurationTarget.Global);
    await setting().update('teamIndex.repository', undefined, vscode.ConfigurationTarget.Global);
    pg?.stop();
  });

  it('a URL with a password is rewritten without it; the stored password opens the team index; a server that goes away leaves the local index answering', async () => {
    const url = `postgres://postgres@127.0.0.1:${pg!.port}/postgres`;
    await setting().update('teamIndex.repository', 'ws', vscode.ConfigurationTarget.Global);
    // Typed with its password: moved to the secret storage, the setting keeps the URL alone.
    await setting().update('teamIndex.url', `postgres://postgres:${SUPERUSER_PASSWORD}@127.0.0.1:${pg!.port}/postgres`, vscode.ConfigurationTarget.Global);
    await eventually('the password to leave the setting', async () => (setting().inspect<string>('teamIndex.url')?.globalValue === url ? true : undefined));

    const serving = await eventually('the engine to serve from the team index', async () => {
      const [r] = api.report();
      return r.team?.state === 'team' ? r : undefined;
    }, 90_000);
    assert.ok((serving.team?.generation ?? 0) >= 1, JSON.stringify(serving.team));
    // The status bar says so once the folder's own indexing run is over (it shows that first).
    await eventually('the status bar to name the team index', async () => (/ · team index( ·|$)/.test(api.statusHistory().slice(-1)[0] ?? '') ? true : undefined));
    const hits = await api.retrieve(fileUri('src/geometry/hull.ts'), 'convexHullMonotoneChain', 3);
    assert.ok(hits.some((h) => h.file === 'src/geometry/hull.ts'), JSON.stringify(hits.map((h) => h.file)));
    // The engine's own connection, seen by the server, authenticated by the stored password.
    const admin = new Client({ connectionString: `postgres://postgres:${SUPERUSER_PASSWORD}@127.0.0.1:${pg!.port}/postgres` });
    await admin.connect();
    const n = Number((await admin.query(`SELECT count(*) n FROM pg_stat_activity WHERE application_name = 'reporecall-editor'`)).rows[0].n);
    await admin.end();
    assert.ok(n >= 1, `connections from the editor: ${n}`);
    assert.ok(!JSON.stringify(api.report()).includes(SUPERUSER_PASSWORD));

    // The server goes away: the local index answers, the status bar says so.
    pg!.crash();
    const down = await eventually('the status bar to say the team index is unreachable', async () => {
      const local = await api.retrieve(fileUri('src/geometry/hull.ts'), 'convexHullMonotoneChain', 3);
      const [r] = api.report();
      return r.team?.state === 'unreachable' ? local : undefined;
    });
    assert.ok(down.some((h) => h.file === 'src/geometry/hull.ts'));
    await eventually('the status bar to say so', async () => (/team index unreachable, local/.test(api.statusHistory().slice(-1)[0] ?? '') ? true : undefined));
  });
});

// A repository's own .vscode/settings.json names a server that asks for a clear-text password, while
// the editor's environment has PGPASSWORD and a pgpass file matching it: the engine may connect, but
// sends neither (only a password stored for that exact URL would go), and a URL naming a local file
// is refused before any connection. (An untrusted workspace cannot be had here: VS Code trusts the
// workspace of an extension test run; config.ts's untrusted path is tested in test/unit/settings.test.ts.)
describe('a team index URL from the workspace settings', function () {
  this.timeout(120_000);
  let api: RepoRecallApi;
  let fake: FakePostgres;
  let tmp: string;
  const saved = { PGPASSWORD: process.env.PGPASSWORD, PGPASSFILE: process.env.PGPASSFILE };
  const setting = () => vscode.workspace.getConfiguration('reporecall', folder());
  const teamState = () => api.report()[0]?.team;

  before(async () => {
    api = await activatedApi();
    fake = await startFakePostgres();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rr-fake-pg-'));
    const passfile = path.join(tmp, 'pgpass');
    fs.writeFileSync(passfile, `127.0.0.1:${fake.port}:teamdb:victim:from-pgpass\n`, { mode: 0o600 });
    // The extension host's environment, which the engine process would inherit.
    process.env.PGPASSWORD = 'from-PGPASSWORD';
    process.env.PGPASSFILE = passfile;
  });

  after(async () => {
    await setting().update('teamIndex.url', undefined, vscode.ConfigurationTarget.WorkspaceFolder);
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await fake.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('gets no password from PGPASSWORD or the pgpass file, and one naming a local file is refused unopened', async () => {
    const url = `postgres://victim@127.0.0.1:${fake.port}/teamdb`;
    await setting().update('teamIndex.url', url, vscode.ConfigurationTarget.WorkspaceFolder);
    assert.strictEqual(setting().inspect<string>('teamIndex.url')?.workspaceFolderValue, url);
    const failed = await eventually('the engine to try the workspace\'s team index', async () => {
      const t = teamState();
      return t?.state === 'error' || t?.state === 'unreachable' ? t : undefined;
    }, 90_000);
    assert.ok(fake.connections >= 1, 'the engine connected to the server the workspace named');
    assert.deepStrictEqual(fake.passwords, [], 'passwords the server received');
    assert.match(failed.message ?? '', /asks for a password and none is stored for this URL/);
    assert.strictEqual(fake.startups[0]?.user, 'victim');

    const connections = fake.connections;
    await setting().update('teamIndex.url', `${url}?sslmode=verify-full&sslrootcert=/etc/passwd`, vscode.ConfigurationTarget.WorkspaceFolder);
    const refused = await eventually('the engine to refuse the URL', async () => {
      const t = teamState();
      return t?.state === 'error' && /sslrootcert=/.test(t.message ?? '') ? t : undefined;
    }, 90_000);
    assert.match(refused.message ?? '', /comes from the workspace settings and has sslrootcert= .*put it in your user settings if you mean it$/);
    assert.strictEqual(fake.connections, connections, 'no connection for the refused URL');
    assert.deepStrictEqual(fake.passwords, []);
  });
});
