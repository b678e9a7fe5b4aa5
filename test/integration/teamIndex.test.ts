// reporecall.teamIndex.url in a real VS Code against a real PostgreSQL server: the workspace's HEAD
// is published by the CLI (as CI would), the setting (a URL without a password) plus the password
// stored by the command make the folder's engine sync that index and open with it (no file parsed
// locally), a password typed into the URL is moved out of the setting, and a file changed locally
// afterwards is caught up over the synced index.
import * as assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RepoRecallApi } from '../../extension/src/extension';
import { startFakePostgres, type FakePostgres } from '../unit/fakePostgres';
import { commitAll, startPostgres, SUPERUSER_PASSWORD, type PgServer } from '../unit/team.helpers';
import { activatedApi, eventually, EXTENSION_ID, fileUri, folder } from './helpers';

describe('the team index setting', function () {
  this.timeout(300_000);
  let api: RepoRecallApi;
  let pg: PgServer | undefined;
  let head: string;
  let publisherIndex: string;
  const setting = () => vscode.workspace.getConfiguration('reporecall');
  const ws = () => folder().uri.fsPath;

  before(async function () {
    api = await activatedApi();
    pg = await startPostgres();
    if (!pg) {
      console.log('    (PostgreSQL is not installed here: skipped; scripts/test.sh installs it)');
      this.skip();
    }
    // The workspace as CI sees it: a git commit, published with the editor's own embedding model.
    head = commitAll(ws(), 'published by the test');
    const extensionPath = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
    const model = [path.join(extensionPath, 'models', 'reporecall-code'), path.join(extensionPath, 'models', 'reference-use-lite')].find((d) => fs.existsSync(d));
    publisherIndex = fs.mkdtempSync(path.join(os.tmpdir(), 'rr-it-publisher-'));
    const url = `postgres://postgres@127.0.0.1:${pg!.port}/postgres`;
    execFileSync(process.execPath, [path.join(extensionPath, 'bin', 'reporecall.js'), 'publish', ws(), '--to', url, '--repo', 'ws', '--local-index', publisherIndex, ...(model ? ['--model', model] : ['--no-dense'])], {
      env: { ...process.env, PGPASSWORD: SUPERUSER_PASSWORD, ELECTRON_RUN_AS_NODE: '1' }, stdio: 'pipe',
    });
  });

  after(async () => {
    await vscode.commands.executeCommand('reporecall.clearTeamIndexPassword').then(undefined, () => undefined);
    await setting().update('teamIndex.url', undefined, vscode.ConfigurationTarget.Global);
    await setting().update('teamIndex.repository', undefined, vscode.ConfigurationTarget.Global);
    pg?.stop();
    if (publisherIndex) fs.rmSync(publisherIndex, { recursive: true, force: true });
    fs.rmSync(path.join(ws(), '.git'), { recursive: true, force: true });
  });

  it('a URL with a password is rewritten without it; the engine opens with the index published for HEAD and catches up a local change', async () => {
    const url = `postgres://postgres@127.0.0.1:${pg!.port}/postgres`;
    await setting().update('teamIndex.repository', 'ws', vscode.ConfigurationTarget.Global);
    // Typed with its password: moved to the secret storage, the setting keeps the URL alone.
    await setting().update('teamIndex.url', `postgres://postgres:${SUPERUSER_PASSWORD}@127.0.0.1:${pg!.port}/postgres`, vscode.ConfigurationTarget.Global);
    await eventually('the password to leave the setting', async () => (setting().inspect<string>('teamIndex.url')?.globalValue === url ? true : undefined));

    const synced = await eventually('the engine to sync the published index and finish its catch-up', async () => {
      const [r] = api.report();
      return r.team?.state === 'synced' && r.state === 'ready' ? r : undefined;
    }, 120_000);
    assert.strictEqual(synced.team?.commit, head, JSON.stringify(synced.team));
    // Opened with the synced index: the catch-up parsed no file (a local build parses every one).
    assert.ok((synced.stats?.files ?? 0) > 0 && synced.stats?.changedFiles === 0, JSON.stringify(synced.stats));
    await eventually('the status bar to name the synced commit', async () => (api.statusHistory().slice(-1)[0]?.includes(`team index ${head.slice(0, 8)}`) ? true : undefined));
    const hits = await api.retrieve(fileUri('src/geometry/hull.ts'), 'convexHullMonotoneChain', 3);
    assert.ok(hits.some((h) => h.file === 'src/geometry/hull.ts'), JSON.stringify(hits.map((h) => h.file)));
    assert.ok(!JSON.stringify(api.report()).includes(SUPERUSER_PASSWORD));

    // A file changed locally after the sync is indexed locally over it.
    const added = path.join(ws(), 'src', 'syncedLocalChange.ts');
    fs.writeFileSync(added, 'export function locallyChangedAfterSync(radius: number): number {\n  return Math.PI * radius * radius;\n}\n');
    try {
      const found = await eventually('the local change to be retrieved', async () => {
        const h = await api.retrieve(fileUri('src/syncedLocalChange.ts'), 'locallyChangedAfterSync radius', 3);
        return h.some((x) => x.file === 'src/syncedLocalChange.ts') ? h : undefined;
      });
      assert.ok(found.length > 0);
      assert.strictEqual(api.report()[0].team?.state, 'synced');
    } finally {
      fs.rmSync(added, { force: true });
    }
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
