// "Detect Local Model Server" probe logic (extension/src/backends/detect.ts) against real local
// servers on ephemeral ports that speak each protocol's discovery endpoints: Ollama /api/tags,
// llama.cpp /props (+ /v1/models), vLLM and LM Studio /v1/models. Finds what listens, tells the
// servers apart, reports none where nothing (or something that is not a model server) listens,
// and turns a pick into the backend settings.
import * as assert from 'node:assert';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_PROBES, detectServers, probe, settingsFor } from '../../extension/src/backends/detect';
import { closedPort, modelServer, type ModelServer } from './modelServer.helpers';

describe('detect local model servers', () => {
  const servers: ModelServer[] = [];
  const others: http.Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
    await Promise.all(others.splice(0).map((s) => new Promise<void>((r) => { s.closeAllConnections(); s.close(() => r()); })));
  });

  it('probes the usual ports of Ollama, llama.cpp, LM Studio and vLLM by default', () => {
    assert.deepStrictEqual(DEFAULT_PROBES.map((t) => [t.port, t.expect]), [[11434, 'Ollama'], [8080, 'llama.cpp'], [1234, 'LM Studio'], [8000, 'vLLM']]);
  });

  it('finds each kind of server on its port, with its models, and skips a port where nothing listens', async () => {
    const ollama = await modelServer('', { flavor: 'ollama', models: ['qwen2.5-coder:1.5b-base', 'llama3.2:latest'] });
    const llama = await modelServer('', { flavor: 'llamacpp', models: ['qwen2.5-coder-1.5b-q8_0.gguf'] });
    const vllm = await modelServer('', { flavor: 'vllm', models: ['Qwen/Qwen2.5-Coder-7B'] });
    const lmstudio = await modelServer('', { flavor: 'lmstudio', models: ['deepseek-coder-6.7b-base'] });
    servers.push(ollama, llama, vllm, lmstudio);
    const nothing = await closedPort();
    const found = await detectServers({
      targets: [{ port: ollama.port }, { port: nothing }, { port: llama.port }, { port: lmstudio.port, expect: 'LM Studio' }, { port: vllm.port, expect: 'vLLM' }],
    });
    assert.deepStrictEqual(found, [
      { kind: 'ollama', label: 'Ollama', baseUrl: ollama.base, models: ['qwen2.5-coder:1.5b-base', 'llama3.2:latest'] },
      { kind: 'llamacpp', label: 'llama.cpp', baseUrl: llama.base, models: ['qwen2.5-coder-1.5b-q8_0.gguf'] },
      { kind: 'openai', label: 'LM Studio', baseUrl: `${lmstudio.base}/v1`, models: ['deepseek-coder-6.7b-base'] },
      { kind: 'openai', label: 'vLLM', baseUrl: `${vllm.base}/v1`, models: ['Qwen/Qwen2.5-Coder-7B'] },
    ]);
    // Only discovery GETs were sent: nothing was asked of any model.
    for (const s of [ollama, llama, vllm, lmstudio]) assert.ok(s.requests.every((r) => r.method === 'GET'), JSON.stringify(s.requests));
  });

  it('reports none where none listens', async () => {
    const ports = [await closedPort(), await closedPort()];
    assert.deepStrictEqual(await detectServers({ targets: ports.map((port) => ({ port })) }), []);
  });

  it('an HTTP server that is not a model server (HTML, 404s, other JSON) is not reported', async () => {
    const web = http.createServer((req, res) => {
      if (req.url === '/v1/models') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok' }));
      else if (req.url === '/props') res.writeHead(200, { 'content-type': 'text/html' }).end('<html>code-server</html>');
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    others.push(web);
    assert.strictEqual(await probe({ port: (web.address() as AddressInfo).port }), undefined);
  });

  it('a server that accepts the connection but never answers counts as none after the timeout', async () => {
    const silent = http.createServer(() => { /* never answers */ });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    others.push(silent);
    assert.deepStrictEqual(await detectServers({ targets: [{ port: (silent.address() as AddressInfo).port }], timeoutMs: 150 }), []);
  });

  it('a pick becomes the backend settings, with the raw FIM template of a recognised model on an OpenAI-compatible server', () => {
    assert.deepStrictEqual(settingsFor({ kind: 'ollama', label: 'Ollama', baseUrl: 'http://127.0.0.1:11434', models: [] }, 'qwen2.5-coder:1.5b-base'),
      { 'completion.backend': 'ollama', 'ollama.baseUrl': 'http://127.0.0.1:11434', 'ollama.model': 'qwen2.5-coder:1.5b-base' });
    assert.deepStrictEqual(settingsFor({ kind: 'llamacpp', label: 'llama.cpp', baseUrl: 'http://127.0.0.1:8080', models: [] }, 'x.gguf'),
      { 'completion.backend': 'llamacpp', 'llamacpp.baseUrl': 'http://127.0.0.1:8080' });
    assert.deepStrictEqual(settingsFor({ kind: 'openai', label: 'vLLM', baseUrl: 'http://127.0.0.1:8000/v1', models: [] }, 'Qwen/Qwen2.5-Coder-7B'),
      { 'completion.backend': 'openai', 'openai.baseUrl': 'http://127.0.0.1:8000/v1', 'openai.model': 'Qwen/Qwen2.5-Coder-7B', 'openai.fimTemplate': 'qwen' });
    assert.deepStrictEqual(settingsFor({ kind: 'openai', label: 'LM Studio', baseUrl: 'http://127.0.0.1:1234/v1', models: [] }, 'llama-3.1-8b'),
      { 'completion.backend': 'openai', 'openai.baseUrl': 'http://127.0.0.1:1234/v1', 'openai.model': 'llama-3.1-8b', 'openai.fimTemplate': 'auto' });
  });
});
