// A 127.0.0.1 HTTP server answering the real wire formats of OpenAI-compatible servers
// (POST /v1/completions) and Ollama (POST /api/generate), shared by the backend and HyDE tests.
// What it answers, how late and with which status may depend on the request body (e.g. a guess and
// a completion are told apart by their temperature).
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export type RequestBody = Record<string, unknown>;

export interface Recorded {
  url: string;
  body: RequestBody;
}

export interface ModelServerOptions {
  /** HTTP status to answer with (default 200); others get an OpenAI-style error body. */
  status?: number;
  /** Milliseconds before answering (default 0). */
  delayMs?: number | ((body: RequestBody) => number);
}

export interface ModelServer {
  base: string;
  requests: Recorded[];
  /** Requests whose client hung up before the answer (aborted on its side). */
  abandoned(): number;
  close(): Promise<void>;
}

export async function modelServer(answer: string | ((body: RequestBody) => string), opts: ModelServerOptions = {}): Promise<ModelServer> {
  const requests: Recorded[] = [];
  let abandoned = 0;
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      const body = JSON.parse(data) as RequestBody;
      requests.push({ url: req.url ?? '', body });
      res.on('close', () => { if (!res.writableEnded) abandoned++; });
      const reply = (): void => {
        if (res.destroyed) return;
        const text = typeof answer === 'string' ? answer : answer(body);
        if (opts.status && opts.status !== 200) {
          res.writeHead(opts.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'model not loaded' } }));
        } else if (req.url === '/v1/completions') {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
            id: 'cmpl-1', object: 'text_completion', created: 1, model: body.model ?? 'local',
            choices: [{ text, index: 0, logprobs: null, finish_reason: 'stop' }],
            usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 },
          }));
        } else if (req.url === '/api/generate') {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
            model: body.model, created_at: '2024-01-01T00:00:00Z', response: text, done: true, done_reason: 'stop',
          }));
        } else {
          res.writeHead(404).end('not found');
        }
      };
      const ms = typeof opts.delayMs === 'function' ? opts.delayMs(body) : opts.delayMs ?? 0;
      if (ms > 0) setTimeout(reply, ms);
      else reply();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    requests,
    abandoned: () => abandoned,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
