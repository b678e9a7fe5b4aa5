// The secret deny-list: files that must never be read, indexed or sent to a model backend.
// Deliberately broad (e.g. `.env.example`, `secrets.py`): losing one harmless file from the index
// costs little, leaking a credential costs a lot.
import type { Ignore } from 'ignore';
import { createMatcher } from './ignore-rules';

/** Built-in secret patterns (gitignore syntax, matched against workspace-relative paths). */
export const BUILTIN_SECRET_PATTERNS: readonly string[] = [
  // environment files
  '.env', '.env.*', '*.env',
  // private keys and certificates stores
  '*.pem', '*.key', '*.p12', '*.pfx', '*.jks', '*.keystore', '*.ppk', '*.asc', '*.gpg',
  'id_rsa*', 'id_dsa*', 'id_ecdsa*', 'id_ed25519*',
  // credential files of common tools
  'credentials.json', 'credentials', 'client_secret*.json', 'service-account*.json',
  '.npmrc', '.yarnrc.yml', '.pypirc', '.netrc', '_netrc', '.git-credentials', '.htpasswd',
  '.aws/', '.ssh/', '.gnupg/', '.docker/config.json', '.kube/config',
  '*.tfvars', '*.tfstate', '*.tfstate.*', '*.kdbx',
  // anything calling itself a secret
  'secrets.*', '*.secret', '*.secrets',
];

// `ignore` caches the verdict for every path it has seen, for the life of the matcher; rebuild the
// matchers now and then so a long-lived process scanning big trees does not grow without bound.
const REBUILD_AFTER_CALLS = 50_000;
let calls = 0;
let builtinMatcher = createMatcher(BUILTIN_SECRET_PATTERNS);
const extraMatchers = new Map<string, Ignore>();

/**
 * True when a workspace-relative path (forward slashes) is on the secret deny-list: the built-in
 * patterns or `extraPatterns` (gitignore syntax). Callers must check this before reading a file.
 */
export function isSecretPath(relPath: string, extraPatterns?: readonly string[]): boolean {
  const path = relPath.replace(/\\/g, '/').replace(/^\.?\/+/, '');
  if (!path) return false;
  if (++calls > REBUILD_AFTER_CALLS) {
    calls = 0;
    builtinMatcher = createMatcher(BUILTIN_SECRET_PATTERNS);
    extraMatchers.clear();
  }
  if (safeIgnores(builtinMatcher, path)) return true;
  if (!extraPatterns?.length) return false;
  const key = extraPatterns.join('\n');
  let extra = extraMatchers.get(key);
  if (!extra) {
    extra = createMatcher(extraPatterns);
    if (extraMatchers.size > 16) extraMatchers.clear(); // options rarely change; bound it if they do
    extraMatchers.set(key, extra);
  }
  return safeIgnores(extra, path);
}

function safeIgnores(matcher: Ignore, path: string): boolean {
  try {
    return matcher.ignores(path);
  } catch {
    return false;
  }
}
