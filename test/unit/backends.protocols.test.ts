// Each model server protocol as its users run it, against local HTTP servers speaking the real wire
// formats: llama.cpp's native /infill (input_extra, input_prefix, prompt, input_suffix, n_indent,
// cache_prompt), OpenAI-compatible /v1/completions with `suffix` or with a raw fill-in-the-middle
// prompt per model family (no `suffix`: vLLM rejects it), and the next keystroke closing the
// connection of every backend.
import * as assert from 'node:assert';
import type { EditorState, RetrievedChunk } from '../../engine/src/types';
import { FIM_TEMPLATES, familyOfModel, type FimFamily } from '../../extension/src/backends/fim';
import { LlamaCppInfillBackend } from '../../extension/src/backends/llamacpp';
import { OllamaGenerateBackend } from '../../extension/src/backends/ollama';
import { OpenAiCompletionsBackend, type FimSetting } from '../../extension/src/backends/openai';
import { modelCompletion } from '../../extension/src/backends/pipeline';
import type { CompletionBackend } from '../../extension/src/backends/types';
import { modelServer, type ModelServer } from './modelServer.helpers';

const hull: RetrievedChunk = {
  file: 'src/geometry/hull.ts', startLine: 6, endLine: 8, kind: 'function', name: 'convexHullMonotoneChain',
  text: 'export function convexHullMonotoneChain(points: Point[]): Point[] {\n  return points;\n}', score: 0.9, signals: { bm25: 0.9 },
};
const point: RetrievedChunk = {
  file: 'src/geometry/point.ts', startLine: 0, endLine: 0, kind: 'type', name: 'Point',
  text: 'export interface Point { x: number; y: number }', score: 0.5, signals: { dense: 0.5 },
};
const PREFIX = "import { Point } from '../geometry/point';\n\nexport function outline(points: Point[]) {\n  const hull = convexHull";
const SUFFIX = '\n  return hull;\n}\n';
const state: EditorState = { file: 'src/app/outline.ts', language: 'typescript', line: 3, prefix: PREFIX, suffix: SUFFIX };
const PROMPT_HEAD = "import { Point } from '../geometry/point';\n\nexport function outline(points: Point[]) {\n";
const LINE = '  const hull = convexHull';

function complete(backend: CompletionBackend, signal = new AbortController().signal, repoName = 'geo') {
  return modelCompletion({
    trusted: true, state, backend, repoName,
    retrieve: async () => [hull, point],
    budget: { contextTokens: 1000, prefixTokens: 1000 }, maxTokens: 48, timeoutMs: 5000, signal,
  });
}

/** The flat prompt's commented context, as DeepSeek, CodeLlama and Codestral carry it. */
const COMMENTED =
  '// Code from elsewhere in this repository:\n' +
  '// Path: src/geometry/hull.ts (lines 7-9)\n// export function convexHullMonotoneChain(points: Point[]): Point[] {\n//   return points;\n// }\n' +
  '// Path: src/geometry/point.ts (lines 1-1)\n// export interface Point { x: number; y: number }\n' +
  `// Path: src/app/outline.ts\n${PREFIX}`;
const HULL_FILE = `${hull.text}\n`;
const POINT_FILE = `${point.text}\n`;

/** The exact raw prompt each family must receive for `state` with the hull and point snippets. */
const EXPECTED: Record<FimFamily, string> = {
  qwen: `<|repo_name|>geo\n<|file_sep|>src/geometry/hull.ts\n${HULL_FILE}<|file_sep|>src/geometry/point.ts\n${POINT_FILE}<|file_sep|>src/app/outline.ts\n<|fim_prefix|>${PREFIX}<|fim_suffix|>${SUFFIX}<|fim_middle|>`,
  deepseek: `<\uFF5Cfim\u2581begin\uFF5C>${COMMENTED}<\uFF5Cfim\u2581hole\uFF5C>${SUFFIX}<\uFF5Cfim\u2581end\uFF5C>`,
  starcoder2: `<repo_name>geo<file_sep>src/geometry/hull.ts\n${HULL_FILE}<file_sep>src/geometry/point.ts\n${POINT_FILE}<file_sep><fim_prefix>src/app/outline.ts\n${PREFIX}<fim_suffix>${SUFFIX}<fim_middle>`,
  codellama: `<PRE> ${COMMENTED} <SUF>${SUFFIX} <MID>`,
  codestral: `[SUFFIX]${SUFFIX}[PREFIX] ${COMMENTED}`,
};
const EOS: Record<FimFamily, string> = {
  qwen: '<|endoftext|>', deepseek: '<\uFF5Cend\u2581of\u2581sentence\uFF5C>', starcoder2: '<|endoftext|>', codellama: '<EOT>', codestral: '</s>',
};

describe('model server protocols', () => {
  let server: ModelServer | undefined;
  afterEach(async () => { await server?.close(); server = undefined; });

  it('llama.cpp /infill: snippets as input_extra, the line as prompt, the suffix, n_indent, stops and cache_prompt', async () => {
    server = await modelServer('MonotoneChain(points);', { flavor: 'llamacpp' });
    const result = await complete(new LlamaCppInfillBackend({ baseUrl: server.base }));
    assert.strictEqual(result?.text, 'MonotoneChain(points);');
    assert.strictEqual(server.requests.length, 1);
    const { url, body } = server.requests[0];
    assert.strictEqual(url, '/infill');
    assert.deepStrictEqual(body.input_extra, [
      { filename: 'src/geometry/hull.ts', text: hull.text },
      { filename: 'src/geometry/point.ts', text: point.text },
    ]);
    assert.strictEqual(body.input_prefix, PROMPT_HEAD);
    assert.strictEqual(body.prompt, LINE);
    assert.strictEqual(body.input_suffix, SUFFIX);
    assert.strictEqual(body.n_predict, 48);
    assert.strictEqual(body.n_indent, 2);
    assert.strictEqual(body.cache_prompt, true);
    assert.strictEqual(body.stream, false);
    assert.deepStrictEqual(body.stop, ['\n\n\n', '\n// Path:']);
    assert.ok(!('suffix' in body) && !('max_tokens' in body), JSON.stringify(body));
  });

  it('llama.cpp: a base URL given with /v1 still reaches /infill, and an error answer is a BackendError', async () => {
    server = await modelServer('x', { status: 503 });
    await assert.rejects(complete(new LlamaCppInfillBackend({ baseUrl: `${server.base}/v1` })), /\/infill: HTTP 503/);
    assert.strictEqual(server.requests[0].url, '/infill');
  });

  it('a request node refuses to send (a header with a newline) is a BackendError, and nothing is left running', async () => {
    server = await modelServer('x');
    const backend = new OpenAiCompletionsBackend({ baseUrl: `${server.base}/v1`, model: 'm', apiKey: 'sk-bad\nkey' });
    await assert.rejects(backend.complete({ prompt: 'p', suffix: '', maxTokens: 4, timeoutMs: 50 }), (e: Error) => e.name === 'BackendError' && /\/v1\/completions/.test(e.message));
    assert.strictEqual(server.requests.length, 0);
  });

  it("OpenAI-compatible with fimTemplate 'none': prompt + suffix and the generic stop sequences", async () => {
    server = await modelServer('MonotoneChain(points);');
    const result = await complete(new OpenAiCompletionsBackend({ baseUrl: `${server.base}/v1`, model: 'gpt-3.5-turbo-instruct', fim: 'none' }));
    assert.strictEqual(result?.text, 'MonotoneChain(points);');
    const { url, body } = server.requests[0];
    assert.strictEqual(url, '/v1/completions');
    assert.strictEqual(body.suffix, SUFFIX);
    assert.strictEqual(body.prompt, COMMENTED);
    assert.deepStrictEqual(body.stop, ['\n\n\n', '\n// Path:']);
  });

  for (const family of Object.keys(EXPECTED) as FimFamily[]) {
    it(`OpenAI-compatible raw FIM for ${FIM_TEMPLATES[family].label}: the family's tokens, no suffix field, its stop tokens`, async () => {
      // The server passes a format token on (as one that does not stop at it would): the answer is cut there.
      server = await modelServer(`MonotoneChain(points);${EOS[family]}\nnext file`);
      const result = await complete(new OpenAiCompletionsBackend({ baseUrl: `${server.base}/v1`, model: 'served-model', fim: family }));
      assert.strictEqual(result?.text, 'MonotoneChain(points);');
      const { body } = server.requests[0];
      assert.strictEqual(body.prompt, EXPECTED[family]);
      assert.ok(!('suffix' in body), 'vLLM rejects a suffix field');
      const stop = body.stop as string[];
      assert.ok(stop.includes(EOS[family]), JSON.stringify(stop));
      for (const s of FIM_TEMPLATES[family].stop) assert.ok(stop.includes(s), s);
      assert.ok(stop.includes('\n\n\n'), 'the generic stops follow');
      assert.strictEqual(body.model, 'served-model');
    });
  }

  it("fimTemplate 'auto' recognises the family from the model name; an unknown model keeps prompt + suffix", async () => {
    const names: Array<[string, FimFamily | undefined]> = [
      ['Qwen/Qwen2.5-Coder-7B', 'qwen'], ['qwen2.5-coder:1.5b-base', 'qwen'], ['deepseek-ai/deepseek-coder-6.7b-base', 'deepseek'],
      ['deepseek-coder-v2-lite-base.Q4_K_M.gguf', 'deepseek'], ['bigcode/starcoder2-3b', 'starcoder2'], ['codellama/CodeLlama-7b-hf', 'codellama'],
      ['mistralai/Codestral-22B-v0.1', 'codestral'], ['gpt-3.5-turbo-instruct', undefined], ['Qwen/CodeQwen1.5-7B', undefined], ['llama-3.1-8b', undefined],
    ];
    for (const [name, family] of names) assert.strictEqual(familyOfModel(name), family, name);
    server = await modelServer('MonotoneChain(points);');
    const ask = async (model: string, fim: FimSetting) => {
      await complete(new OpenAiCompletionsBackend({ baseUrl: `${server!.base}/v1`, model, fim }));
      return server!.requests[server!.requests.length - 1].body;
    };
    const qwen = await ask('Qwen/Qwen2.5-Coder-7B', 'auto');
    assert.strictEqual(qwen.prompt, EXPECTED.qwen);
    assert.ok(!('suffix' in qwen));
    const plain = await ask('gpt-3.5-turbo-instruct', 'auto');
    assert.strictEqual(plain.suffix, SUFFIX);
    assert.strictEqual(plain.prompt, COMMENTED);
  });

  it('a plain continuation (the HyDE guess) through a raw FIM template is sent as it is, with the family stops', async () => {
    server = await modelServer('return hull;');
    const backend = new OpenAiCompletionsBackend({ baseUrl: `${server.base}/v1`, model: 'm', fim: 'qwen' });
    const out = await backend.complete({ prompt: 'const a = ', suffix: '', maxTokens: 8, timeoutMs: 5000, stop: ['\n\n\n'] });
    assert.strictEqual(out, 'return hull;');
    const { body } = server.requests[0];
    assert.strictEqual(body.prompt, 'const a = ');
    assert.ok(!('suffix' in body));
    assert.deepStrictEqual(body.stop, [...FIM_TEMPLATES.qwen.stop, '\n\n\n']);
  });

  const BACKENDS: Array<[string, (base: string) => CompletionBackend, string]> = [
    ['llama.cpp /infill', (base) => new LlamaCppInfillBackend({ baseUrl: base }), '/infill'],
    ['OpenAI-compatible /v1/completions', (base) => new OpenAiCompletionsBackend({ baseUrl: `${base}/v1`, model: 'Qwen/Qwen2.5-Coder-1.5B', fim: 'auto' }), '/v1/completions'],
    ['Ollama /api/generate', (base) => new OllamaGenerateBackend({ baseUrl: base, model: 'qwen2.5-coder:1.5b-base' }), '/api/generate'],
  ];
  for (const [name, make, path] of BACKENDS) {
    it(`${name}: the next keystroke aborts the request and the server sees the connection close`, async () => {
      server = await modelServer('never sent', { delayMs: 'never' });
      const controller = new AbortController();
      const pending = complete(make(server.base), controller.signal);
      await server.received();
      assert.strictEqual(server.requests[0].url, path);
      assert.strictEqual(server.abandoned(), 0);
      controller.abort();
      await assert.rejects(pending, (e: Error) => e.name === 'AbortError');
      await server.whenAbandoned(); // the server's side of the connection closed: mocha's timeout is the failure
      assert.strictEqual(server.abandoned(), 1);
    });
  }

  it('a multi-line answer is cut to the cursor block by the stop rules, indentation kept', async () => {
    server = await modelServer('MonotoneChain(points)\n    .filter((p) => p.x >= 0);\n  return hull;\n}\n\nexport function other() {}', { flavor: 'llamacpp' });
    const result = await complete(new LlamaCppInfillBackend({ baseUrl: server.base }));
    assert.strictEqual(result?.text, 'MonotoneChain(points)\n    .filter((p) => p.x >= 0);');
  });
});

describe('model server connections', () => {
  it('a kept-alive connection the server dropped while idle is retried once on a fresh connection', async () => {
    // The second request on a connection that already served one is dropped without an answer, as
    // a server does whose keep-alive timeout ran out just as the client reused the connection.
    const served = new WeakSet<object>();
    let dropped = 0;
    const http = await import('node:http');
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (served.has(req.socket)) { dropped++; req.socket.destroy(); return; }
        served.add(req.socket);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ content: 'ok', stop: true }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as import('node:net').AddressInfo;
      const backend = new LlamaCppInfillBackend({ baseUrl: `http://127.0.0.1:${port}` });
      const req = { prompt: 'p', suffix: '', maxTokens: 4, timeoutMs: 5000 };
      assert.strictEqual(await backend.complete(req), 'ok');
      assert.strictEqual(await backend.complete(req), 'ok');
      assert.strictEqual(dropped, 1, 'the second request reused the first connection and was dropped once');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
