// reporecall.teamIndex.url in a real VS Code against a real PostgreSQL server: the workspace is
// written to the team index by the CLI, the setting (a URL without a password) plus the password
// stored by the command make the folder's engine read it (status bar, report, a live connection on
// the server), a password typed into the URL is moved out of the setting, and a server that goes
// away leaves retrieval answering from the local index with the status bar saying so.
import * as assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Client } from 'pg';
import type { RepoRecallApi } from '../../extension/src/extension';
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
