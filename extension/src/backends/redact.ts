// Secret redaction for requests that leave the machine. The deny-list (engine/src/scan/secrets.ts)
// works on paths, so a key pasted into an ordinary source file (`src/settings.ts.bak`, a test
// fixture, a config module) is indexed, retrieved and put in the prompt like any other code. Before
// a request goes to a model server that is not on loopback, every string in its body is passed
// through redactSecrets(): high-confidence secret formats only (private-key blocks, the token formats
// of the big clouds and code hosts, credentials in URLs, high-entropy values assigned to
// password/secret/token/key names), so ordinary code is left as it is. vscode-free.

export interface Redaction {
  text: string;
  /** What was replaced, one entry per secret, e.g. `github-token`. */
  kinds: string[];
}

interface Rule {
  kind: string;
  re: RegExp;
  /** Returns the replacement of the whole match (default: the placeholder). */
  replace?: (match: string, ...groups: string[]) => string | undefined;
}

export const placeholder = (kind: string): string => `<redacted:${kind}>`;

/** Shannon entropy of `s` in bits per character. */
export function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/**
 * Whether a value assigned to a password/secret/token/key name looks like a real secret rather than
 * code, a placeholder or a word: long enough, no spaces, several character classes, high entropy.
 */
export function looksLikeSecretValue(value: string): boolean {
  if (value.length < 8 || value.length > 512 || /\s/.test(value)) return false;
  if (/^(?:\$\{.*\}|\{\{.*\}\}|<.*>|%.*%|\$[A-Z_][A-Z0-9_]*)$/.test(value)) return false; // templates, placeholders
  if (/^(?:x+|\*+|\.+|changeme|change_me|password|secret|example|placeholder|your[-_a-z]*|todo|none|null|undefined|true|false)$/i.test(value)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((re) => re.test(value)).length;
  if (classes < 2) return false;
  return entropy(value) >= 3.0;
}

// Names whose value is a credential: DB_PASSWORD, clientSecret, "api_key", AWS_SECRET_ACCESS_KEY, authToken, …
// Starts at the beginning of a name, and both ends are bounded, so a long identifier run costs linear time.
const SECRET_NAME = String.raw`(?<![A-Za-z0-9_.-])[A-Za-z0-9_.-]{0,40}?(?:passw(?:or)?d|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|auth[_-]?key|credentials?)[A-Za-z0-9_-]{0,40}`;

const RULES: Rule[] = [
  // PEM private keys (RSA, EC, DSA, OpenSSH, PKCS#8, encrypted, PGP), also when the END line was cut off by a budget
  // or the block sits in a string literal with \n escapes.
  { kind: 'private-key', re: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END \1PRIVATE KEY\2-----|$)/g },
  // AWS access key ids (long-term and temporary)
  { kind: 'aws-access-key-id', re: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g },
  // AWS secret access keys: 40 base64 characters assigned to an aws…secret… name
  {
    kind: 'aws-secret-access-key',
    re: /(aws_?secret_?(?:access_?)?key["']?\s*(?:[:=]|:=|=>)\s*["']?)([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/gi,
    replace: (_m, lead) => `${lead}${placeholder('aws-secret-access-key')}`,
  },
  // GitHub tokens: classic personal, OAuth, user-to-server, server-to-server, refresh; fine-grained personal
  { kind: 'github-token', re: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}\b/g },
  { kind: 'github-token', re: /\bgithub_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}\b/g },
  // GitLab personal / project / group access tokens and other glxx- tokens
  { kind: 'gitlab-token', re: /\bgl(?:pat|dt|ptt|rt|cbt|oas|ft|imt|agent)-[A-Za-z0-9_-]{20,}\b/g },
  // Slack bot/user/app tokens and incoming webhooks
  { kind: 'slack-token', re: /\bxox[abposer]-[A-Za-z0-9-]{10,}\b/g },
  { kind: 'slack-webhook', re: /https:\/\/hooks\.slack\.com\/services\/T[A-Za-z0-9_]+\/B[A-Za-z0-9_]+\/[A-Za-z0-9_]+/g },
  // Google API keys
  { kind: 'google-api-key', re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  // Stripe secret and restricted keys (live and test)
  { kind: 'stripe-key', re: /\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{10,}\b/g },
  // OpenAI (sk-…, sk-proj-…, sk-svcacct-…) and Anthropic (sk-ant-…) keys; must mix letters and digits
  { kind: 'openai-key', re: /\bsk-(?:proj-|svcacct-|admin-|ant-(?:api|admin)\d\d-)?(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{20,}\b/g },
  // npm and Hugging Face access tokens
  { kind: 'npm-token', re: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: 'huggingface-token', re: /\bhf_[A-Za-z0-9]{34}\b/g },
  // JSON Web Tokens (header.payload.signature, header and payload base64url JSON)
  { kind: 'jwt', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  // Credentials in URLs: scheme://user:password@host
  {
    kind: 'url-password',
    re: /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]{0,20}:\/\/[^\s:/@'"`]{1,100}:)([^\s@/'"`]{3,200})@/gi,
    replace: (_m, lead, pass) => (/^(?:<.*|\$.*|\{.*|\*+|x+|password|passwd|pass|pwd|secret)$/i.test(pass) ? undefined : `${lead}${placeholder('url-password')}@`),
  },
  // password/secret/token/api_key = "value" (quoted), in code, JSON, YAML and .env files
  {
    kind: 'secret-assignment',
    re: new RegExp(String.raw`(${SECRET_NAME}["']?\s*(?::=|=>|[:=])\s*)(["'\x60])([^"'\x60\n]{8,512})\2`, 'gi'),
    replace: (_m, lead, quote, value) => (looksLikeSecretValue(value) && !value.includes('<redacted:') ? `${lead}${quote}${placeholder('secret')}${quote}` : undefined),
  },
  // …and unquoted (`.env`, shell, YAML): a single token of secret-like characters up to the end of the value
  {
    kind: 'secret-assignment',
    re: new RegExp(String.raw`(${SECRET_NAME}\s*(?:=|:\s)\s*)([A-Za-z0-9_\-+/=.~!@#$%^&*]{8,512})(?=\s|$|[,;])`, 'gim'),
    replace: (_m, lead, value) => {
      // Code, not a literal: a dotted reference, a call, a plain identifier (no digit), a type name.
      if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value)) return undefined;
      if (!/\d/.test(value) || !/[A-Za-z]/.test(value)) return undefined;
      return looksLikeSecretValue(value) && !value.includes('<redacted:') ? `${lead}${placeholder('secret')}` : undefined;
    },
  },
];

/** Replaces every high-confidence secret in `text` with a `<redacted:kind>` placeholder. */
export function redactSecrets(text: string): Redaction {
  const kinds: string[] = [];
  let out = text;
  for (const rule of RULES) {
    rule.re.lastIndex = 0;
    out = out.replace(rule.re, (match: string, ...rest: unknown[]) => {
      const groups = rest.slice(0, -2).map((g) => (typeof g === 'string' ? g : '')); // drop offset and whole string
      const replaced = rule.replace ? rule.replace(match, ...groups) : placeholder(rule.kind);
      if (replaced === undefined) return match;
      kinds.push(rule.kind);
      return replaced;
    });
  }
  return { text: out, kinds };
}

/** A copy of a JSON-like value with every string redacted; `kinds` collects what was replaced. */
export function redactDeep<T>(value: T, kinds: string[] = []): T {
  if (typeof value === 'string') {
    const r = redactSecrets(value);
    kinds.push(...r.kinds);
    return r.text as T;
  }
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, kinds)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = redactDeep(v, kinds);
    return out as T;
  }
  return value;
}

/** Whether a host name or address is on loopback: 127.0.0.0/8, ::1 (also IPv4-mapped), `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (h === 'localhost') return true;
  if (h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  const mapped = /^::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}$/.exec(h); // IPv4-mapped, as URL writes it: ::ffff:7f00:1
  if (mapped) return parseInt(mapped[1], 16) >> 8 === 127;
  const v4 = h.startsWith('::ffff:') ? h.slice(7) : h;
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(v4);
  return !!m && m.slice(1).every((o) => Number(o) <= 255) && Number(m[1]) === 127;
}

/** Whether a request to `url` stays on this machine's loopback interface (an unparsable URL does not). */
export function isLoopbackUrl(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}
