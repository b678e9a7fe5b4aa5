// `reporecall mcp [DIR]`: the agent tools (agentTools/) as an MCP server over stdio, with the
// official SDK. Read-only; a call that arrives while the index is built waits for it, reporting
// the build through progress notifications when the client sent a progress token; a call is
// cancelled by the client's notifications/cancelled (the SDK aborts the handler's signal). Bad
// arguments are JSON-RPC errors (invalid params); stdout is the protocol, so logs go to stderr.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AGENT_TOOLS, isAgentToolName, runAgentTool, ToolInputError } from '../agentTools';
import { isAbortError } from '../rpc/protocol';
import { IndexSession, type SessionOptions } from './indexSession';

const INSTRUCTIONS = 'RepoRecall indexes this repository offline (syntax-aware chunks, BM25 over identifiers, a code embedding model, a call graph). Use search_code to find code by description or by code, find_definition to resolve a name at a position, find_related for a symbol\'s definition, callers and similar code, and completion_context for the context a model needs to write code at a position. Paths are relative to the workspace root; lines and columns are 1-based. Results are bounded in size and secrets in them are redacted.';

/** Serves MCP on stdin/stdout until the client closes the connection or `signal` aborts. */
export async function serveMcp(opts: SessionOptions, version: string, signal: AbortSignal): Promise<void> {
  // The client leaving (or SIGTERM) stops a build still running: nobody waits for it.
  const stopped = new AbortController();
  signal.addEventListener('abort', () => stopped.abort(signal.reason), { once: true });
  const session = new IndexSession(opts, stopped.signal);
  const server = new Server({ name: 'reporecall', title: 'RepoRecall', version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: AGENT_TOOLS.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema, annotations: { title: t.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    if (!isAgentToolName(name)) throw new McpError(ErrorCode.InvalidParams, `unknown tool '${name}' (tools: ${AGENT_TOOLS.map((t) => t.name).join(', ')})`);
    const token = request.params._meta?.progressToken;
    const stop = token === undefined ? () => undefined : session.onProgress((p) => void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, ...p } }).catch(() => undefined));
    const t0 = performance.now();
    try {
      const engine = await untilAborted(session.ready, extra.signal);
      const answer = await runAgentTool(engine, name, args ?? {}, extra.signal);
      if (answer.redacted.length) opts.log(`${name}: redacted ${answer.redacted.length} secret(s) (${[...new Set(answer.redacted)].join(', ')})`);
      return { content: [{ type: 'text', text: answer.text }], structuredContent: answer.data as Record<string, unknown> };
    } catch (err) {
      if (extra.signal.aborted || isAbortError(err)) {
        opts.log(`${name}: cancelled after ${Math.round(performance.now() - t0)} ms${session.building ? ' (while the index was being built)' : ''}`);
        throw err;
      }
      if (err instanceof ToolInputError) throw new McpError(ErrorCode.InvalidParams, `${name}: ${err.message}`);
      opts.log(`${name} failed: ${(err as Error).stack ?? err}`);
      return { isError: true, content: [{ type: 'text', text: `${name} failed: ${(err as Error).message}` }] };
    } finally {
      stop();
    }
  });
  const closed = new Promise<void>((resolve) => { server.onclose = resolve; });
  stopped.signal.addEventListener('abort', () => void server.close(), { once: true });
  await server.connect(new StdioServerTransport());
  // The client closing stdin ends the session (the SDK's transport does not watch for it).
  process.stdin.once('end', () => void server.close());
  await closed;
  stopped.abort();
  await session.close();
}

/** `work`, or the signal's abort error first. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
