// What a team index URL from a repository's settings may ask for. node-postgres reads any file a
// connection string names (sslrootcert, sslkey, sslcert: pg-connection-string reads them as it
// parses) and connects to a local socket for a host that is a path; libpq adds more such parameters
// (sslcrl, sslcrldir, passfile, service files). A workspace URL gets only the parameters below,
// checked before anything parses it, so none of those files is ever opened for it.

/** Query parameters a workspace URL may carry: none of them names a file. */
export const WORKSPACE_URL_PARAMETERS: readonly string[] = ['sslmode', 'ssl', 'sslnegotiation', 'application_name', 'connect_timeout', 'client_encoding', 'options'];

/**
 * Why a URL from workspace settings is refused (its parameters outside WORKSPACE_URL_PARAMETERS,
 * or a host that is a socket path), or undefined when it may be used.
 */
export function refusedWorkspaceParameters(url: string): string | undefined {
  const refused = new Set<string>();
  let socketHost = false;
  // pg-connection-string percent-encodes a string with spaces or stray '%' before parsing it: check both readings.
  for (const text of [url, encodeURI(url).replace(/%25(\d\d)/g, '%$1')]) {
    let u: URL;
    try {
      u = new URL(text);
    } catch {
      continue;
    }
    for (const key of u.searchParams.keys()) if (!WORKSPACE_URL_PARAMETERS.includes(key)) refused.add(key);
    if (safeDecode(u.hostname).startsWith('/')) socketHost = true;
  }
  const reasons: string[] = [];
  if (refused.size) reasons.push(`has ${[...refused].sort().map((k) => `${k}=`).join(', ')} (a workspace URL may carry only ${WORKSPACE_URL_PARAMETERS.join(', ')}: parameters such as sslrootcert= name local files)`);
  if (socketHost) reasons.push('names a local socket as its host');
  return reasons.length ? reasons.join(' and ') : undefined;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
