// OpenAI-compatible legacy completions endpoint (`POST {baseUrl}/completions` with prompt + suffix),
// as served by llama.cpp's server, vLLM, LM Studio, text-generation-webui and OpenAI itself.
import { BackendError, postJson, type BackendRequest, type CompletionBackend } from './types';

export interface OpenAiBackendOptions {
  /** Base URL including the version segment, e.g. `http://127.0.0.1:8000/v1`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  temperature?: number;
}

export class OpenAiCompletionsBackend implements CompletionBackend {
  readonly name = 'openai';
  constructor(private readonly opts: OpenAiBackendOptions) {}

  async complete(req: BackendRequest): Promise<string> {
    const url = `${this.opts.baseUrl.replace(/\/+$/, '')}/completions`;
    const body: Record<string, unknown> = {
      prompt: req.prompt,
      suffix: req.suffix,
      max_tokens: req.maxTokens,
      temperature: req.temperature ?? this.opts.temperature ?? 0.2,
      stream: false,
    };
    if (this.opts.model) body.model = this.opts.model;
    if (req.stop?.length) body.stop = req.stop.slice(0, 4); // the API accepts at most 4
    const headers: Record<string, string> = this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {};
    const json = (await postJson(url, body, req, headers)) as { choices?: Array<{ text?: unknown }> };
    const text = json.choices?.[0]?.text;
    if (json.choices !== undefined && json.choices.length === 0) return '';
    if (typeof text !== 'string') throw new BackendError(`${url}: response has no choices[0].text`);
    return text;
  }
}
