// One retrieval, two answers (RetrieveOptions.onQuick): the lexical signals' answer is given before
// the embedding model runs, and the full answer reuses their rankings. Judged against the two
// separate requests it replaces (lexicalOnly, then the plain retrieval): the same chunks, in the
// engine and through the engine's own process, with the model on the request's path.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Engine } from '../../engine/src/engine';
import { defaultModelDir } from '../../engine/src/modelPaths';
import { EngineClient } from '../../engine/src/rpc/client';
import type { EditorState, RetrievedChunk } from '../../engine/src/public';
import { tempDir } from './tempDir';

const FIXTURE = path.resolve(__dirname, '../../../test/fixtures/engine-repo');
const WORKER = path.resolve(__dirname, '../../engine/src/rpc/worker.js');

const STATES: EditorState[] = [
  { file: 'lib/pricing.ts', language: 'typescript', prefix: 'export function total(cart: Cart) {\n  const stock = ', line: 1 },
  { file: 'src/cart.ts', language: 'typescript', prefix: 'import { discount } from "../lib/pricing";\n\nexport function checkout(items: Item[]) {\n  const price = discount(', line: 3 },
];

describe('retrieve with onQuick: the lexical answer first, the full one after, from one request', function () {
  this.timeout(120_000);
  let work: string;
  let modelDir: string | undefined;

  before(function () {
    modelDir = defaultModelDir();
    if (!modelDir) this.skip();
    work = tempDir('rr-quick-');
    fs.cpSync(FIXTURE, path.join(work, 'repo'), { recursive: true });
  });
  after(() => work && fs.rmSync(work, { recursive: true, force: true }));

  it('in the engine: the quick answer comes before the query is embedded and equals lexicalOnly; the full one equals the plain retrieval', async () => {
    const engine = await Engine.open({ root: path.join(work, 'repo'), indexDir: path.join(work, 'idx-engine'), dense: true, modelDir });
    try {
      await engine.indexAll();
      const embedder = (engine as unknown as { embedder: { embedQueries(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> } }).embedder;
      let embedded = 0;
      const embedQueries = embedder.embedQueries.bind(embedder);
      embedder.embedQueries = (texts, signal) => ((embedded += texts.length), embedQueries(texts, signal));
      for (const state of STATES) {
        const quick: Array<{ chunks: RetrievedChunk[]; embeddedBefore: number }> = [];
        const before = embedded;
        const full = await engine.retrieve(state, { budgetTokens: 512, onQuick: (chunks) => quick.push({ chunks, embeddedBefore: embedded - before }) });
        assert.strictEqual(quick.length, 1, 'one quick answer');
        assert.strictEqual(quick[0].embeddedBefore, 0, 'given before the model ran');
        assert.ok(quick[0].chunks.length > 0 && quick[0].chunks.every((c) => c.signals.dense === undefined));
        assert.deepStrictEqual(quick[0].chunks, await engine.retrieve(state, { budgetTokens: 512, lexicalOnly: true }));
        assert.ok(full.some((c) => c.signals.dense !== undefined), 'the full answer has the model\'s signal');
        assert.deepStrictEqual(full, await engine.retrieve(state, { budgetTokens: 512 }), 'the reused rankings change nothing');
      }
    } finally {
      await engine.close();
    }
  });

  it('through the engine process: the quick answer arrives as a partial before the result; cancelled after it, nothing more arrives', async () => {
    const client = new EngineClient({ workerPath: WORKER, init: { options: { root: path.join(work, 'repo'), indexDir: path.join(work, 'idx-client'), dense: true, modelDir } }, recycleAfterFiles: 0 });
    try {
      await client.indexAll();
      const state = STATES[0];
      const events: string[] = [];
      let quick: RetrievedChunk[] = [];
      const full = await client.retrieve(state, { budgetTokens: 512, onQuick: (chunks) => (events.push('quick'), (quick = chunks)) }).then((r) => (events.push('full'), r));
      assert.deepStrictEqual(events, ['quick', 'full']);
      assert.deepStrictEqual(quick, await client.retrieve(state, { budgetTokens: 512, lexicalOnly: true }));
      assert.deepStrictEqual(full, await client.retrieve(state, { budgetTokens: 512 }));

      const controller = new AbortController();
      const after: string[] = [];
      const cancelled = client.retrieve(STATES[1], { budgetTokens: 512, signal: controller.signal, onQuick: () => (after.push('quick'), controller.abort()) });
      await assert.rejects(cancelled, (e: Error) => e.name === 'AbortError');
      await client.retrieve(STATES[1], { budgetTokens: 512 }); // the engine has answered whatever it still had in flight
      assert.deepStrictEqual(after, ['quick'], 'nothing after the cancellation');
    } finally {
      await client.close();
    }
  });
});
