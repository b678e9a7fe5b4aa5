// A model backend turns a built prompt into a continuation. vscode-free.
export interface BackendRequest {
  prompt: string;
  suffix: string;
  maxTokens: number;
  /** Sequences the model must stop at. */
  stop?: string[];
  signal?: AbortSignal;
  timeoutMs: number;
  /** Sampling temperature for this request; default the backend's own (0.2). */
  temperature?: number;
}

export interface CompletionBackend {
  readonly name: string;
  /** Returns the raw continuation text ('' when the model produced nothing). */
  complete(req: BackendRequest): Promise<string>;
}

export class BackendError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
    this.name = 'BackendError';
  }
}

/** POSTs JSON with a timeout that also honours the caller's AbortSignal. */
export async function postJson(url: string, body: unknown, req: Pick<BackendRequest, 'signal' | 'timeoutMs'>, headers: Record<string, string> = {}): Promise<unknown> {
  const signals = [AbortSignal.timeout(req.timeoutMs)];
  if (req.signal) signals.push(req.signal);
  const signal = AbortSignal.any(signals);
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal });
  } catch (err) {
    if (req.signal?.aborted) throw err; // the caller cancelled: not a backend failure
    throw new BackendError(`${url}: ${(err as Error).name === 'TimeoutError' ? `no answer within ${req.timeoutMs} ms` : (err as Error).message}`);
  }
  const text = await res.text();
  if (!res.ok) throw new BackendError(`${url}: HTTP ${res.status} ${text.slice(0, 200)}`, res.status);
  try {
    return JSON.parse(text);
  } catch {
    throw new BackendError(`${url}: response is not JSON: ${text.slice(0, 200)}`);
  }
}
