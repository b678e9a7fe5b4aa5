// Hypothetical-code expansion (HyDE) end to end: the guess is asked of local HTTP servers speaking
// the real OpenAI /v1/completions and Ollama /api/generate protocols, under a budget and a
// cancellation signal, and the real engine searches it as its `hyde` signal on a small repository.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Engine } from '../../engine/src/engine';
import { novelTerms } from '../../engine/src/retrieve/hyde';
import type { EditorState, RetrievedChunk } from '../../engine/src/types';
import { HypothesisSource } from '../../extension/src/backends/hypothetical';
import { OllamaGenerateBackend } from '../../extension/src/backends/ollama';
import { OpenAiCompletionsBackend } from '../../extension/src/backends/openai';
import { modelCompletion } from '../../extension/src/backends/pipeline';
import { modelServer } from './modelServer.helpers';
import { tempDir } from './tempDir';

const isGuess = (body: Record<string, unknown>): boolean =>
  body.temperature === 0 || (body.options as { temperature?: number } | undefined)?.temperature === 0;

/** A small repository: the checkout code the user writes will call computeShippingQuote, which nothing before the cursor names. */
export function writeRepo(root: string): void {
  const w = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  w('src/shipping/rates.ts', [
    'const ZONE_FACTOR: Record<string, number> = { domestic: 1, europe: 2.5, world: 4 };',
    '',
    'export function computeShippingQuote(weightKg: number, zone: string): number {',
    '  const factor = ZONE_FACTOR[zone] ?? ZONE_FACTOR.world;',
    '  return Math.ceil(weightKg * 2) * factor;',
    '}',
    '',
  ].join('\n'));
  w('src/cart/items.ts', [
    'export interface CartItem { sku: string; price: number; quantity: number }',
    'export interface Cart { items: CartItem[]; weightKg: number; zone: string }',
    '',
    'export function sumItems(items: CartItem[]): number {',
    '  return items.reduce((total, item) => total + item.price * item.quantity, 0);',
    '}',
    '',
  ].join('\n'));
  w('src/cart/discounts.ts', [
    'import { Cart, sumItems } from "./items";',
    '',
    'export function cartSubtotalAfterDiscount(cart: Cart, percent: number): number {',
    '  const subtotal = sumItems(cart.items);',
    '  return subtotal - (subtotal * percent) / 100;',
    '}',
    '',
  ].join('\n'));
  w('src/cart/summary.ts', [
    'import { Cart, sumItems } from "./items";',
    '',
    'export function cartSummary(cart: Cart): string {',
    '  const subtotal = sumItems(cart.items);',
    '  return `${cart.items.length} items, subtotal ${subtotal}`;',
    '}',
    '',
  ].join('\n'));
  w('src/cart/checkout.ts', [
    'import { Cart, sumItems } from "./items";',
    '',
    'export function checkoutTotal(cart: Cart): number {',
    '  const subtotal = sumItems(cart.items);',
    '}',
    '',
  ].join('\n'));
}

const PREFIX = 'import { Cart, sumItems } from "./items";\n\nexport function checkoutTotal(cart: Cart): number {\n  const subtotal = sumItems(cart.items);\n';
const STATE: EditorState = { file: 'src/cart/checkout.ts', language: 'typescript', prefix: PREFIX, suffix: '}\n', line: 4 };
const GUESS = '  const shipping = computeShippingQuote(cart.weightKg, cart.zone);\n  return subtotal + shipping;';

const rankOf = (hits: RetrievedChunk[], file: string): number => hits.findIndex((h) => h.file === file) + 1 || Infinity;

describe('hypothetical-code expansion (hyde)', function () {
  this.timeout(120_000);
  let root: string;
  let indexDir: string;
  before(() => {
    root = tempDir('rr-hyde-');
    indexDir = tempDir('rr-hyde-index-');
    writeRepo(root);
  });
  after(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(indexDir, { recursive: true, force: true });
  });

  it('the guess is searched for what it adds to the window, or whole when it adds nothing', () => {
    const terms = novelTerms(GUESS, PREFIX);
    for (const t of ['shipping', 'quote', 'zone']) assert.ok(terms.includes(t), `${t} in ${terms}`);
    for (const t of ['cart', 'subtotal']) assert.ok(!terms.includes(t), `${t} not in ${terms}`);
    assert.ok(novelTerms('sumItems(cart.items)', PREFIX).includes('cart'));
  });

  for (const dense of [false, true]) {
    it(`the guess brings up the function it calls that the prefix does not name (dense ${dense ? 'on' : 'off'})`, async () => {
      const engine = await Engine.open({ root, indexDir: path.join(indexDir, `d${dense}`), dense });
      try {
        await engine.indexAll();
        // On a repository this small every signal lists every chunk, so the fusion is flat: the
        // guess is judged by its own list and by how far it lifts the chunk in the full fusion.
        const without = await engine.retrieve(STATE, { k: 5 });
        assert.ok(rankOf(without, 'src/shipping/rates.ts') > 5, `without a guess: ${without.map((h) => h.file)}`);
        // Weight 0 (the engine's default) switches the stage off even when a guess is given.
        const off = await engine.retrieve(STATE, { k: 5, hypothetical: { text: GUESS } });
        assert.deepStrictEqual(off.map((h) => h.file), without.map((h) => h.file));
        assert.ok(off.every((h) => h.signals.hyde === undefined));
        // The guess's own list puts the function it calls first.
        const alone = await engine.retrieve(STATE, { k: 1, hypothetical: { text: GUESS } }, { bm25: 0, recent: 0, dense: 0, symbol: 0, hyde: 1 });
        assert.strictEqual(alone[0]?.name, 'computeShippingQuote', JSON.stringify(alone));
        // Fused with the prefix's signals, it brings the function into the context.
        const withGuess = await engine.retrieve(STATE, { k: 5, hypothetical: { text: GUESS, weight: 2 } });
        const hit = withGuess.find((h) => h.file === 'src/shipping/rates.ts');
        assert.ok(hit, `with the guess: ${withGuess.map((h) => h.file)}`);
        assert.strictEqual(hit.signals.hyde, 1, JSON.stringify(hit.signals));
        assert.match(hit.text, /computeShippingQuote/);
      } finally {
        await engine.close();
      }
    });
  }

  it('OpenAI /v1/completions: the guess is asked with a short, deterministic body and cut to a few lines', async () => {
    const server = await modelServer(() => `${GUESS}\n  // 1\n  // 2\n  // 3\n  // 4\n  // 5\n  // 6`);
    try {
      const backend = new OpenAiCompletionsBackend({ baseUrl: `${server.base}/v1`, model: 'coder' });
      const out = await new HypothesisSource().continuation({ trusted: true, state: STATE, docKey: 'd', backend, budgetMs: 5000, signal: new AbortController().signal });
      assert.strictEqual(out.text?.split('\n').length, 6);
      assert.ok(out.text?.startsWith(GUESS));
      assert.strictEqual(server.requests.length, 1);
      const { url, body } = server.requests[0];
      assert.strictEqual(url, '/v1/completions');
      assert.strictEqual(body.model, 'coder');
      assert.strictEqual(body.max_tokens, 48);
      assert.strictEqual(body.temperature, 0);
      assert.strictEqual(body.suffix, '');
      assert.strictEqual(body.stream, false);
      assert.ok(String(body.prompt).endsWith(`Path: src/cart/checkout.ts\n${PREFIX}`), String(body.prompt));
    } finally {
      await server.close();
    }
  });

  it('Ollama /api/generate: the guess is asked with num_predict and temperature 0', async () => {
    const server = await modelServer(() => GUESS);
    try {
      const backend = new OllamaGenerateBackend({ baseUrl: server.base, model: 'qwen2.5-coder:1.5b-base' });
      const out = await new HypothesisSource().continuation({ trusted: true, state: STATE, docKey: 'd', backend, budgetMs: 5000, maxTokens: 32, signal: new AbortController().signal });
      assert.deepStrictEqual(out, { text: GUESS, from: 'model' });
      const { url, body } = server.requests[0];
      assert.strictEqual(url, '/api/generate');
      assert.strictEqual(body.stream, false);
      assert.deepStrictEqual(body.options, { num_predict: 32, temperature: 0, stop: ['\n\n\n'] });
      assert.ok(String(body.prompt).endsWith(PREFIX));
    } finally {
      await server.close();
    }
  });

  it('end to end: the guess from the model reaches the engine, and the completion prompt holds what it found', async () => {
    const server = await modelServer((b) => (isGuess(b) ? GUESS : '  const shipping = computeShippingQuote(cart.weightKg, cart.zone);'));
    const engine = await Engine.open({ root, indexDir: path.join(indexDir, 'e2e'), dense: false });
    try {
      await engine.indexAll();
      const source = new HypothesisSource();
      const run = (file = STATE.file) => modelCompletion({
        trusted: true, state: { ...STATE, file }, backend: new OpenAiCompletionsBackend({ baseUrl: `${server.base}/v1`, model: 'coder' }),
        retrieve: (st, budgetTokens, signal, hypothetical) => engine.retrieve(st, { k: 5, budgetTokens, signal, hypothetical }),
        budget: { contextTokens: 1000, prefixTokens: 1000 }, maxTokens: 64, timeoutMs: 5000, signal: new AbortController().signal,
        hyde: { source, docKey: 'doc', budgetMs: 5000, maxTokens: 48, weight: 2 },
      });
      const result = await run();
      assert.deepStrictEqual(result?.hypothesis, { text: GUESS, from: 'model' });
      assert.strictEqual(server.requests.length, 2, 'one guess, one completion');
      assert.ok(isGuess(server.requests[0].body) && !isGuess(server.requests[1].body));
      assert.ok(String(server.requests[1].body.prompt).includes('// Path: src/shipping/rates.ts'), String(server.requests[1].body.prompt));
      assert.ok(result!.built.used.some((c) => c.file === 'src/shipping/rates.ts'));
    } finally {
      await engine.close();
      await server.close();
    }
  });

  it('over budget: a slow guess is skipped and retrieval and completion go on without it', async () => {
    const server = await modelServer((b) => (isGuess(b) ? GUESS : 'return subtotal;'), { delayMs: (b) => (isGuess(b) ? 3000 : 0) });
    try {
      const passed: Array<{ text: string; weight: number } | undefined> = [];
      const result = await modelCompletion({
        trusted: true, state: STATE, backend: new OllamaGenerateBackend({ baseUrl: server.base, model: 'm' }),
        retrieve: async (_st, _b, _s, hypothetical) => { passed.push(hypothetical); return []; },
        budget: { contextTokens: 1000, prefixTokens: 1000 }, maxTokens: 64, timeoutMs: 5000, signal: new AbortController().signal,
        hyde: { source: new HypothesisSource(), docKey: 'doc', budgetMs: 100, maxTokens: 48, weight: 1 },
      });
      assert.deepStrictEqual(result?.hypothesis, { skipped: 'over-budget' });
      assert.deepStrictEqual(passed, [undefined], 'retrieval ran once, without a guess');
      assert.strictEqual(result?.text, 'return subtotal;');
      assert.strictEqual(server.requests.length, 2);
    } finally {
      await server.close();
    }
  });

  it('the next keystroke cancels the guess: the HTTP request is aborted and the abort propagates', async () => {
    const server = await modelServer(() => GUESS, { delayMs: 5000 });
    try {
      const controller = new AbortController();
      const pending = new HypothesisSource().continuation({
        trusted: true, state: STATE, docKey: 'd', backend: new OpenAiCompletionsBackend({ baseUrl: `${server.base}/v1`, model: '' }), budgetMs: 10_000, signal: controller.signal,
      });
      while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
      controller.abort();
      await assert.rejects(pending, (e: Error) => e.name === 'AbortError');
      while (server.abandoned() === 0) await new Promise((r) => setTimeout(r, 5));
      assert.strictEqual(server.abandoned(), 1);
    } finally {
      await server.close();
    }
  });

  it('typing along the last completion or guess reuses its remainder without a request', async () => {
    const server = await modelServer(() => '  return 0;');
    try {
      const backend = new OllamaGenerateBackend({ baseUrl: server.base, model: 'm' });
      const source = new HypothesisSource();
      source.remember('doc', PREFIX, GUESS);
      const ask = (prefix: string, docKey = 'doc') => source.continuation({ trusted: true, state: { ...STATE, prefix }, docKey, backend, budgetMs: 5000, signal: new AbortController().signal });
      assert.deepStrictEqual(await ask(PREFIX + '  const shipping = compute'), { text: GUESS.slice('  const shipping = compute'.length), from: 'reused' });
      assert.strictEqual(server.requests.length, 0);
      // Another document, or typing that leaves the guess, asks the model.
      assert.deepStrictEqual(await ask(PREFIX + '  const ship', 'other'), { text: '  return 0;', from: 'model' });
      assert.deepStrictEqual(await ask(PREFIX + '  const total = '), { text: '  return 0;', from: 'model' });
      assert.strictEqual(server.requests.length, 2);
    } finally {
      await server.close();
    }
  });

  it('a secret file or an untrusted workspace sends nothing: no guess, no completion', async () => {
    const server = await modelServer(() => 'leak');
    try {
      const backend = new OpenAiCompletionsBackend({ baseUrl: `${server.base}/v1`, model: '' });
      const source = new HypothesisSource();
      const signal = new AbortController().signal;
      const secret = { ...STATE, file: 'config/.env.production', prefix: 'API_KEY=sk_live_PLANTED\n' };
      assert.deepStrictEqual(await source.continuation({ trusted: true, state: secret, docKey: 'd', backend, budgetMs: 5000, signal }), { skipped: 'secret' });
      // A file the user put on the deny-list.
      const listed = { ...STATE, file: 'src/internal/signing.ts' };
      assert.deepStrictEqual(await source.continuation({ trusted: true, state: listed, docKey: 'd', backend, budgetMs: 5000, signal, secretPatterns: ['src/internal/**'] }), { skipped: 'secret' });
      assert.deepStrictEqual(await source.continuation({ trusted: false, state: STATE, docKey: 'd', backend, budgetMs: 5000, signal }), { skipped: 'untrusted' });
      let retrieved = 0;
      const completion = await modelCompletion({
        trusted: true, state: secret, backend, retrieve: async () => { retrieved++; return []; },
        budget: { contextTokens: 1000, prefixTokens: 1000 }, maxTokens: 64, timeoutMs: 5000, signal,
        hyde: { source, docKey: 'd', budgetMs: 5000, maxTokens: 48, weight: 1 },
      });
      assert.strictEqual(completion, undefined);
      assert.strictEqual(retrieved, 0);
      assert.strictEqual(server.requests.length, 0);
    } finally {
      await server.close();
    }
  });
});
