// Secret redaction for requests to model servers: the engine's redactor (engine/src/redact, the one
// that also keeps secrets out of the index) and the policy of when a request is redacted. Every
// request is, loopback included (a loopback port is often a tunnel or a proxy to a remote model),
// unless the user turned `reporecall.redaction.loopback` off, which exempts loopback servers only.
import { isLoopbackUrl } from '../../../engine/src/public';

export { isLoopbackHost, isLoopbackUrl, placeholder, redactDeep, redactSecrets } from '../../../engine/src/public';

/**
 * Whether a request to `url` is redacted: always, except to a loopback server when `redactLoopback`
 * is false. No URL (a backend without a server, e.g. VS Code's language models): always.
 */
export function redactsRequestTo(url: string | undefined, redactLoopback = true): boolean {
  return redactLoopback || !url || !isLoopbackUrl(url);
}
