// find_related: the code related to a name or a position, by the engine logic behind the editor's
// Find Related Code (Engine.symbolRelated: the name at the position and what retrieval finds for
// it; the code before the position when there is no name there), the chunk under the position
// itself left out.
import type { RetrievedChunk } from '../types';
import { oneBased, showable, type AgentIndex } from './agentIndex';
import { boundedExcerpt, checkAborted, fitAnswer, nameOrPlace } from './limits';
import { filePosition, type FilePosition } from './position';

export interface RelatedHit {
  path: string;
  startLine: number;
  endLine: number;
  symbol?: string;
  kind: string;
  excerpt: string;
  /** `defines it`: a definition of the symbol; `mentions it`: its code names the symbol; `similar code`: found by the retrieval signals only. */
  relation: 'defines it' | 'mentions it' | 'similar code';
  signals: Record<string, number>;
}

export interface FindRelatedResult {
  /** The name searched for, or null when the position holds none (the code before it was searched). */
  symbol: string | null;
  /** How the symbol was resolved at the position (see find_definition), when one was found there. */
  resolution?: string;
  results: RelatedHit[];
  truncated: boolean;
}

export const FIND_RELATED_ARGS = ['symbol', 'path', 'line', 'column', 'limit'] as const;

export async function findRelated(index: AgentIndex, raw: unknown, signal?: AbortSignal): Promise<FindRelatedResult> {
  const { input, name, limit } = nameOrPlace(raw, FIND_RELATED_ARGS, 'symbol', "'line' (and 'column')");
  checkAborted(signal);
  if (name !== undefined) {
    const chunks = await index.retrieve(name, { k: limit * 3, compact: false, signal });
    return answer(index, name, undefined, chunks, undefined, limit);
  }
  const at = filePosition(index, input);
  const found = await index.symbolRelated(at.path, at.line, at.character, { options: { k: limit * 3, compact: false } }, undefined, signal);
  if (found) return answer(index, found.symbol.name, found.symbol.resolution, found.chunks, at, limit);
  const lines = index.indexedLines(at.path);
  const prefix = [...lines.slice(0, at.line), lines[at.line].slice(0, at.character)].join('\n');
  const chunks = await index.retrieve({ file: at.path, prefix, line: at.line }, { k: limit * 3, compact: false, signal });
  return answer(index, null, undefined, chunks, at, limit);
}

function answer(index: AgentIndex, symbol: string | null, resolution: string | undefined, chunks: RetrievedChunk[], at: FilePosition | undefined, limit: number): FindRelatedResult {
  const word = symbol === null ? undefined : new RegExp(`\\b${escapeRegExp(symbol.split('.').pop()!)}\\b`);
  const results = chunks
    .filter((c) => showable(index, c.file) && !(at && c.file === at.path && c.startLine <= at.line && at.line <= c.endLine))
    .slice(0, limit)
    .map((c): RelatedHit => ({
      path: c.file, ...oneBased(c), ...(c.name ? { symbol: c.name } : {}), kind: c.kind, excerpt: boundedExcerpt(c.text),
      relation: symbol !== null && c.name !== undefined && c.name.split('.').pop() === symbol.split('.').pop() ? 'defines it' : word?.test(c.text) ? 'mentions it' : 'similar code',
      signals: c.signals,
    }));
  const fitted = fitAnswer(results);
  return { symbol, ...(resolution ? { resolution } : {}), results: fitted.items, truncated: fitted.truncated };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
