// What the agent tools read: an open Engine (the CLI's MCP server, the editor's engine process).
import type { Engine } from '../engine';
import { isSecretPath } from '../scan/secrets';
import type { PathPolicy } from './paths';

/** The parts of Engine the tools use (an open index over one workspace folder). */
export type AgentIndex = Pick<Engine, 'opts' | 'retrieve' | 'symbolAt' | 'symbolRelated' | 'hasIndexedFile' | 'indexedLines' | 'definitionChunks'>;

export function pathPolicy(index: AgentIndex): PathPolicy {
  return { root: index.opts.root, secretPatterns: index.opts.secretPatterns, isIndexed: (rel) => index.hasIndexedFile(rel) };
}

/** Whether a result in `file` may be shown: indexed results are never ignored files; the deny-list is checked again. */
export function showable(index: AgentIndex, file: string): boolean {
  return !isSecretPath(file, index.opts.secretPatterns);
}

/** 1-based inclusive line range of a 0-based inclusive one. */
export function oneBased(r: { startLine: number; endLine: number }): { startLine: number; endLine: number } {
  return { startLine: r.startLine + 1, endLine: r.endLine + 1 };
}
