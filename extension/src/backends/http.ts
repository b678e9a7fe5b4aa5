// The one way a backend talks to a model server: JSON over node's own http/https. Every request has
// a timeout and honours the caller's AbortSignal by destroying the request, so the server sees the
// connection close on the next keystroke. Every body has its secrets redacted here (redact.ts), the
// last step before bytes leave, whatever backend built it (loopback only if the user exempted it).
// vscode-free.
import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction } from 'node:net';
import { redactDeep, redactsRequestTo } from './redact';
import { BackendError } from './types';

export interface HttpOptions {
  signal?: AbortSignal;
  timeoutMs: number;
  headers?: Record<string, string>;
  /**
   * Host name resolution for this request (default: the system's). The seam that lets a test send a
   * request addressed to a non-loopback host name to a server on 127.0.0.1, with no DNS involved.
   */
  lookup?: LookupFunction;
  /** Redact bodies sent to a loopback server too (reporecall.redaction.loopback; default true). */
  redactLoopback?: boolean;
}

// Connections are kept alive between keystrokes (no new TCP and TLS handshake per completion with a
// remote server); an aborted request destroys its socket, which never goes back to the pool.
const AGENTS = { http: new http.Agent({ keepAlive: true, maxSockets: 8 }), https: new https.Agent({ keepAlive: true, maxSockets: 8 }) };

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  const err = new Error('the request was aborted');
  err.name = 'AbortError';
  return err;
}

/** Sends one request and parses the JSON answer; HTTP errors, timeouts and bad JSON are BackendErrors, a caller's abort stays an abort. */
export function requestJson(method: 'GET' | 'POST', url: string, body: unknown, opts: HttpOptions): Promise<unknown> {
  if (opts.signal?.aborted) return Promise.reject(abortError(opts.signal));
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.reject(new BackendError(`${url}: not a valid URL`));
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return Promise.reject(new BackendError(`${url}: only http and https are supported`));
  let payload: string | undefined;
  if (body !== undefined) {
    payload = JSON.stringify(redactsRequestTo(url, opts.redactLoopback ?? true) ? redactDeep(body) : body);
  }
  const headers: Record<string, string> = { accept: 'application/json', ...(opts.headers ?? {}) };
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  const lib = target.protocol === 'https:' ? https : http;
  return new Promise<unknown>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => fail(new BackendError(`${url}: no answer within ${opts.timeoutMs} ms`)), opts.timeoutMs);
    const onAbort = (): void => fail(abortError(opts.signal!));
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const cleanup = (): void => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    };
    const done = (value: unknown): void => {
      if (settled) return;
      settled = true;
      cleanup();
      resolve(value);
    };
    let req: http.ClientRequest | undefined;
    function fail(err: Error): void {
      if (settled) return;
      settled = true;
      cleanup();
      req?.destroy(); // closes the connection: the server sees the client go
      reject(err);
    }
    const agent = target.protocol === 'https:' ? AGENTS.https : AGENTS.http;
    const send = (retried: boolean): void => {
      req = lib.request(target, { method, headers, lookup: opts.lookup, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (err) => fail(new BackendError(`${url}: ${err.message}`)));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = res.statusCode ?? 0;
          if (status < 200 || status >= 300) return fail(new BackendError(`${url}: HTTP ${status} ${text.slice(0, 200)}`, status));
          try {
            done(JSON.parse(text));
          } catch {
            fail(new BackendError(`${url}: response is not JSON: ${text.slice(0, 200)}`));
          }
        });
      });
      const sent = req;
      sent.on('error', (err: NodeJS.ErrnoException) => {
        // A kept-alive connection the server closed while idle: send once more on a fresh one.
        if (!settled && !retried && sent.reusedSocket && err.code === 'ECONNRESET') return send(true);
        fail(new BackendError(`${url}: ${err.message}`));
      });
      if (payload !== undefined) sent.write(payload);
      sent.end();
    };
    try {
      send(false);
    } catch (err) {
      fail(new BackendError(`${url}: ${(err as Error).message}`)); // e.g. a header value node refuses
    }
  });
}

/** POSTs JSON with a timeout that also honours the caller's AbortSignal. */
export function postJson(url: string, body: unknown, opts: HttpOptions): Promise<unknown> {
  return requestJson('POST', url, body, opts);
}

export function getJson(url: string, opts: HttpOptions): Promise<unknown> {
  return requestJson('GET', url, undefined, opts);
}
