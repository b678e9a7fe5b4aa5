// The engine as the extension sees it: the one module under engine/ that extension/src imports
// (test/unit/imports.test.ts holds that). The engine runs in its own process; the extension starts
// and talks to it through EngineClient, and shares these types and the secret-path rule with it.
export { EngineClient, type CallTiming } from './rpc/client';
export { isAbortError } from './rpc/protocol';
export { isSecretPath } from './scan/secrets';
export { PARSED_LANGUAGES } from './chunk/languages';
export { codeLines } from './util/codeLines';
export type { IndexProgress, IndexStats, SymbolStages, TeamIndexOptions, TeamState } from './api';
export type { ChunkRelation, EditorState, RetrievedChunk } from './types';
export type { DefinitionAt, SymbolDefinition, SymbolInfo } from './lookup/symbols';
export type { AgentToolAnswer } from './agentTools';
export type { Vetted } from './complete/scopeCheck';
export { isLoopbackHost, isLoopbackUrl, placeholder, redactDeep, redactSecrets } from './redact';
