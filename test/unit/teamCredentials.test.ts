// No credential goes where a repository points: a team index URL from workspace settings connects
// with the password stored for exactly that URL or none, never PGPASSWORD or a pgpass entry (which
// node-postgres would send on its own, in clear text when the server asks), and names no local file.
// The server here is a fake on loopback that asks for a clear-text password and records what it gets.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TeamIndexOptions } from '../../engine/src/api';
import { Engine } from '../../engine/src/engine';
import { EngineClient } from '../../engine/src/rpc/client';
import { engineEnvironment } from '../../engine/src/rpc/transport';
import { connectTeam, TeamIndexError, type ConnectOptions } from '../../engine/src/team/connection';
import { refusedWorkspaceParameters } from '../../engine/src/team/urlPolicy';
import { startFakePostgres, type FakePostgres } from './fakePostgres';
import { tempDir } from './tempDir';

const ENV_PASSWORD = 'from-PGPASSWORD';
const PGPASS_PASSWORD = 'from-pgpass';

describe('team index credentials: nothing from the environment for a URL a repository set', function () {
  this.timeout(60_000);
  let server: FakePostgres;
  let tmp: string;
  const saved: Record<string, string | undefined> = {};
  const url = () => `postgres://victim@127.0.0.1:${server.port}/teamdb`;

  /** Sets (or, with undefined, removes) environment variables for one test; afterEach restores them. */
  function setEnv(vars: Record<string, string | undefined>): void {
    for (const [k, v] of Object.entries(vars)) {
      if (!(k in saved)) saved[k] = process.env[k];
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }

  /** PGPASSWORD set and a private HOME whose ~/.pgpass matches the server's URL, as a developer's machine has them. */
  function victimEnvironment(withPgPassword = true): void {
    const home = path.join(tmp, 'home');
    fs.mkdirSync(home, { recursive: true });
    fs.writeFileSync(path.join(home, '.pgpass'), `127.0.0.1:${server.port}:teamdb:victim:${PGPASS_PASSWORD}\n`, { mode: 0o600 });
    setEnv({ HOME: home, PGPASSFILE: undefined, PGPASSWORD: withPgPassword ? ENV_PASSWORD : undefined });
  }

  async function attempt(opts: ConnectOptions, target = url()): Promise<unknown> {
    try {
      const c = await connectTeam(target, { connectTimeoutMs: 5_000, ...opts });
      await c.end();
      return undefined;
    } catch (e) {
      return e;
    }
  }

  beforeEach(async () => {
    server = await startFakePostgres();
    tmp = tempDir('rr-team-cred-');
  });
  afterEach(async () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
      delete saved[k];
    }
    await server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('the command line (the user\'s own URL) still answers with PGPASSWORD, else the pgpass entry', async () => {
    victimEnvironment();
    await attempt({});
    victimEnvironment(false);
    await attempt({});
    assert.deepStrictEqual(server.passwords, [ENV_PASSWORD, PGPASS_PASSWORD]);
  });

  it('a workspace URL sends neither PGPASSWORD nor the pgpass entry, and says how to store a password', async () => {
    victimEnvironment();
    const err = await attempt({ urlOrigin: 'workspace' });
    victimEnvironment(false);
    await attempt({ urlOrigin: 'workspace', passwordFromEnvironment: true });
    assert.strictEqual(server.connections, 2);
    assert.deepStrictEqual(server.passwords, []);
    assert.ok(err instanceof TeamIndexError && err.code === 'auth', String(err));
    assert.match(err.message, /asks for a password and none is stored for this URL; run "RepoRecall: Set Team Index Password"$/);
  });

  it('a user-settings URL uses the environment only when opted in; the stored password always wins', async () => {
    victimEnvironment();
    await attempt({ urlOrigin: 'user', passwordFromEnvironment: false });
    assert.deepStrictEqual(server.passwords, []);
    await attempt({ urlOrigin: 'user', passwordFromEnvironment: true });
    await attempt({ urlOrigin: 'workspace', password: 'stored-for-this-url' });
    await attempt({ urlOrigin: 'user', passwordFromEnvironment: false, password: 'stored-too' });
    assert.deepStrictEqual(server.passwords, [ENV_PASSWORD, 'stored-for-this-url', 'stored-too']);
  });

  it('the engine (as the editor opens it) and its process, PGPASSWORD and ~/.pgpass in place: no password for a workspace URL', async () => {
    victimEnvironment();
    const root = path.join(tmp, 'ws');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'a.ts'), 'export const a = 1;\n');
    const engine = await Engine.open({ root, indexDir: path.join(tmp, 'idx'), dense: false, team: { url: url(), repo: 'ws' } });
    try {
      const state = await engine.team!.settled();
      assert.strictEqual(state.state, 'error', JSON.stringify(state));
      assert.match(state.message ?? '', /none is stored for this URL/);
    } finally {
      await engine.close();
    }
    // The engine process EngineClient starts: a workspace URL, even one claiming the environment.
    const client = new EngineClient({
      workerPath: path.resolve(__dirname, '../../engine/src/rpc/worker.js'),
      init: { options: { root, indexDir: path.join(tmp, 'idx2'), dense: false, team: { url: url(), repo: 'ws', urlOrigin: 'workspace', passwordFromEnvironment: true } } },
    });
    try {
      await client.whenReady();
      await client.retrieve('a', { k: 1 });
      const deadline = Date.now() + 20_000;
      while (client.teamState?.state !== 'error' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      assert.strictEqual(client.teamState?.state, 'error', JSON.stringify(client.teamState));
    } finally {
      await client.close();
    }
    assert.strictEqual(server.connections, 2);
    assert.deepStrictEqual(server.passwords, []);
  });

  it('the engine process gets no PG* variable, except the password ones for a user URL that opted in', () => {
    const parent = { PATH: '/bin', PGPASSWORD: 'x', PGPASSFILE: '/p', PGUSER: 'u', PGHOST: 'h', PGSSLROOTCERT: '/c', pgservice: 's' };
    const team = { url: 'postgres://u@h/db', repo: 'r', timeoutMs: 1, retryMs: 1 };
    const names = (t?: TeamIndexOptions) => Object.keys(engineEnvironment(parent, { options: { root: '/r', indexDir: '/i', ...(t ? { team: t } : {}) } })).sort();
    assert.deepStrictEqual(names(), ['ORT_DISABLE_TELEMETRY', 'PATH']);
    assert.deepStrictEqual(names({ ...team, urlOrigin: 'workspace', passwordFromEnvironment: true }), ['ORT_DISABLE_TELEMETRY', 'PATH']);
    assert.deepStrictEqual(names({ ...team, urlOrigin: 'user' }), ['ORT_DISABLE_TELEMETRY', 'PATH']);
    assert.deepStrictEqual(names({ ...team, urlOrigin: 'user', passwordFromEnvironment: true }), ['ORT_DISABLE_TELEMETRY', 'PATH', 'PGPASSFILE', 'PGPASSWORD']);
  });

  it('a workspace URL naming a local file (sslrootcert=/etc/passwd, …) is refused before anything reads it or connects', async () => {
    // The module object node-postgres's URL parser requires (the import above is a read-only view of it).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const realFs = require('node:fs') as { readFileSync: typeof fs.readFileSync };
    const read: string[] = [];
    const readFileSync = realFs.readFileSync;
    realFs.readFileSync = function (this: unknown, ...args: Parameters<typeof fs.readFileSync>) {
      read.push(String(args[0]));
      return readFileSync.apply(realFs, args);
    } as typeof fs.readFileSync;
    try {
      const err = await attempt({ urlOrigin: 'workspace' }, `${url()}?sslmode=verify-full&sslrootcert=/etc/passwd`);
      assert.ok(err instanceof TeamIndexError && err.code === 'bad-url', String(err));
      assert.match(err.message, /comes from the workspace settings and has sslrootcert= \(a workspace URL may carry only sslmode, .*\); put it in your user settings if you mean it$/);
      assert.ok(!read.includes('/etc/passwd'), read.join(', '));
      assert.strictEqual(server.connections, 0);
      // The same URL from the user's own settings reads it (as the CA, so the TLS-less server is then refused).
      await attempt({ urlOrigin: 'user' }, `${url()}?sslmode=verify-full&sslrootcert=/etc/passwd`);
      assert.ok(read.includes('/etc/passwd'), read.join(', '));
    } finally {
      realFs.readFileSync = readFileSync;
    }
  });

  it('the workspace URL policy: file and socket parameters refused, TLS modes accepted', () => {
    const base = 'postgres://u@db.example:5432/team';
    assert.strictEqual(refusedWorkspaceParameters(`${base}?sslmode=verify-full&application_name=x`), undefined);
    for (const p of ['sslkey=/k', 'sslcert=/c', 'sslcrl=/l', 'sslcrldir=/d', 'passfile=/p', 'service=s', 'host=/run/postgresql', 'sslroot%63ert=/c']) {
      assert.match(refusedWorkspaceParameters(`${base}?${p}`) ?? '', /^has \w+= \(a workspace URL may carry only/, p);
    }
    assert.match(refusedWorkspaceParameters('postgres://u@%2Frun%2Fpostgresql/team') ?? '', /names a local socket as its host/);
    assert.match(refusedWorkspaceParameters(`${base}?sslmode=require&sslrootcert=/a b`) ?? '', /sslrootcert=/);
  });
});
