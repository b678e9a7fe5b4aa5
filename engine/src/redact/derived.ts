// Values the surrounding text can produce by itself are no secret beyond that text, so they are not
// redacted: a JWT whose HMAC signature verifies with one of the text's own string literals (a test
// fixture: whoever holds the file can mint it), `Basic` credentials whose password is such a literal
// (base64 is an encoding, not a lock). A literal that is itself a finding does not count: then the
// token is as secret as its key. Protocol nonces (a WebSocket handshake key) are public by design.
// Evidence: 57 of DEV's 79 redactions were such values, all in test files (1.75 → 0.49 per 1,000
// chunks: test/bench/results/2026-11-27-redaction-false-positives.md).
import { createHmac } from 'node:crypto';

/** The text a value was found in (a whole file, or a prompt), judged once and asked many times. */
export interface SecretContext {
  /** Whether `value` (a finding's text) is derivable from the context's own non-secret literals. */
  derives(value: string): boolean;
}

const JWT = /^(ey[A-Za-z0-9_-]+)\.(ey[A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)={0,2}$/;
const HMAC_ALG: Record<string, string> = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' };
const BASE64 = /^[A-Za-z0-9+/]{8,}={0,2}$/;
const HEX_KEY = /^(?:[0-9a-fA-F]{2}){16,}$/;
// Quoted literals on one line, escapes excluded (a literal with escapes is rare as a key).
const LITERAL = /(['"`])((?:(?!\1)[^\\\n]){1,512})\1/g;

/** Whether a finding's value could be derived at all: the shapes `derives` knows. */
export const mayBeDerived = (value: string): boolean => JWT.test(value) || BASE64.test(value);

function jsonOf(segment: string): unknown {
  try {
    return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The literal strings of `text` outside the spans `secret` gives (findings of the same text). */
function literalsOf(text: string, secret: Array<{ start: number; end: number }>): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(LITERAL)) {
    const start = m.index! + 1;
    const end = start + m[2].length;
    if (!secret.some((s) => s.start < end && start < s.end)) out.add(m[2]);
  }
  return [...out];
}

function mintedBy(token: string, keys: readonly (string | Buffer)[]): boolean {
  const m = JWT.exec(token);
  const header = m && jsonOf(m[1]);
  const alg = header && typeof header === 'object' ? HMAC_ALG[(header as { alg?: string }).alg ?? ''] : undefined;
  if (!m || !alg) return false;
  const signature = m[3];
  return keys.some((k) => createHmac(alg, k).update(`${m[1]}.${m[2]}`).digest('base64url') === signature);
}

function basicFrom(value: string, literals: ReadonlySet<string>): boolean {
  const decoded = Buffer.from(value, 'base64').toString('latin1');
  const m = /^[\x20-\x7e]*:([\x20-\x7e]+)$/.exec(decoded);
  return !!m && Buffer.from(decoded, 'latin1').toString('base64').replace(/=+$/, '') === value.replace(/=+$/, '') && literals.has(m[1]);
}

/**
 * The context of the text `textOf` gives: its findings (`findingsOf`) exclude literals that are
 * secrets themselves. Both are asked for at most once, and only when a value is asked about: most
 * files hold no candidate, so indexing them never builds their whole text.
 */
export function secretContext(textOf: () => string, findingsOf: (text: string) => Array<{ start: number; end: number }>): SecretContext {
  let literals: Set<string> | undefined;
  let keys: Array<string | Buffer> | undefined;
  const known = (): Set<string> => {
    if (!literals) {
      const text = textOf();
      literals = new Set(literalsOf(text, findingsOf(text)));
    }
    return literals;
  };
  const hmacKeys = (): Array<string | Buffer> =>
    (keys ??= [...known()].flatMap((l) => (HEX_KEY.test(l) ? [l, Buffer.from(l, 'hex')] : [l])));
  return {
    derives(value: string): boolean {
      if (JWT.test(value)) return mintedBy(value, hmacKeys());
      return BASE64.test(value) && basicFrom(value, known());
    },
  };
}

/** A WebSocket handshake key or accept value (RFC 6455 §4): a public nonce, never a credential. */
export function isProtocolNonce(value: string, line: string): boolean {
  return /^[A-Za-z0-9+/]{22}==$|^[A-Za-z0-9+/]{27}=$/.test(value) && /sec-websocket-(?:key|accept)/i.test(line);
}
