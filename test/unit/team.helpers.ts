// Real database servers for the team index tests: Debian's PostgreSQL server (initdb + pg_ctl in a
// temporary data directory, a free loopback port above 20000, password authentication), and PGlite
// with pgvector served over the PostgreSQL wire protocol (pglite-socket), so the same `pg` client
// code talks to both. As root (CI), PostgreSQL runs as the `postgres` user, as it must.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as path from 'path';
import { Client } from 'pg';
import type { Engine } from '../../engine/src/engine';
import type { EditorState } from '../../engine/src/types';
import { tempDir } from './tempDir';

export const SUPERUSER_PASSWORD = 'rr-test-secret-4f1c';

export interface PgServer {
  port: number;
  /** A URL for `user` (default the superuser) on `database` (default postgres). */
  url(user?: string, password?: string, database?: string): string;
  /** Stops the server like a crash (SIGQUIT to every backend: no clean shutdown). */
  crash(): void;
  start(): void;
  stop(): void;
}

/** The newest Debian PostgreSQL bin directory, if the server is installed. */
export function postgresBin(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return undefined;
  const versions = fs.readdirSync(base).filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(base, versions[0], 'bin') : undefined;
}

export async function freePort(): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const port = 20000 + Math.floor(Math.random() * 9000) + 1000;
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.createServer();
      s.once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (ok) return port;
  }
  throw new Error('no free port');
}

const isRoot = process.getuid?.() === 0;

function runAs(bin: string, args: string[]): string {
  const cmd = isRoot ? ['runuser', '-u', 'postgres', '--', bin, ...args] : [bin, ...args];
  return execFileSync(cmd[0], cmd.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * Starts a PostgreSQL server of its own, or returns undefined where none is installed (outside
 * CI: the caller skips; in CI a missing server is a failure, since scripts/test.sh installs it).
 */
/** startPostgres for a suite's `before`: skips the suite (with a line saying why) where none is installed. */
export async function startPostgresOrSkip(suite: Mocha.Context): Promise<PgServer> {
  const s = await startPostgres();
  if (!s) {
    console.log('    (PostgreSQL is not installed here: skipped; scripts/test.sh installs it)');
    suite.skip();
  }
  return s!;
}

export async function startPostgres(): Promise<PgServer | undefined> {
  const bin = postgresBin();
  if (!bin) {
    if (process.env.CI) throw new Error('PostgreSQL is not installed (scripts/test.sh installs Debian\'s postgresql package)');
    return undefined;
  }
  const dir = tempDir('rr-pg-');
  const data = path.join(dir, 'data');
  const pwfile = path.join(dir, 'pw');
  fs.writeFileSync(pwfile, SUPERUSER_PASSWORD + '\n');
  if (isRoot) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  fs.chmodSync(dir, 0o755);
  runAs(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=scram-sha-256', `--pwfile=${pwfile}`, '-E', 'UTF8', '--no-sync', '--locale=C']);
  const port = await freePort();
  const log = path.join(dir, 'server.log');
  const start = () => {
    runAs(path.join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-w', '-t', '60', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`, 'start']);
  };
  let running = false;
  const stopWith = (mode: string) => {
    if (!running) return;
    running = false;
    try {
      runAs(path.join(bin, 'pg_ctl'), ['-D', data, '-m', mode, '-w', 'stop']);
    } catch {
      // already stopped
    }
  };
  start();
  running = true;
  const onExit = () => stopWith('immediate');
  process.on('exit', onExit);
  return {
    port,
    url: (user = 'postgres', password = SUPERUSER_PASSWORD, database = 'postgres') => `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    crash: () => stopWith('immediate'),
    start: () => {
      if (running) return;
      start();
      running = true;
    },
    stop: () => {
      stopWith('fast');
      process.off('exit', onExit);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PgliteServer {
  url: string;
  stop(): Promise<void>;
}

/** PGlite (PostgreSQL in wasm) with the real pgvector extension, behind the wire protocol. */
export async function startPglite(): Promise<PgliteServer> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { vector } = await import('@electric-sql/pglite-pgvector');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const db = await PGlite.create({ extensions: { vector } });
  const port = await freePort();
  const server = new PGLiteSocketServer({ db, port, host: '127.0.0.1', maxConnections: 10 });
  await server.start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}

/** A copy of the engine's own sources (or of some of its folders): a real TypeScript repository. */
export function copyEngineSources(...subs: string[]): string {
  const src = path.resolve(__dirname, '../../../engine/src');
  const dir = tempDir('rr-team-repo-');
  if (!subs.length) fs.cpSync(src, dir, { recursive: true });
  for (const sub of subs) fs.cpSync(path.join(src, sub), path.join(dir, sub), { recursive: true });
  return dir;
}

/** git in a test repository (no user configuration needed). */
export function git(root: string, ...args: string[]): string {
  return execFileSync('git', ['-C', root, '-c', 'user.name=RepoRecall Test', '-c', 'user.email=test@reporecall.invalid', '-c', 'commit.gpgsign=false', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** Makes `root` a git repository with everything committed; returns HEAD. */
export function commitAll(root: string, message = 'snapshot'): string {
  if (!fs.existsSync(path.join(root, '.git'))) git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '--allow-empty', '-m', message);
  return git(root, 'rev-parse', 'HEAD');
}

/** A second checkout of `root` (as an editor's clone is: other paths, other mtimes). */
export function cloneRepo(root: string): string {
  const dir = tempDir('rr-team-clone-');
  execFileSync('git', ['clone', '-q', root, dir], { stdio: 'pipe' });
  return dir;
}

/** A ranking as comparable rows: place, lines, score and each signal's rank. */
export async function ranking(engine: Engine, q: EditorState | string, k = 10): Promise<string[]> {
  const hits = await engine.retrieve(q, { k });
  return hits.map((h) => `${h.file}:${h.startLine}-${h.endLine} ${h.score.toPrecision(12)} ${Object.keys(h.signals).sort().map((s) => `${s}#${h.signals[s]}`).join(',')}`);
}

export async function adminQuery(url: string, sql: string, params: unknown[] = []) {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return await c.query(sql, params);
  } finally {
    await c.end();
  }
}
