// OpenAI-compatible legacy completions endpoint (`POST {baseUrl}/completions`), as served by
// vLLM, LM Studio, llama.cpp's server, text-generation-webui, Ollama's /v1 and OpenAI itself.
// Two layouts:
// - `fim: 'none'`: prompt + `suffix`, for servers that apply the model's FIM template to `suffix`.
// - a model family (or `auto`, the family recognised from the model name): a raw FIM prompt with the
//   family's special tokens (fim.ts) and no `suffix` field, for servers that do not template FIM
//   (vLLM rejects `suffix`; LM Studio and llama.cpp's /v1/completions ignore it). The family's
//   end-of-text and format tokens are added to the stop sequences and cut from the answer.
import type { LookupFunction } from 'node:net';
import { cutAtStopTokens, familyOfModel, FIM_TEMPLATES, type FimFamily, type FimTemplate } from './fim';
import { postJson } from './http';
import { BackendError, type BackendRequest, type CompletionBackend } from './types';

export type FimSetting = 'none' | 'auto' | FimFamily;

export interface OpenAiBackendOptions {
  /** Base URL including the version segment, e.g. `http://127.0.0.1:8000/v1`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  temperature?: number;
  /** Raw FIM template (default `none`: prompt + suffix). */
  fim?: FimSetting;
  /** Host name resolution (default: the system's); see http.ts. */
  lookup?: LookupFunction;
  /** Redact requests to a loopback server too (default true; see redact.ts). */
  redactLoopback?: boolean;
}

export class OpenAiCompletionsBackend implements CompletionBackend {
  readonly name = 'openai';
  /** The raw FIM template in use, if any. */
  readonly template: FimTemplate | undefined;
  constructor(private readonly opts: OpenAiBackendOptions) {
    const fim = opts.fim ?? 'none';
    const family = fim === 'auto' ? familyOfModel(opts.model) : fim === 'none' ? undefined : fim;
    this.template = family ? FIM_TEMPLATES[family] : undefined;
  }

  get endpoint(): string {
    return this.opts.baseUrl;
  }

  async complete(req: BackendRequest): Promise<string> {
    const url = `${this.opts.baseUrl.replace(/\/+$/, '')}/completions`;
    const template = this.template;
    const body: Record<string, unknown> = {};
    if (this.opts.model) body.model = this.opts.model;
    if (template) {
      // A plain continuation (no parts: the HyDE guess) goes as it is; there is no suffix to place.
      body.prompt = req.parts ? template.build(req.parts) : req.prompt;
    } else {
      body.prompt = req.prompt;
      body.suffix = req.suffix;
    }
    body.max_tokens = req.maxTokens;
    body.temperature = req.temperature ?? this.opts.temperature ?? 0.2;
    body.stream = false;
    if (template) {
      // Self-hosted servers take any number of stop sequences; the format tokens come first.
      body.stop = [...template.stop, ...(req.stop ?? [])];
    } else if (req.stop?.length) {
      body.stop = req.stop.slice(0, 4); // OpenAI's API accepts at most 4
    }
    const headers: Record<string, string> = this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {};
    const json = (await postJson(url, body, { signal: req.signal, timeoutMs: req.timeoutMs, headers, lookup: this.opts.lookup, redactLoopback: this.opts.redactLoopback })) as { choices?: Array<{ text?: unknown }> };
    if (json.choices !== undefined && json.choices.length === 0) return '';
    const text = json.choices?.[0]?.text;
    if (typeof text !== 'string') throw new BackendError(`${url}: response has no choices[0].text`);
    return template ? cutAtStopTokens(text, template.stop) : text;
  }
}
