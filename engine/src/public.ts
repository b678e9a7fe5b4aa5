// The engine as the extension sees it: the one module under engine/ that extension/src imports
// (test/unit/imports.test.ts holds that). The engine runs in its own process; the extension starts
// and talks to it through EngineClient, and shares these types and the secret-path rule with it.
export { EngineClient, type CallTiming } from './rpc/client';
export { isAbortError } from './rpc/protocol';
export { isSecretPath } from './scan/secrets';
export type { IndexProgress, IndexStats, TeamIndexOptions, TeamState } from './api';
export type { EditorState, RetrievedChunk } from './types';
export type { Vetted } from './complete/scopeCheck';
export type { SymbolDefinition, SymbolInfo } from './retrieve/symbols';
export { isLoopbackHost, isLoopbackUrl, placeholder, redactDeep, redactSecrets } from './redact';
