// A 1-based position in a workspace file, as agents and editors count lines and columns.
import { oneBased, pathPolicy, type AgentIndex } from './agentIndex';
import { boundedExcerpt, optionalInt, requiredString, ToolInputError } from './limits';
import { workspaceFile } from './paths';

export interface FilePosition {
  /** Workspace-relative path (forward slashes), confined and indexed (paths.ts). */
  path: string;
  /** 0-based line and character, as the engine counts them. */
  line: number;
  character: number;
}

/** Longest line number or column accepted (a larger one is past the end of any indexed file). */
const MAX_LINE = 10_000_000;

/** `path`, `line` (1-based) and `column` (1-based, default `defaultColumn`) checked against the file. */
export function filePosition(index: AgentIndex, input: Record<string, unknown>, defaultColumn: 'start' | 'end' = 'start'): FilePosition {
  const rel = workspaceFile(pathPolicy(index), requiredString(input, 'path'));
  const line = optionalInt(input, 'line', 1, MAX_LINE);
  if (line === undefined) throw new ToolInputError("'line' (1-based) is required with 'path'");
  const lines = index.indexedLines(rel);
  if (line > lines.length) throw new ToolInputError(`'line' ${line} is past the end of ${rel} (${lines.length} lines)`);
  const text = lines[line - 1];
  const column = optionalInt(input, 'column', 1, MAX_LINE);
  if (column !== undefined && column > text.length + 1) throw new ToolInputError(`'column' ${column} is past the end of line ${line} (${text.length} characters)`);
  return { path: rel, line: line - 1, character: column !== undefined ? column - 1 : defaultColumn === 'end' ? text.length : 0 };
}

/** A definition's lines from the index, bounded, 1-based. */
export function definitionExcerpt(index: AgentIndex, d: { file: string; startLine: number; endLine: number }): { path: string; startLine: number; endLine: number; excerpt: string } {
  const lines = index.indexedLines(d.file);
  return { path: d.file, ...oneBased(d), excerpt: boundedExcerpt(lines.slice(d.startLine, d.endLine + 1).join('\n')) };
}
