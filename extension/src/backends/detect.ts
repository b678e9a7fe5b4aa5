// Finds model servers listening on this machine, for the command "RepoRecall: Detect Local Model
// Server". Runs only when the user asks: it probes the usual loopback ports with short timeouts and
// identifies each server by the endpoint only it answers:
//   Ollama      GET /api/tags   -> { models: [{ name }] }                        (port 11434)
//   llama.cpp   GET /props      -> { default_generation_settings, model_path }   (port 8080)
//   OpenAI-compatible GET /v1/models -> { data: [{ id, owned_by }] }            (LM Studio 1234, vLLM 8000)
// Nothing here is contacted unless the command runs; hosts are loopback only. vscode-free.
import { familyOfModel, type FimFamily } from './fim';
import { getJson } from './http';

export type DetectedKind = 'ollama' | 'llamacpp' | 'openai';

export interface ProbeTarget {
  port: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** What usually listens there, for the message when nothing does. */
  expect?: string;
}

/** The usual ports of local model servers. */
export const DEFAULT_PROBES: readonly ProbeTarget[] = [
  { port: 11434, expect: 'Ollama' },
  { port: 8080, expect: 'llama.cpp' },
  { port: 1234, expect: 'LM Studio' },
  { port: 8000, expect: 'vLLM' },
];

export interface DetectedServer {
  kind: DetectedKind;
  /** Ollama, llama.cpp, vLLM, LM Studio, or OpenAI-compatible. */
  label: string;
  /** The base URL the backend setting takes (`…/v1` for OpenAI-compatible servers). */
  baseUrl: string;
  models: string[];
}

export interface DetectOptions {
  targets?: readonly ProbeTarget[];
  /** Per request (default 600 ms): a port where nothing answers in time counts as empty. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

async function tryGet(url: string, opts: DetectOptions): Promise<unknown> {
  try {
    return await getJson(url, { timeoutMs: opts.timeoutMs ?? 600, signal: opts.signal });
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    return undefined; // refused, timed out, not JSON, not 2xx: not this kind of server
  }
}

/** What listens on one target, if it is a model server. */
export async function probe(target: ProbeTarget, opts: DetectOptions = {}): Promise<DetectedServer | undefined> {
  const host = target.host ?? '127.0.0.1';
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${target.port}`;
  const [tags, props, list] = await Promise.all([
    tryGet(`${origin}/api/tags`, opts),
    tryGet(`${origin}/props`, opts),
    tryGet(`${origin}/v1/models`, opts),
  ]);
  const listed = isObject(list) && Array.isArray(list.data)
    ? list.data.filter(isObject).map((m) => m.id).filter((id): id is string => typeof id === 'string')
    : [];
  // /props first: newer llama.cpp servers also answer Ollama's /api/tags.
  if (isObject(props) && (isObject(props.default_generation_settings) || typeof props.model_path === 'string')) {
    const models = listed.length ? listed : typeof props.model_path === 'string' ? [props.model_path] : [];
    return { kind: 'llamacpp', label: 'llama.cpp', baseUrl: origin, models };
  }
  if (isObject(tags) && Array.isArray(tags.models)) {
    const models = tags.models.filter(isObject).map((m) => m.name ?? m.model).filter((n): n is string => typeof n === 'string');
    return { kind: 'ollama', label: 'Ollama', baseUrl: origin, models };
  }
  if (isObject(list) && Array.isArray(list.data)) {
    const owners = list.data.filter(isObject).map((m) => m.owned_by);
    const label = owners.includes('vllm') ? 'vLLM' : target.expect === 'LM Studio' ? 'LM Studio' : 'OpenAI-compatible';
    return { kind: 'openai', label, baseUrl: `${origin}/v1`, models: listed };
  }
  return undefined;
}

/** Every model server found on the targets (default: the usual ports), in target order. */
export async function detectServers(opts: DetectOptions = {}): Promise<DetectedServer[]> {
  const targets = opts.targets ?? DEFAULT_PROBES;
  const found = await Promise.all(targets.map((t) => probe(t, opts)));
  return found.filter((s): s is DetectedServer => s !== undefined);
}

/** The settings (under `reporecall.`) that make a detected server and model the completion backend. */
export function settingsFor(server: DetectedServer, model: string | undefined): Record<string, unknown> {
  switch (server.kind) {
    case 'ollama':
      return { 'completion.backend': 'ollama', 'ollama.baseUrl': server.baseUrl, ...(model ? { 'ollama.model': model } : {}) };
    case 'llamacpp':
      return { 'completion.backend': 'llamacpp', 'llamacpp.baseUrl': server.baseUrl };
    case 'openai': {
      const family: FimFamily | undefined = model ? familyOfModel(model) : undefined;
      // A recognised code model gets its raw FIM template: these servers do not template `suffix`.
      return { 'completion.backend': 'openai', 'openai.baseUrl': server.baseUrl, 'openai.model': model ?? '', 'openai.fimTemplate': family ?? 'auto' };
    }
  }
}
