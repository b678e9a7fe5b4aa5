// The agent tools over an open index, for the MCP server (mcp/) and the editor's language-model
// tools (through the engine process: rpc/worker.ts). No MCP and no vscode here: plain functions.
// Every answer is redacted (an agent is a remote model) and bounded (limits.ts).
import { redactDeep } from '../redact';
import type { AgentIndex } from './agentIndex';
import { completionContext } from './completionContext';
import { findDefinition } from './findDefinition';
import { findRelated } from './findRelated';
import { argsObject, MAX_RESULTS, optionalInt, optionalString, requiredString, ToolInputError } from './limits';
import { renderAnswer } from './render';
import { searchCode } from './searchCode';
import { AGENT_TOOLS, type AgentToolName } from './tools';

export { AGENT_TOOLS, type AgentToolName, type AgentToolSpec } from './tools';
export { ToolInputError } from './limits';
export type { AgentIndex } from './agentIndex';

/** A tool's answer: the data, and the same as text for a model to read. */
export interface AgentToolAnswer {
  data: object;
  text: string;
  /** Kinds of secrets redacted from it (for the log; the values never leave). */
  redacted: string[];
}

const RUN: Record<AgentToolName, (index: AgentIndex, input: unknown, signal?: AbortSignal) => Promise<object>> = {
  search_code: (index, raw, signal) => {
    const input = argsObject(raw, ['query', 'path', 'language', 'limit']);
    return searchCode(index, { query: requiredString(input, 'query'), path: optionalString(input, 'path', 500), language: optionalString(input, 'language', 40), limit: optionalInt(input, 'limit', 1, MAX_RESULTS) }, signal);
  },
  find_definition: findDefinition,
  find_related: findRelated,
  completion_context: completionContext,
};

export function isAgentToolName(name: string): name is AgentToolName {
  return AGENT_TOOLS.some((t) => t.name === name);
}

/** Runs tool `name`; ToolInputError for a bad argument or an unknown tool, the signal's AbortError when cancelled. */
export async function runAgentTool(index: AgentIndex, name: string, input: unknown, signal?: AbortSignal): Promise<AgentToolAnswer> {
  if (!isAgentToolName(name)) throw new ToolInputError(`unknown tool '${name}' (tools: ${AGENT_TOOLS.map((t) => t.name).join(', ')})`);
  const raw = await RUN[name](index, input ?? {}, signal);
  signal?.throwIfAborted();
  const redacted: string[] = [];
  const data = redactDeep(raw, redacted);
  return { data, text: renderAnswer(name, data), redacted };
}
