// The team index URL setting (reporecall.teamIndex.url) and its password, vscode-free (unit-tested):
// the setting holds the URL without a password; the password lives in VS Code's SecretStorage under
// a key naming that exact URL, so a stored password is only ever sent to the URL it was given for
// (a URL changed to another host, port, user or database finds no password).

export const TEAM_SECRET_PREFIX = 'reporecall.teamIndex.password:';

export type TeamUrl = { url: string; password?: string } | { error: string };

/** The URL without its password (and the password, if it held one), or why it is not a PostgreSQL URL. */
export function splitTeamUrl(raw: string): TeamUrl {
  const text = raw.trim();
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return { error: 'reporecall.teamIndex.url is not a URL (expected postgres://user@host:5432/database)' };
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') return { error: `reporecall.teamIndex.url must start with postgres:// (it starts with ${u.protocol}//)` };
  if (!u.hostname) return { error: 'reporecall.teamIndex.url names no host (expected postgres://user@host:5432/database)' };
  const password = u.password ? decodeURIComponent(u.password) : undefined;
  u.password = '';
  return password ? { url: u.toString(), password } : { url: u.toString() };
}

/** The SecretStorage key of the password for exactly this URL (given without a password). */
export function teamSecretKey(url: string): string {
  return TEAM_SECRET_PREFIX + url;
}
