// llama.cpp server's native fill-in-the-middle endpoint (`POST {baseUrl}/infill`), which lays out
// the model's own FIM tokens itself, repo-level (FIM_REP/FIM_SEP) when the model has them. The body
// follows the server's README and its own editor clients (llama.vim, llama.vscode):
// - `input_extra`: the retrieved snippets as `{filename, text}`, placed before the FIM prefix;
// - `input_prefix`: the file's text up to the start of the cursor's line;
// - `prompt`: the cursor's line up to the cursor (added after FIM_MID, so the model continues it);
// - `input_suffix`: the text after the cursor;
// - `n_predict`, `stop`, `n_indent` (the cursor line's indentation: the server ends the completion
//   at a line indented less, the end of the block), `cache_prompt: true` (reuse the KV cache of the
//   previous keystroke's request), `stream: false`.
// The answer is the `/completion` object; its `content` is the text to insert.
import type { LookupFunction } from 'node:net';
import { postJson } from './http';
import { BackendError, indentWidth, type BackendRequest, type CompletionBackend } from './types';

export interface LlamaCppBackendOptions {
  /** e.g. `http://127.0.0.1:8080` (no `/v1`). */
  baseUrl: string;
  temperature?: number;
  /** Sent as a bearer token when the server was started with --api-key. */
  apiKey?: string;
  /** Host name resolution (default: the system's); see http.ts. */
  lookup?: LookupFunction;
  /** Redact requests to a loopback server too (default true; see redact.ts). */
  redactLoopback?: boolean;
}

/** The /infill request body for a backend request. */
export function infillBody(req: BackendRequest, temperature: number): Record<string, unknown> {
  const prefix = req.parts?.prefix ?? req.prompt;
  const lineStart = prefix.lastIndexOf('\n') + 1;
  const line = prefix.slice(lineStart);
  const indent = indentWidth(line);
  return {
    input_extra: (req.parts?.context ?? []).map((c) => ({ filename: c.filename, text: c.text })),
    input_prefix: prefix.slice(0, lineStart),
    prompt: line,
    input_suffix: req.parts?.suffix ?? req.suffix,
    n_predict: req.maxTokens,
    ...(indent > 0 && req.parts ? { n_indent: indent } : {}),
    temperature,
    ...(req.stop?.length ? { stop: req.stop } : {}),
    cache_prompt: true,
    stream: false,
  };
}

export class LlamaCppInfillBackend implements CompletionBackend {
  readonly name = 'llamacpp';
  constructor(private readonly opts: LlamaCppBackendOptions) {}
  get endpoint(): string {
    return this.opts.baseUrl;
  }

  async complete(req: BackendRequest): Promise<string> {
    const url = `${this.opts.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/infill`;
    const body = infillBody(req, req.temperature ?? this.opts.temperature ?? 0.2);
    const headers: Record<string, string> = this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {};
    const json = (await postJson(url, body, { signal: req.signal, timeoutMs: req.timeoutMs, headers, lookup: this.opts.lookup, redactLoopback: this.opts.redactLoopback })) as { content?: unknown; error?: unknown };
    if (typeof json.content !== 'string') throw new BackendError(`${url}: response has no "content" text`);
    return json.content;
  }
}
