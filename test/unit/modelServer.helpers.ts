// A 127.0.0.1 HTTP server answering the real wire formats of the model servers RepoRecall talks to,
// shared by the backend, HyDE, privacy and detection tests:
// - OpenAI-compatible `POST /v1/completions` (vLLM, LM Studio, llama.cpp, OpenAI) and `GET /v1/models`;
// - Ollama `POST /api/generate` and `GET /api/tags`;
// - llama.cpp server `POST /infill` (the `/completion` answer object) and `GET /props`.
// What it answers, how late and with which status may depend on the request body (e.g. a guess and
// a completion are told apart by their temperature). It records every request with its Host header
// and counts requests whose client hung up before the answer.
import * as http from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';

export type RequestBody = Record<string, unknown>;

export interface Recorded {
  url: string;
  method: string;
  /** The Host header as the client sent it. */
  host: string;
  body: RequestBody;
  /** The raw body text as it arrived. */
  raw: string;
}

export type Flavor = 'openai' | 'vllm' | 'lmstudio' | 'llamacpp' | 'ollama';

export interface ModelServerOptions {
  /** HTTP status to answer with (default 200); others get an OpenAI-style error body. */
  status?: number;
  /** Milliseconds before answering (default 0); `'never'`: hold the request until the client goes. */
  delayMs?: number | 'never' | ((body: RequestBody) => number);
  /** Which server the GET discovery endpoints impersonate (default `openai`). */
  flavor?: Flavor;
  /** Model names listed by /v1/models, /api/tags and /props (default `['local-model']`). */
  models?: string[];
}

export interface ModelServer {
  base: string;
  port: number;
  requests: Recorded[];
  /** Requests whose client hung up before the answer (aborted on its side). */
  abandoned(): number;
  /** Resolves when the n-th request (1-based) has arrived in full. */
  received(n?: number): Promise<void>;
  /** Resolves when a client has hung up on an unanswered request. */
  whenAbandoned(): Promise<void>;
  close(): Promise<void>;
}

function listing(flavor: Flavor, models: string[]): unknown {
  const owner = flavor === 'vllm' ? 'vllm' : flavor === 'llamacpp' ? 'llamacpp' : flavor === 'lmstudio' ? 'organization_owner' : 'openai';
  return { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 1, owned_by: owner, ...(flavor === 'vllm' ? { root: id, max_model_len: 32768 } : {}) })) };
}

export async function modelServer(answer: string | ((body: RequestBody) => string), opts: ModelServerOptions = {}): Promise<ModelServer> {
  const requests: Recorded[] = [];
  const flavor = opts.flavor ?? 'openai';
  const models = opts.models ?? ['local-model'];
  let abandoned = 0;
  const arrivalWaiters: Array<{ n: number; resolve: () => void }> = [];
  const abandonWaiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      const body = (data ? JSON.parse(data) : {}) as RequestBody;
      requests.push({ url: req.url ?? '', method: req.method ?? '', host: req.headers.host ?? '', body, raw: data });
      for (const w of arrivalWaiters.filter((x) => requests.length >= x.n)) { arrivalWaiters.splice(arrivalWaiters.indexOf(w), 1); w.resolve(); }
      res.on('close', () => {
        if (res.writableEnded) return;
        abandoned++;
        abandonWaiters.splice(0).forEach((r) => r());
      });
      const json = (status: number, value: unknown): void => { res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value)); };
      const reply = (): void => {
        if (res.destroyed) return;
        const url = req.url ?? '';
        if (req.method === 'GET') {
          if (url === '/v1/models' && flavor !== 'ollama') return json(200, listing(flavor, models));
          if (url === '/v1/models' && flavor === 'ollama') return json(200, listing('openai', models));
          if (url === '/api/tags' && flavor === 'ollama') {
            return json(200, { models: models.map((name) => ({ name, model: name, modified_at: '2024-01-01T00:00:00Z', size: 986061892, digest: 'abc', details: { format: 'gguf', family: 'qwen2', parameter_size: '1.5B', quantization_level: 'Q4_K_M' } })) });
          }
          if (url === '/props' && flavor === 'llamacpp') {
            return json(200, { default_generation_settings: { n_ctx: 4096, params: { n_predict: -1 } }, total_slots: 1, model_path: `/models/${models[0]}`, chat_template: '', build_info: 'b1-test' });
          }
          res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
          return;
        }
        const text = typeof answer === 'string' ? answer : answer(body);
        if (opts.status && opts.status !== 200) {
          json(opts.status, { error: { message: 'model not loaded' } });
        } else if (url === '/v1/completions') {
          json(200, {
            id: 'cmpl-1', object: 'text_completion', created: 1, model: body.model ?? 'local',
            choices: [{ text, index: 0, logprobs: null, finish_reason: 'stop' }],
            usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 },
          });
        } else if (url === '/api/generate') {
          json(200, { model: body.model, created_at: '2024-01-01T00:00:00Z', response: text, done: true, done_reason: 'stop' });
        } else if (url === '/infill') {
          json(200, {
            index: 0, content: text, tokens: [], id_slot: 0, stop: true, model: models[0], tokens_predicted: 3, tokens_evaluated: 10,
            generation_settings: { n_predict: body.n_predict }, prompt: '', has_new_line: text.includes('\n'), truncated: false,
            stop_type: 'eos', stopping_word: '', tokens_cached: 0, timings: { prompt_n: 10, predicted_n: 3 },
          });
        } else {
          res.writeHead(404).end('not found');
        }
      };
      const ms = typeof opts.delayMs === 'function' ? opts.delayMs(body) : opts.delayMs ?? 0;
      if (ms === 'never') return; // answered only by the client going away
      if (ms > 0) setTimeout(reply, ms);
      else reply();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    requests,
    abandoned: () => abandoned,
    received: (n = 1) => (requests.length >= n ? Promise.resolve() : new Promise<void>((resolve) => arrivalWaiters.push({ n, resolve }))),
    whenAbandoned: () => (abandoned > 0 ? Promise.resolve() : new Promise<void>((resolve) => abandonWaiters.push(resolve))),
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

/**
 * Host name resolution that sends every name to 127.0.0.1 without asking any resolver, recording
 * the names asked. With it a backend can be pointed at `http://models.example.test:PORT` — a host
 * that is not loopback by name, so its requests are treated as leaving the machine — while the
 * bytes still go to a local test server.
 */
export function loopbackLookup(asked: string[] = []): LookupFunction {
  return ((hostname: string, options: unknown, callback: (...args: unknown[]) => void) => {
    asked.push(hostname);
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
    if (all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
    else callback(null, '127.0.0.1', 4);
  }) as LookupFunction;
}

/** A port on 127.0.0.1 where nothing listens (bound, then released). */
export async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
