// Rules of our own, for what gitleaks' default config leaves out but a prompt or an index must not
// carry: authorization header values, passwords in URLs, Azure storage keys in connection strings,
// Docker Hub tokens, a private-key block whose END was cut off, and high-entropy values assigned to
// password/secret/token/key names in forms gitleaks' generic rule does not match.
import { entropy } from './entropy';
import type { Rule } from './rules';

/** Whether a value looks like a real secret rather than code, a placeholder or a word. */
export function looksLikeSecretValue(value: string): boolean {
  if (value.length < 8 || value.length > 512 || /\s/.test(value)) return false;
  if (/^(?:\$\{.*\}|\{\{.*\}\}|<.*>|%.*%|\$[A-Z_][A-Z0-9_]*)$/.test(value)) return false; // templates, placeholders
  if (/\[[^\]]*[A-Za-z0-9]-[A-Za-z0-9][^\]]*\]/.test(value)) return false; // a regex character class, [A-Za-z0-9._-]
  if (/^(?:x+|\*+|\.+|changeme|change_me|password|secret|example|placeholder|your[-_a-z]*|todo|none|null|undefined|true|false)$/i.test(value)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((re) => re.test(value)).length;
  if (classes < 2) return false;
  return entropy(value) >= 3.0;
}

const hasDigit = (s: string): boolean => /\d/.test(s);
const PLACEHOLDER = /^(?:<.*|\$.*|\{.*|%.*%|\*+|x+|\.+|password|passwd|pass|pwd|secret|changeme|user|username)$/i;

/** `Basic` credentials are base64 of `user:password` (a password of 6 characters at least). */
function isBasicCredential(b64: string): boolean {
  const m = /^[\x20-\x7e]+:([\x20-\x7e]{6,})$/.exec(Buffer.from(b64, 'base64').toString('latin1'));
  return !!m && !PLACEHOLDER.test(m[1]);
}

/**
 * A value assigned to a secret's name that gitleaks' generic rule would not take (it has a character
 * outside [\w.=-]): a digit and a letter in it, not words joined by - or _, not a template.
 */
function assignedSecret(v: string): boolean {
  if (!hasDigit(v) || !/[A-Za-z]/.test(v) || /\$\{|\{\{|<redacted:/.test(v)) return false;
  if (/^[a-z0-9]+(?:[-_][a-z0-9]+)*$/.test(v)) return false; // model_name_v1, float32-slice
  return looksLikeSecretValue(v);
}

// Names whose value is a credential: DB_PASSWORD, clientSecret, "api_key", authToken, … Both ends are bounded (linear time).
const SECRET_NAME = String.raw`(?<![A-Za-z0-9_.-])[A-Za-z0-9_.-]{0,40}?(?:passw(?:or)?d|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|auth[_-]?key|credentials?)[A-Za-z0-9_-]{0,40}`;
const NAME_KEYWORDS = ['pass', 'pwd', 'secret', 'token', 'key', 'credential'];

const rule = (r: Omit<Rule, 'allowlists'> & { allowlists?: Rule['allowlists'] }): Rule => ({ allowlists: [], ...r });

export const EXTRA_RULES: Rule[] = [
  // Authorization header values, in code strings and HTTP examples: `Authorization: Bearer …`, `'Basic ' + …`.
  rule({ id: 'authorization-bearer', re: /\b(?:[Bb]earer|BEARER)[ \t]+([A-Za-z0-9._~+/-]{16,}=*)/gd, keywords: ['bearer'], entropy: 3, accept: hasDigit }),
  rule({ id: 'authorization-basic', re: /\b(?:[Bb]asic|BASIC)[ \t]+([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/gd, keywords: ['basic'], accept: isBasicCredential }),
  rule({
    id: 'authorization-header',
    re: /\b(?:[Pp]roxy-)?[Aa]uthorization["']?[ \t]*[:=][ \t]*["']?(?![Bb]earer\b|[Bb]asic\b)(?:(?:[Tt]oken|[Dd]igest|[Aa]pi-?[Kk]ey)[ \t]+)?([A-Za-z0-9._~+/-]{16,}=*)/gd,
    keywords: ['authorization'], entropy: 3, accept: hasDigit,
  }),
  // Passwords in URLs: scheme://user:password@host
  rule({
    id: 'url-password',
    re: /(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{0,20}:\/\/[^\s:/@'"`]{1,100}:([^\s@/'"`]{3,200})@/gid,
    keywords: ['://'], accept: (pass) => !PLACEHOLDER.test(pass),
  }),
  // Azure storage / Service Bus keys and SAS signatures in connection strings and URLs
  rule({ id: 'azure-connection-string-key', re: /\b(?:AccountKey|SharedAccessKey|SharedSecretValue)[ \t]*=[ \t]*([A-Za-z0-9+/]{20,}={0,2})/gid, keywords: ['accountkey', 'sharedaccesskey', 'sharedsecretvalue'], entropy: 3 }),
  rule({ id: 'azure-sas-signature', re: /[?&;]sig=([A-Za-z0-9%+/]{20,}(?:%3[Dd]|=){0,2})/gd, keywords: ['sig='], entropy: 3 }),
  // Docker Hub personal and organization access tokens
  rule({ id: 'dockerhub-token', re: /\b(dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,})/gd, keywords: ['dckr_'] }),
  // A private key whose END line is missing (cut off by a budget) or that sits in a string with \n escapes
  rule({ id: 'private-key-block', re: /-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----(?:(?!-----END)[\s\S]){0,16384}(?:-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----)?/gd, keywords: ['-----begin'], wholeText: true,
    accept: (block) => /[A-Za-z0-9+/=]{24,}/.test(block) }), // key material, not a template such as `${base64(key)}`
  // password/secret/token/api_key = "value" (quoted) in code, JSON, YAML and .env files
  rule({
    id: 'secret-assignment',
    re: new RegExp(String.raw`${SECRET_NAME}["']?\s*(?::=|=>|[:=])\s*["'\x60]([^"'\x60\n]{8,512})["'\x60]`, 'gid'),
    keywords: NAME_KEYWORDS, accept: assignedSecret,
  }),
  // …and unquoted (.env, shell, YAML): one token of secret-like characters up to the end of the value
  rule({
    id: 'secret-assignment',
    re: new RegExp(String.raw`${SECRET_NAME}\s*(?:=|:\s)\s*([A-Za-z0-9_\-+/=.~!@#$%^&*]{8,512})(?=\s|$|[,;])`, 'gimd'),
    keywords: NAME_KEYWORDS,
    // Code, not a literal: a dotted reference or call (a.b.c), a value without digits or letters.
    accept: (v) => !/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(v) && assignedSecret(v),
  }),
];
