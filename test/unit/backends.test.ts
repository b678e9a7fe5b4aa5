// Model backends against local HTTP servers speaking the real wire formats: OpenAI-compatible
// POST /v1/completions and Ollama POST /api/generate. Checks what is sent (retrieved snippets with
// their paths in the prompt, the suffix, the budget) and that an untrusted workspace sends nothing.
import * as assert from 'node:assert';
import type { EditorState, RetrievedChunk } from '../../engine/src/types';
import { OllamaGenerateBackend } from '../../extension/src/backends/ollama';
import { OpenAiCompletionsBackend } from '../../extension/src/backends/openai';
import { modelCompletion } from '../../extension/src/backends/pipeline';
import { buildPrompt, cleanCompletion } from '../../extension/src/backends/prompt';
import { BackendError } from '../../extension/src/backends/types';
import { modelServer } from './modelServer.helpers';

const hull: RetrievedChunk = {
  file: 'src/geometry/hull.ts', startLine: 6, endLine: 8, kind: 'function', name: 'convexHullMonotoneChain',
  text: 'export function convexHullMonotoneChain(points: Point[]): Point[] {\n  return points;\n}', score: 0.9, signals: { bm25: 0.9 },
};
const models: RetrievedChunk = {
  file: 'python/inventory/models.py', startLine: 0, endLine: 1, kind: 'function', name: 'compute_reorder_threshold',
  text: 'def compute_reorder_threshold(d, t):\n    return d * t', score: 0.5, signals: { dense: 0.5 },
};
const state: EditorState = {
  file: 'src/app/outline.ts', language: 'typescript', line: 3,
  prefix: "import { Point } from '../geometry/point';\n\nexport function outline(points: Point[]) {\n  return convexHull",
  suffix: '\n}\n',
};

describe('model backends', () => {
  it('buildPrompt puts retrieved snippets with their paths before the prefix, as comments, within the budget', () => {
    const built = buildPrompt(state, [hull, models], { contextTokens: 1000, prefixTokens: 1000 });
    assert.ok(built.prompt.includes('// Path: src/geometry/hull.ts (lines 7-9)'), built.prompt);
    assert.ok(built.prompt.includes('// export function convexHullMonotoneChain(points: Point[]): Point[] {'), built.prompt);
    assert.ok(built.prompt.endsWith(`// Path: src/app/outline.ts\n${state.prefix}`), built.prompt);
    assert.strictEqual(built.suffix, state.suffix);
    assert.deepStrictEqual(built.used.map((c) => c.file), ['src/geometry/hull.ts', 'python/inventory/models.py']);

    // 30 tokens = 120 characters: the hull snippet (~150 characters with its header) no longer fits; the smaller one does.
    const tight = buildPrompt(state, [hull, models], { contextTokens: 30, prefixTokens: 1000 });
    assert.deepStrictEqual(tight.used.map((c) => c.file), ['python/inventory/models.py']);
    assert.ok(!tight.prompt.includes('convexHullMonotoneChain(points'), tight.prompt);
  });

  it('cleanCompletion stops at a blank line and drops text the suffix already has', () => {
    assert.strictEqual(cleanCompletion('MonotoneChain(points);\n\nconsole.log(1)', ''), 'MonotoneChain(points);');
    assert.strictEqual(cleanCompletion('MonotoneChain(points);\n}', '\n}\n'), 'MonotoneChain(points);');
  });

  it('OpenAI-compatible /v1/completions receives prompt + suffix and its choices[0].text is returned', async () => {
    const server = await modelServer('MonotoneChain(points);');
    try {
      const backend = new OpenAiCompletionsBackend({ baseUrl: `${server.base}/v1`, model: 'qwen-coder', apiKey: 'sk-test' });
      const result = await modelCompletion({
        trusted: true, state, backend,
        retrieve: async () => [hull, models],
        budget: { contextTokens: 1000, prefixTokens: 1000 }, maxTokens: 48, timeoutMs: 5000, signal: new AbortController().signal,
      });
      assert.strictEqual(result?.text, 'MonotoneChain(points);');
      assert.strictEqual(server.requests.length, 1);
      const { url, body } = server.requests[0];
      assert.strictEqual(url, '/v1/completions');
      assert.strictEqual(body.model, 'qwen-coder');
      assert.strictEqual(body.max_tokens, 48);
      assert.strictEqual(body.suffix, state.suffix);
      assert.ok(String(body.prompt).includes('src/geometry/hull.ts'), String(body.prompt));
      assert.ok(String(body.prompt).includes('convexHullMonotoneChain(points: Point[])'), String(body.prompt));
    } finally {
      await server.close();
    }
  });

  it('Ollama /api/generate receives model, prompt and suffix and its response is returned', async () => {
    const server = await modelServer('MonotoneChain(points)');
    try {
      const backend = new OllamaGenerateBackend({ baseUrl: server.base, model: 'qwen2.5-coder:1.5b-base' });
      const result = await modelCompletion({
        trusted: true, state, backend,
        retrieve: async () => [hull],
        budget: { contextTokens: 1000, prefixTokens: 1000 }, maxTokens: 32, timeoutMs: 5000, signal: new AbortController().signal,
      });
      assert.strictEqual(result?.text, 'MonotoneChain(points)');
      const { url, body } = server.requests[0];
      assert.strictEqual(url, '/api/generate');
      assert.strictEqual(body.model, 'qwen2.5-coder:1.5b-base');
      assert.strictEqual(body.stream, false);
      assert.strictEqual(body.suffix, state.suffix);
      assert.strictEqual((body.options as { num_predict: number }).num_predict, 32);
      assert.ok(String(body.prompt).includes('// Path: src/geometry/hull.ts'), String(body.prompt));
    } finally {
      await server.close();
    }
  });

  it('an untrusted workspace sends nothing: no retrieval for a prompt, no request', async () => {
    const server = await modelServer('should never be asked');
    let retrieved = 0;
    try {
      for (const backend of [new OpenAiCompletionsBackend({ baseUrl: `${server.base}/v1`, model: '' }), new OllamaGenerateBackend({ baseUrl: server.base, model: 'm' })]) {
        const result = await modelCompletion({
          trusted: false, state, backend,
          retrieve: async () => { retrieved++; return [hull]; },
          budget: { contextTokens: 1000, prefixTokens: 1000 }, maxTokens: 32, timeoutMs: 5000, signal: new AbortController().signal,
        });
        assert.strictEqual(result, undefined);
      }
      assert.strictEqual(server.requests.length, 0);
      assert.strictEqual(retrieved, 0);
    } finally {
      await server.close();
    }
  });

  it("a file on the user's secret patterns (or the built-in list) sends nothing, even while open", async () => {
    const server = await modelServer('should never be asked');
    let retrieved = 0;
    try {
      const backend = new OpenAiCompletionsBackend({ baseUrl: `${server.base}/v1`, model: 'm' });
      const ask = (file: string, secretPatterns?: string[]) => modelCompletion({
        trusted: true, state: { ...state, file }, backend, secretPatterns,
        retrieve: async () => { retrieved++; return [hull]; },
        budget: { contextTokens: 1000, prefixTokens: 1000 }, maxTokens: 32, timeoutMs: 5000, signal: new AbortController().signal,
      });
      assert.strictEqual(await ask('src/app/outline.ts', ['src/app/**']), undefined);
      assert.strictEqual(await ask('.env.local'), undefined);
      assert.strictEqual(server.requests.length, 0);
      assert.strictEqual(retrieved, 0);
      // Control: the same file without the pattern is sent.
      assert.ok(await ask('src/app/outline.ts', ['config/**']));
      assert.strictEqual(server.requests.length, 1);
    } finally {
      await server.close();
    }
  });

  it('reports HTTP errors and unanswered requests as BackendError; a caller abort stays an abort', async () => {
    const failing = await modelServer('', { status: 503 });
    const slow = await modelServer('late', { delayMs: 2000 });
    try {
      const req = { prompt: 'p', suffix: '', maxTokens: 8, timeoutMs: 2000 };
      await assert.rejects(new OpenAiCompletionsBackend({ baseUrl: `${failing.base}/v1`, model: '' }).complete(req), (e: Error) => e instanceof BackendError && /HTTP 503/.test(e.message));
      await assert.rejects(new OllamaGenerateBackend({ baseUrl: slow.base, model: 'm' }).complete({ ...req, timeoutMs: 100 }), (e: Error) => e instanceof BackendError && /no answer within 100 ms/.test(e.message));
      const controller = new AbortController();
      const pending = new OllamaGenerateBackend({ baseUrl: slow.base, model: 'm' }).complete({ ...req, signal: controller.signal });
      controller.abort();
      await assert.rejects(pending, (e: Error) => e.name === 'AbortError');
    } finally {
      await failing.close();
      await slow.close();
    }
  });
});
