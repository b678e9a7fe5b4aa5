// The secret deny-list: files that must never be read, indexed or sent to a model backend.
// Deliberately broad (e.g. `.env.example`, `secrets.py`): losing one harmless file from the index
// costs little, leaking a credential costs a lot.
import { createMatcher, type RuleList } from './ignoreRules';

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

let builtinMatcher: RuleList | undefined;
const extraMatchers = new Map<string, RuleList>();

/**
 * True when a workspace-relative path (forward slashes) is on the secret deny-list: the built-in
 * patterns or `extraPatterns` (gitignore syntax). Callers must check this before reading a file.
 */
export function isSecretPath(relPath: string, extraPatterns?: readonly string[]): boolean {
  const path = relPath.replace(/\\/g, '/').replace(/^\.?\/+/, '');
  if (!path) return false;
  builtinMatcher ??= createMatcher(BUILTIN_SECRET_PATTERNS, 'built-in secret patterns');
  if (builtinMatcher.ignores(path)) return true;
  if (!extraPatterns?.length) return false;
  const key = extraPatterns.join('\n');
  let extra = extraMatchers.get(key);
  if (!extra) {
    extra = createMatcher(extraPatterns, 'secretPatterns');
    if (extraMatchers.size > 16) extraMatchers.clear(); // options rarely change; bound it if they do
    extraMatchers.set(key, extra);
  }
  return extra.ignores(path);
}
