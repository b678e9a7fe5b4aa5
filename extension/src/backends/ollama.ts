// Ollama's native generate endpoint (`POST {baseUrl}/api/generate`). With `suffix` set, Ollama
// applies the model's own fill-in-the-middle template (raw must stay false for that).
import type { LookupFunction } from 'node:net';
import { postJson } from './http';
import { BackendError, type BackendRequest, type CompletionBackend } from './types';

export interface OllamaBackendOptions {
  /** e.g. `http://127.0.0.1:11434` */
  baseUrl: string;
  model: string;
  temperature?: number;
  /** Host name resolution (default: the system's); see http.ts. */
  lookup?: LookupFunction;
  /** Redact requests to a loopback server too (default true; see redact.ts). */
  redactLoopback?: boolean;
}

export class OllamaGenerateBackend implements CompletionBackend {
  readonly name = 'ollama';
  constructor(private readonly opts: OllamaBackendOptions) {}
  get endpoint(): string {
    return this.opts.baseUrl;
  }

  async complete(req: BackendRequest): Promise<string> {
    if (!this.opts.model) throw new BackendError('reporecall.ollama.model is empty');
    const url = `${this.opts.baseUrl.replace(/\/+$/, '')}/api/generate`;
    const body = {
      model: this.opts.model,
      prompt: req.prompt,
      suffix: req.suffix,
      stream: false,
      options: { num_predict: req.maxTokens, temperature: req.temperature ?? this.opts.temperature ?? 0.2, ...(req.stop?.length ? { stop: req.stop } : {}) },
    };
    const json = (await postJson(url, body, { signal: req.signal, timeoutMs: req.timeoutMs, lookup: this.opts.lookup, redactLoopback: this.opts.redactLoopback })) as { response?: unknown; error?: unknown };
    if (typeof json.error === 'string') throw new BackendError(`${url}: ${json.error}`);
    if (typeof json.response !== 'string') throw new BackendError(`${url}: response has no "response" text`);
    return json.response;
  }
}
