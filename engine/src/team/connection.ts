// Connections to a team index (PostgreSQL, through node-postgres) and the messages a user sees
// when one fails. A URL's password is never printed: messages name the URL with it masked.
import { Client, type ClientConfig } from 'pg';
import { parse as parseConnectionString } from 'pg-connection-string';
import { refusedWorkspaceParameters } from './urlPolicy';

export interface ConnectOptions {
  /** Give up connecting after this long (ms). Default 10 s. */
  connectTimeoutMs?: number;
  /** Server-side limit per statement (ms); 0: none. Default 0. */
  statementTimeoutMs?: number;
  /** Shown in pg_stat_activity. */
  applicationName?: string;
  /** The password (the editor's stored secret), used with a URL that holds none. */
  password?: string;
  /**
   * Who chose the URL. 'user' (the command line, the user's own settings; default) may name local
   * files (sslrootcert=…); 'workspace' (a repository's settings) may not, and never gets a password
   * from the environment.
   */
  urlOrigin?: 'user' | 'workspace';
  /**
   * Whether node-postgres may answer a password request from PGPASSWORD or a pgpass file when
   * `password` is not given (default true: the CLI). Always false for a 'workspace' URL.
   */
  passwordFromEnvironment?: boolean;
}

/** A failure the user can act on: `message` says what happened and what to do. */
export class TeamIndexError extends Error {
  constructor(message: string, readonly code: TeamErrorCode, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
  }
}

export type TeamErrorCode = 'bad-url' | 'unreachable' | 'auth' | 'no-database' | 'permission' | 'timeout' | 'connection-lost' | 'schema' | 'locked' | 'no-repo' | 'no-commit' | 'server';

/** Checks the URL's shape (postgres:// or postgresql://, a host) before anything is sent. */
export function parseTeamUrl(url: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new TeamIndexError(`not a PostgreSQL URL: ${maskUrl(url)} (expected postgres://user@host:port/database)`, 'bad-url');
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
    throw new TeamIndexError(`not a PostgreSQL URL: ${maskUrl(url)} (expected postgres://user@host:port/database)`, 'bad-url');
  }
  if (!u.hostname) throw new TeamIndexError(`the URL names no host: ${maskUrl(url)}`, 'bad-url');
  return u;
}

/** The URL with its password replaced by `***` (for messages and logs). */
export function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    // Not a URL: mask anything between "://user:" and "@".
    return url.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@');
  }
}

/**
 * The URL with a password from elsewhere (the editor's stored secret) put in, in memory only: a
 * connection string's empty password would override node-postgres's separate `password`. A URL
 * holding its own password keeps it.
 */
function withPassword(url: string, password: string | undefined): string {
  if (!password) return url;
  const u = new URL(url);
  if (u.password) return url;
  u.password = encodeURIComponent(password);
  return u.toString();
}

/**
 * node-postgres's config for `url`. With the environment allowed, its connection string as it
 * always was (node-postgres falls back to PGPASSWORD, then the pgpass file). Otherwise the string is
 * parsed here, because a parsed empty password ('') would send node-postgres to those fallbacks: the
 * password is a function, which node-postgres calls instead of either, answering only `stored`.
 */
export function clientConfig(url: string, opts: ConnectOptions = {}): ClientConfig {
  const origin = opts.urlOrigin ?? 'user';
  parseTeamUrl(url);
  if (origin === 'workspace') {
    const refused = refusedWorkspaceParameters(url);
    if (refused) throw new TeamIndexError(`the team index URL ${maskUrl(url)} comes from the workspace settings and ${refused}; put it in your user settings if you mean it`, 'bad-url');
  }
  const base: ClientConfig = {
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 10_000,
    application_name: opts.applicationName ?? 'reporecall',
    ...(opts.statementTimeoutMs ? { statement_timeout: opts.statementTimeoutMs } : {}),
  };
  if (origin === 'user' && opts.passwordFromEnvironment !== false) return { ...base, connectionString: withPassword(url, opts.password) };
  // As node-postgres merges a connection string: its parameters over the options.
  const parsed = parseConnectionString(url) as ClientConfig;
  const stored = opts.password;
  const password = parsed.password || (async () => {
    if (stored) return stored;
    throw new TeamIndexError(`the team index at ${maskUrl(url)} asks for a password and none is stored for this URL; run "RepoRecall: Set Team Index Password"${origin === 'user' ? ' (or allow reporecall.teamIndex.passwordFromEnvironment)' : ''}`, 'auth');
  });
  return { ...base, ...parsed, password };
}

/** Opens a client; failures become TeamIndexErrors with a clear message. */
export async function connectTeam(url: string, opts: ConnectOptions = {}): Promise<Client> {
  const client = new Client(clientConfig(url, opts));
  // An idle client whose server goes away emits 'error'; without a listener that would crash the
  // process. The next query on it fails and is reported there.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => undefined);
    throw describePgError(e, url);
  }
  return client;
}

/** What a node-postgres or socket error means for the user. */
export function describePgError(e: unknown, url: string): TeamIndexError {
  if (e instanceof TeamIndexError) return e;
  const err = e as { code?: string; message?: string };
  const where = maskUrl(url);
  const msg = err?.message ?? String(e);
  switch (err?.code) {
    case 'ECONNREFUSED':
      return new TeamIndexError(`cannot reach the team index at ${where}: connection refused (is PostgreSQL running and listening there?)`, 'unreachable', e);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new TeamIndexError(`cannot reach the team index at ${where}: host not found`, 'unreachable', e);
    case 'ETIMEDOUT':
      return new TeamIndexError(`cannot reach the team index at ${where}: timed out`, 'timeout', e);
    case 'ECONNRESET':
    case 'EPIPE':
    case '57P01': // admin_shutdown
    case '57P02': // crash_shutdown
    case '57P03': // cannot_connect_now
      return new TeamIndexError(`the connection to the team index at ${where} was lost (${msg}); nothing of an unfinished write is visible to readers, run it again`, 'connection-lost', e);
    case '28P01':
      return new TeamIndexError(`the team index at ${where} refused the credentials (password authentication failed); check the user and password (PGPASSWORD or the editor's stored secret)`, 'auth', e);
    case '28000':
      return new TeamIndexError(`the team index at ${where} does not accept this user from here (${msg})`, 'auth', e);
    case '3D000':
      return new TeamIndexError(`the team index at ${where}: ${msg}`, 'no-database', e);
    case '42501':
      return new TeamIndexError(`the team index at ${where}: permission denied (${msg}); writing needs a role that owns the reporecall schema, reading a role with SELECT on it`, 'permission', e);
    case '57014':
      return new TeamIndexError(`the team index at ${where} did not answer in time (statement timeout)`, 'timeout', e);
  }
  if (/timeout/i.test(msg)) return new TeamIndexError(`the team index at ${where} did not answer in time (${msg})`, 'timeout', e);
  if (/Connection terminated|terminating connection|not queryable|ended/i.test(msg)) {
    return new TeamIndexError(`the connection to the team index at ${where} was lost (${msg}); nothing of an unfinished write is visible to readers, run it again`, 'connection-lost', e);
  }
  return new TeamIndexError(`team index at ${where}: ${msg}`, 'server', e);
}
