// Secret redaction: gitleaks' rule set and a few rules of our own (redactor.ts), shared by the
// index (documents.ts) and the extension's requests to model servers.
export { findSecrets, placeholder, redactDeep, redactionContext, redactSecrets, WINDOW, type Finding, type Redaction } from './redactor';
export type { SecretContext } from './derived';
export { isLoopbackHost, isLoopbackUrl } from './loopback';
export { compileAll, GITLEAKS_RULES, ruleFamily, skippedRules, UPSTREAM } from './rules';
