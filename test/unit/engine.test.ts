import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { Engine } from '../../engine/src/engine';
import { committedFiles } from '../../engine/src/index/indexStore';
import type { HybridIndex } from '../../engine/src/retrieve/hybrid';
import { buildQuery } from '../../engine/src/retrieve/query';
import { WARM_SEARCHES, warmSearchPaths } from '../../engine/src/retrieve/warmSearch';
import type { EngineOptions } from '../../engine/src/api';
import { defaultModelDir } from '../../engine/src/modelPaths';
import { requireOnnxRuntime, type OnnxRuntimeLoader } from '../../engine/src/embed';
import { tempDir } from './tempDir';

const FIXTURE = path.resolve(__dirname, '../../../test/fixtures/engine-repo');

function copyFixture(): string {
  const dir = tempDir('rr-engine-');
  fs.cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

async function open(root: string, indexDir: string, extra: Partial<EngineOptions> = {}): Promise<{ engine: Engine; logs: string[] }> {
  const logs: string[] = [];
  const engine = await Engine.open({ root, indexDir, dense: false, log: (l) => logs.push(l), ...extra });
  return { engine, logs };
}

/** A retrieval fingerprint that ignores chunk ids (which differ between incremental and full builds). */
async function fingerprint(engine: Engine, queries: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const q of queries) {
    const hits = await engine.retrieve(q, { k: 5 });
    out.push(hits.map((h) => `${h.file}:${h.startLine}-${h.endLine}:${h.score.toFixed(6)}`).join(' | '));
  }
  return out;
}

describe('Engine', function () {
  this.timeout(60_000);
  let root: string;
  let indexDir: string;
  beforeEach(() => {
    root = copyFixture();
    indexDir = tempDir('rr-index-');
  });
  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(indexDir, { recursive: true, force: true });
  });

  it('indexes the fixture and finds the definition a call needs, enriched by its callees', async () => {
    const { engine } = await open(root, indexDir);
    const stats = await engine.indexAll();
    assert.strictEqual(stats.files, 4);
    assert.ok(stats.chunks >= 6, `chunks: ${stats.chunks}`);
    const hits = await engine.retrieve({ file: 'src/new.ts', prefix: 'const total = cartTotal(items);\nconst shown = applyDiscount(', line: 1 }, { k: 3 });
    assert.ok(hits.some((h) => h.file === 'lib/pricing.ts' && h.name === 'applyDiscount'), JSON.stringify(hits.map((h) => [h.file, h.name])));
    const top = hits.find((h) => h.name === 'applyDiscount')!;
    assert.ok(top.signals.symbol, 'the symbol signal found the definition of an identifier at the cursor');
    await engine.close();
  });

  it('does not re-parse unchanged files on a second index, and survives a reopen', async () => {
    const { engine } = await open(root, indexDir);
    await engine.indexAll();
    const again = await engine.indexAll();
    assert.strictEqual(again.changedFiles, 0);
    const before = await fingerprint(engine, ['discount code price', 'reserve stock warehouse']);
    await engine.close();
    const { engine: reopened } = await open(root, indexDir);
    const third = await reopened.indexAll();
    assert.strictEqual(third.changedFiles, 0);
    assert.deepStrictEqual(await fingerprint(reopened, ['discount code price', 'reserve stock warehouse']), before);
    await reopened.close();
  });

  it('a large repository leaves out the normalized field, and the decision survives reopening and shrinking', async () => {
    const manifest = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { fields: string[]; omittedForSize?: string[] };
    const normBytes = (dir: string) => fs.statSync(path.join(dir, committedFiles(dir).bases.normalized)).size;
    // Small: the default weights' normalized field is built.
    const smallDir = tempDir('rr-index-small-');
    const small = await Engine.open({ root, indexDir: smallDir, dense: false });
    await small.indexAll();
    await small.close();
    assert.deepStrictEqual(manifest(smallDir).fields, ['normalized']);
    assert.strictEqual(manifest(smallDir).omittedForSize, undefined);

    // "Large" (4 files against a threshold of 3): left out, recorded, and its file holds no terms.
    const logs: string[] = [];
    const large = await Engine.open({ root, indexDir, dense: false, log: (l) => logs.push(l) }, { seams: { largeRepoFiles: 3 } });
    await large.indexAll();
    const hitsLarge = await fingerprint(large, ['discount code price']);
    await large.close();
    assert.deepStrictEqual(manifest(indexDir).fields, []);
    assert.deepStrictEqual(manifest(indexDir).omittedForSize, ['normalized']);
    assert.ok(normBytes(indexDir) < normBytes(smallDir) / 2, `normalized field ${normBytes(indexDir)} B vs ${normBytes(smallDir)} B when built`);
    assert.ok(logs.some((l) => /normalized field is left out/.test(l)), logs.join('\n'));
    fs.rmSync(smallDir, { recursive: true, force: true });

    // Reopened under the default threshold (the repository is now "small"): no rebuild, no flip.
    const { engine: reopened, logs: reopenLogs } = await open(root, indexDir);
    const again = await reopened.indexAll();
    assert.strictEqual(again.changedFiles, 0);
    assert.ok(!reopenLogs.some((l) => /cannot be used|rebuild/.test(l)), reopenLogs.join('\n'));
    assert.deepStrictEqual(await fingerprint(reopened, ['discount code price']), hitsLarge);
    await reopened.close();
    assert.deepStrictEqual(manifest(indexDir).omittedForSize, ['normalized']);
  });

  it('a large repository gets the smaller lexical work budget; the option wins', async () => {
    const budget = (e: Engine) => e['index'].lexical.maxQueryPostings;
    const small = await Engine.open({ root, indexDir, dense: false });
    await small.indexAll();
    assert.strictEqual(budget(small), 250_000);
    await small.close();
    // "Large" (4 files against a threshold of 3): on indexAll, and again when an engine opens it.
    const large = await Engine.open({ root, indexDir, dense: false }, { seams: { largeRepoFiles: 3 } });
    assert.strictEqual(budget(large), 150_000);
    await large.indexAll();
    assert.strictEqual(budget(large), 150_000);
    await large.close();
    const chosen = await Engine.open({ root, indexDir, dense: false, maxQueryPostings: 42_000 }, { seams: { largeRepoFiles: 3 } });
    assert.strictEqual(budget(chosen), 42_000);
    await chosen.indexAll();
    assert.strictEqual(budget(chosen), 42_000);
    await chosen.close();
  });

  it('incremental add, change and delete give the same results as a full rebuild', async () => {
    const { engine } = await open(root, indexDir);
    await engine.indexAll();
    fs.writeFileSync(path.join(root, 'lib/shipping.ts'), 'export function shippingCost(weightKg: number): number {\n  return 499 + Math.ceil(weightKg) * 120;\n}\n');
    await engine.updateFile('lib/shipping.ts');
    fs.writeFileSync(path.join(root, 'lib/pricing.ts'), fs.readFileSync(path.join(root, 'lib/pricing.ts'), 'utf8').replace('VIP25: 0.25', 'VIP30: 0.3'));
    await engine.updateFile('lib/pricing.ts');
    fs.rmSync(path.join(root, 'src/checkout.py'));
    await engine.removeFile('src/checkout.py');
    const queries = ['shipping cost weight', 'VIP30 discount', 'checkout order reserve', 'restock sku amount'];
    const incremental = await fingerprint(engine, queries);
    await engine.close();

    const freshDir = tempDir('rr-index-');
    const { engine: full } = await open(root, freshDir);
    await full.indexAll();
    assert.deepStrictEqual(incremental, await fingerprint(full, queries));
    assert.strictEqual(full.stats().files, 4);
    await full.close();
    fs.rmSync(freshDir, { recursive: true, force: true });
  });

  for (const damage of ['truncate', 'flip'] as const) {
    it(`detects a ${damage === 'truncate' ? 'truncated' : 'corrupted'} index file, says so, and rebuilds`, async () => {
      const { engine } = await open(root, indexDir);
      await engine.indexAll();
      const expected = await fingerprint(engine, ['discount code price']);
      await engine.close();
      const target = path.join(indexDir, committedFiles(indexDir).bases.lexical);
      const buf = fs.readFileSync(target);
      if (damage === 'truncate') fs.writeFileSync(target, buf.subarray(0, buf.length >> 1));
      else { buf[buf.length - 3] ^= 0xff; fs.writeFileSync(target, buf); }
      const { engine: again, logs } = await open(root, indexDir);
      assert.ok(logs.some((l) => /lexical-\d+\.bin does not match its checksum.*rebuilding/.test(l)), logs.join('\n'));
      const stats = await again.indexAll();
      assert.strictEqual(stats.changedFiles, 4, 'every file is indexed again');
      assert.deepStrictEqual(await fingerprint(again, ['discount code price']), expected);
      await again.close();
    });
  }

  it('removing a deleted directory drops every file under it', async () => {
    const { engine } = await open(root, indexDir);
    await engine.indexAll();
    const chunksBefore = engine.stats().chunks;
    fs.rmSync(path.join(root, 'lib'), { recursive: true });
    await engine.removeFile('lib');
    assert.strictEqual(engine.stats().files, 2);
    assert.ok(engine.stats().chunks < chunksBefore, 'the chunk count drops at once, not at the next save');
    const hits = await engine.retrieve('discount code price warehouse stock', { k: 10 });
    assert.ok(hits.every((h) => !h.file.startsWith('lib/')), JSON.stringify(hits.map((h) => h.file)));
    await engine.close();
  });

  it('two engines on one index: the second reads it and never writes it', async () => {
    const { engine: first } = await open(root, indexDir);
    await first.indexAll();
    const { engine: second, logs } = await open(root, indexDir);
    assert.strictEqual(first.writable, true);
    assert.strictEqual(second.writable, false);
    assert.ok(logs.some((l) => /written by process \d+/.test(l)), logs.join('\n'));
    const manifest = path.join(indexDir, 'manifest.json');
    const before = fs.statSync(manifest).mtimeMs;
    await second.updateFile('src/cart.ts', 'export function fromSecondWindow() { return 1; }\n');
    await second.flush();
    assert.strictEqual(fs.statSync(manifest).mtimeMs, before, 'the reader did not write the index');
    assert.strictEqual((await second.retrieve('from second window', { k: 1 }))[0].name, 'fromSecondWindow');
    await second.close();
    await first.close();
    const { engine: third } = await open(root, indexDir);
    assert.strictEqual(third.writable, true, 'the lock is free once the writer closed');
    await third.close();
  });

  it('the engine that writes the index has its writer thread from the open, not from a save beside a query; a reader has none', async () => {
    // Started at a save (after an idle end), the thread's start made a query beside it wait (docs/investigations/first-edit-query-wait.md).
    const storeOf = (e: Engine) => (e as unknown as { ws: { store: { writerStarted: boolean } } }).ws.store;
    const { engine: writer } = await open(root, indexDir);
    assert.strictEqual(storeOf(writer).writerStarted, true, 'started at open');
    const { engine: reader } = await open(root, indexDir);
    assert.strictEqual(storeOf(reader).writerStarted, false, 'a reader writes nothing');
    await writer.indexAll();
    await writer.updateFile('lib/pricing.ts', 'export function warehouseDiscount() { return 0; }\n');
    await writer.flush();
    assert.strictEqual(storeOf(writer).writerStarted, true, 'still there after a save');
    await reader.close();
    await writer.close();
    assert.strictEqual(storeOf(writer).writerStarted, false, 'ended by close');
  });

  it('warming the update path after a reopen loads the grammar of every indexed language that has one, and indexes nothing', async () => {
    fs.writeFileSync(path.join(root, 'tools.py'), 'def restock(item):\n    return item\n');
    fs.writeFileSync(path.join(root, 'NOTES.txt'), 'restock notes\n');
    const { engine } = await open(root, indexDir);
    await engine.indexAll();
    await engine.close();
    const { engine: again } = await open(root, indexDir);
    const before = again.stats();
    const grammars = (again as unknown as { chunker: { loader: { loading: Map<string, unknown> } } }).chunker.loader.loading;
    const loadedBefore = [...grammars.keys()];
    const warmed = await again.warmUpdatePath();
    assert.deepStrictEqual([...warmed].sort(), ['python', 'typescript'], 'the indexed languages with a grammar (the .txt file has none)');
    assert.ok(!loadedBefore.includes('python'), `a reopened engine loads grammars on first use: ${loadedBefore}`);
    assert.ok(grammars.has('python') && grammars.has('typescript'), [...grammars.keys()].join(', '));
    assert.deepStrictEqual(again.stats(), before, 'nothing indexed');
    await again.close();
  });

  it('the search warm-up searches a throwaway index holding unmerged and deleted documents, and leaves the real index as it was', async () => {
    const { engine } = await open(root, indexDir);
    await engine.indexAll();
    const queries = ['discount code price', 'reserve stock warehouse'];
    const before = await fingerprint(engine, queries);
    const index = (engine as unknown as { index: HybridIndex }).index;
    const size = index.size;
    let turns = 0;
    const report = await warmSearchPaths(index, (prefix) => buildQuery('warm-up.ts', prefix), async () => void turns++);
    // 48 merged, 8 added after the merge, 4 of the merged removed: the paths a first edit opens.
    assert.deepStrictEqual({ ...report, hits: report.hits > 0 }, { searches: WARM_SEARCHES, hits: true, fromUnmerged: report.fromUnmerged, unmergedDocs: 12, liveDocs: 52 });
    assert.ok(report.fromUnmerged > 0, 'documents of the unmerged segment are found');
    assert.ok(turns >= WARM_SEARCHES / 25, `it lets requests in between (${turns} turns)`);
    assert.strictEqual(index.size, size);
    assert.deepStrictEqual(await fingerprint(engine, queries), before);
    await engine.close();
  });

  it('lexical postings are read from the index files: a reader keeps its files while the writer saves new ones, and closing releases them', async () => {
    const openFds = () => (fs.existsSync('/proc/self/fd') ? fs.readdirSync('/proc/self/fd').length : -1);
    const fds = openFds();
    const queries = ['discount code price', 'reserve stock warehouse'];
    const { engine: first } = await open(root, indexDir);
    await first.indexAll();
    const before = await fingerprint(first, queries);
    const { engine: second } = await open(root, indexDir);
    assert.deepStrictEqual(await fingerprint(second, queries), before, 'the reader, from the files');
    const lexical = path.join(indexDir, committedFiles(indexDir).bases.lexical);
    await first.updateFile('lib/pricing.ts', 'export function warehouseDiscount() { return 0; }\n');
    await first.flush();
    assert.strictEqual(path.join(indexDir, committedFiles(indexDir).bases.lexical), lexical, 'one edit adds a delta segment, the base stays');
    assert.strictEqual(committedFiles(indexDir).deltas.length, 1);
    // A merge gives the writer a new base; the commit after it deletes the old file.
    first['index'].lexical.compact();
    await first.updateFile('lib/pricing.ts', 'export function warehouseDiscount() { return 1; }\n');
    await first.flush();
    assert.notStrictEqual(path.join(indexDir, committedFiles(indexDir).bases.lexical), lexical, 'the writer saved a new base');
    assert.ok(!fs.existsSync(lexical), 'the replaced base was deleted after the commit');
    assert.deepStrictEqual(await fingerprint(second, queries), before, 'the reader still reads the file it opened');
    assert.notDeepStrictEqual(await fingerprint(first, queries), before, 'the writer reads its new file');
    await second.close();
    await first.close();
    const { engine: third } = await open(root, indexDir);
    assert.strictEqual((await third.retrieve('warehouse discount', { k: 1 }))[0].name, 'warehouseDiscount');
    await third.close();
    if (fds >= 0) assert.strictEqual(openFds(), fds, 'no file left open');
  });

  it('a lexical file truncated while in use fails the query with an error instead of wrong results', async () => {
    const { engine } = await open(root, indexDir);
    await engine.indexAll();
    fs.truncateSync(path.join(indexDir, committedFiles(indexDir).bases.lexical), 100); // in place: the open descriptor sees it
    await assert.rejects(engine.retrieve('discount code price', { k: 3 }), /lexical-\d+\.bin ended early|outside/);
    await engine.close();
  });

  it('keeps unsaved buffers: an updated buffer is searchable before it is saved', async () => {
    const { engine } = await open(root, indexDir);
    await engine.indexAll();
    await engine.updateFile('src/cart.ts', 'export function loyaltyPoints(total: number) {\n  return Math.floor(total / 1000);\n}\n');
    const hits = await engine.retrieve('loyalty points total', { k: 2 });
    assert.strictEqual(hits[0].name, 'loyaltyPoints');
    assert.match(hits[0].text, /Math\.floor\(total \/ 1000\)/);
    await engine.close();
  });

  it('with the shipped model, dense retrieval runs and reports its signal', async function () {
    const modelDir = defaultModelDir();
    if (!modelDir) this.skip();
    const { engine } = await open(root, indexDir, { dense: true, modelDir });
    await engine.indexAll();
    const hits = await engine.retrieve('how much stock is left for a product', { k: 4 });
    assert.ok(hits.some((h) => h.signals.dense !== undefined));
    await engine.close();
  });

  it('lexicalOnly ranks without the model: no query embedded, no dense rank, the ranking of the dense signal weighted 0', async function () {
    const modelDir = defaultModelDir();
    if (!modelDir) this.skip();
    const { engine } = await open(root, indexDir, { dense: true, modelDir });
    await engine.indexAll();
    const embedder = (engine as unknown as { embedder: { embedQueries(texts: string[]): Promise<Float32Array[]> } }).embedder;
    let queries = 0;
    const embedQueries = embedder.embedQueries.bind(embedder);
    embedder.embedQueries = (texts) => ((queries += texts.length), embedQueries(texts));
    const state = { file: 'lib/pricing.ts', language: 'typescript', prefix: 'export function total(cart: Cart) {\n  const stock = ', line: 1 };
    const quick = await engine.retrieve(state, { budgetTokens: 512, lexicalOnly: true });
    assert.strictEqual(queries, 0, 'the query was not embedded');
    assert.ok(quick.length > 0 && quick.every((h) => h.signals.dense === undefined));
    assert.deepStrictEqual(quick, await engine.retrieve(state, { budgetTokens: 512 }, { dense: 0, hyde: 0 }));
    const full = await engine.retrieve(state, { budgetTokens: 512 });
    assert.ok((queries as number) === 1 && full.some((h) => h.signals.dense !== undefined), 'without the option the model is used');
    await engine.close();
  });

  it('an unsaved-buffer update re-embeds only the chunks that changed, and the save after it none', async function () {
    const modelDir = defaultModelDir();
    if (!modelDir) this.skip();
    const { engine } = await open(root, indexDir, { dense: true, modelDir });
    await engine.indexAll();
    const embedder = (engine as unknown as { embedder: { embed(texts: string[]): Promise<Float32Array[]> } }).embedder;
    const embedded: string[] = [];
    const embed = embedder.embed.bind(embedder);
    embedder.embed = (texts) => {
      embedded.push(...texts);
      return embed(texts);
    };
    const original = fs.readFileSync(path.join(root, 'lib/pricing.ts'), 'utf8');
    const edited = original.replace('return Math.round(amount * (1 - rate));', 'return Math.round(amount * (1 - rate) * 100) / 100;');
    await engine.updateFile('lib/pricing.ts', edited);
    const first = embedded.length;
    assert.ok(first >= 2, `the first update of a file embeds its chunks (${first})`);
    embedded.length = 0;
    await engine.updateFile('lib/pricing.ts', edited.replace('/ 100;', '/ 1000;'));
    assert.strictEqual(embedded.length, 1, `one chunk changed: ${JSON.stringify(embedded)}`);
    assert.match(embedded[0], /\/ 1000/);
    embedded.length = 0;
    fs.writeFileSync(path.join(root, 'lib/pricing.ts'), edited.replace('/ 100;', '/ 1000;'));
    await engine.updateFile('lib/pricing.ts');
    assert.strictEqual(embedded.length, 0, 'the saved text was embedded as the buffer already');
    const hits = await engine.retrieve('apply the discount code rate to the amount', { k: 3 });
    assert.ok(hits.some((h) => h.name === 'applyDiscount' && h.signals.dense !== undefined));
    await engine.close();
  });

  describe('a user-configured model (reporecall.model.directory)', () => {
    /** A model directory whose model.onnx is not an ONNX file (a truncated download, say). */
    function corruptModelDir(shipped: string): string {
      const dir = tempDir('rr-bad-model-');
      fs.copyFileSync(path.join(shipped, 'tokenizer.json'), path.join(dir, 'tokenizer.json'));
      fs.writeFileSync(path.join(dir, 'model.onnx'), Buffer.from('<html>404 Not Found</html>'));
      return dir;
    }

    it('one that cannot be loaded falls back to the shipped model, says why, and still retrieves densely', async function () {
      const shipped = defaultModelDir();
      if (!shipped) this.skip();
      const bad = corruptModelDir(shipped!);
      const { engine, logs } = await open(root, indexDir, { dense: true, modelDir: bad, fallbackModelDir: shipped });
      const stats = await engine.indexAll();
      assert.strictEqual(stats.modelDir, shipped);
      assert.ok(stats.modelWarning?.includes(bad), stats.modelWarning);
      assert.match(stats.modelWarning!, /could not be loaded/);
      assert.ok(logs.some((l) => l === stats.modelWarning), 'the reason is logged');
      const hits = await engine.retrieve('how much stock is left for a product', { k: 4 });
      assert.ok(hits.some((h) => h.signals.dense !== undefined));
      await engine.close();
    });

    it('one that cannot be loaded, with no fallback, is an error that names the file', async function () {
      const shipped = defaultModelDir();
      if (!shipped) this.skip();
      const bad = corruptModelDir(shipped!);
      await assert.rejects(open(root, indexDir, { dense: true, modelDir: bad }), (err: Error) => err.message.includes(path.join(bad, 'model.onnx')));
    });

    it('is used instead of the shipped one, and switching back rebuilds the vectors for the new model', async function () {
      const shipped = defaultModelDir();
      const other = path.resolve(__dirname, '../../../models/reference-use-lite');
      if (!shipped || !fs.existsSync(path.join(other, 'tokenizer.json')) || path.resolve(shipped) === other) this.skip();
      const first = await open(root, indexDir, { dense: true, modelDir: other, fallbackModelDir: shipped });
      const before = await first.engine.indexAll();
      assert.strictEqual(before.modelDir, other);
      assert.strictEqual(before.modelWarning, undefined);
      await first.engine.close();
      const second = await open(root, indexDir, { dense: true, modelDir: shipped });
      assert.ok(second.logs.some((l) => /built with model/.test(l)), `expected a model-change rebuild in: ${second.logs.join(' | ')}`);
      const after = await second.engine.indexAll();
      assert.strictEqual(after.modelDir, shipped);
      assert.strictEqual(after.chunks, before.chunks);
      const hits = await second.engine.retrieve('how much stock is left for a product', { k: 4 });
      assert.ok(hits.some((h) => h.signals.dense !== undefined));
      await second.engine.close();
    });
  });

  describe('where onnxruntime-node cannot be loaded (darwin-x64 has no binary; a wrong arch; a dlopen error)', () => {
    /** What Node throws when the binding for this platform is not in the package (a require stack follows). */
    function missingBinding(): OnnxRuntimeLoader {
      let calls = 0;
      const load = (): never => {
        calls++;
        throw new Error("Cannot find module '../bin/napi-v6/darwin/x64/onnxruntime_binding.node'\nRequire stack:\n- /ext/node_modules/onnxruntime-node/dist/binding.js");
      };
      return Object.assign(load, { calls: () => calls });
    }
    const editorState = { file: 'src/new.ts', prefix: 'const total = cartTotal(items);\nconst shown = applyDiscount(', line: 1 };

    it('opens, indexes and retrieves with the lexical and symbol signals, and says why once in modelWarning', async function () {
      const shipped = defaultModelDir();
      if (!shipped) this.skip(); // with a model present, the dense signal would otherwise be on
      const load = missingBinding() as OnnxRuntimeLoader & { calls(): number };
      const logs: string[] = [];
      const engine = await Engine.open({ root, indexDir, dense: true, modelDir: shipped, log: (l) => logs.push(l) }, { hooks: { loadOnnxRuntime: load } });
      const stats = await engine.indexAll();
      assert.strictEqual(stats.files, 4);
      assert.ok(stats.chunks >= 6, `chunks: ${stats.chunks}`);
      assert.strictEqual(stats.modelDir, null, 'no model in use');
      assert.match(stats.modelWarning ?? '', /^the ONNX runtime is not available on \w+-\w+: Cannot find module '.*onnxruntime_binding\.node'; completions and search use the lexical and symbol signals only$/);
      assert.ok(!stats.modelWarning!.includes('Require stack'), 'only the first line of the error');
      assert.deepStrictEqual(logs.filter((l) => l === stats.modelWarning).length, 1, 'logged once');
      assert.strictEqual(load.calls(), 1);

      const hits = await engine.retrieve(editorState, { k: 3 });
      const hit = hits.find((h) => h.file === 'lib/pricing.ts' && h.name === 'applyDiscount');
      assert.ok(hit, JSON.stringify(hits.map((h) => [h.file, h.name])));
      assert.ok(hit.signals.symbol !== undefined && hit.signals.bm25 !== undefined, JSON.stringify(hit.signals));
      assert.ok(hits.every((h) => h.signals.dense === undefined), 'no dense signal');
      const text = await engine.retrieve('loyalty points total discount code', { k: 3 });
      assert.ok(text.length > 0 && text.every((h) => h.signals.dense === undefined));
      // A second index run and a reopen keep the same account (the index is a dense-off one).
      assert.strictEqual((await engine.indexAll()).modelWarning, stats.modelWarning);
      await engine.close();
    });

    it('ranks exactly as an engine with the dense signal switched off', async () => {
      const off = await open(root, indexDir);
      await off.engine.indexAll();
      const queries = ['how much stock is left for a product', 'apply the discount code', 'format a price'];
      const expected = await fingerprint(off.engine, queries);
      await off.engine.close();
      const otherIndex = tempDir('rr-index-');
      try {
        const engine = await Engine.open({ root, indexDir: otherIndex, dense: true }, { hooks: { loadOnnxRuntime: missingBinding() } });
        await engine.indexAll();
        assert.deepStrictEqual(await fingerprint(engine, queries), expected);
        await engine.close();
      } finally {
        fs.rmSync(otherIndex, { recursive: true, force: true });
      }
    });

    it('with reporecall.index.dense off, the runtime is never asked for and nothing is reported', async () => {
      const load = missingBinding() as OnnxRuntimeLoader & { calls(): number };
      const engine = await Engine.open({ root, indexDir, dense: false }, { hooks: { loadOnnxRuntime: load } });
      const stats = await engine.indexAll();
      assert.strictEqual(load.calls(), 0);
      assert.strictEqual(stats.modelWarning, undefined);
      await engine.close();
    });

    it('when it loads, nothing changes: the same model, dense hits, the same ranking, no warning', async function () {
      const shipped = defaultModelDir();
      if (!shipped) this.skip();
      const queries = ['how much stock is left for a product', 'apply the discount code'];
      const plain = await open(root, indexDir, { dense: true, modelDir: shipped });
      const plainStats = await plain.engine.indexAll();
      const expected = await fingerprint(plain.engine, queries);
      await plain.engine.close();
      const otherIndex = tempDir('rr-index-');
      try {
        let calls = 0;
        const injected: OnnxRuntimeLoader = () => (calls++, requireOnnxRuntime());
        const engine = await Engine.open({ root, indexDir: otherIndex, dense: true, modelDir: shipped }, { hooks: { loadOnnxRuntime: injected } });
        const stats = await engine.indexAll();
        assert.strictEqual(calls, 1);
        assert.strictEqual(stats.modelDir, shipped);
        assert.strictEqual(stats.modelWarning, undefined);
        assert.strictEqual(stats.chunks, plainStats.chunks);
        const hits = await engine.retrieve('how much stock is left for a product', { k: 4 });
        assert.ok(hits.some((h) => h.signals.dense !== undefined));
        assert.deepStrictEqual(await fingerprint(engine, queries), expected);
        await engine.close();
      } finally {
        fs.rmSync(otherIndex, { recursive: true, force: true });
      }
    });
  });
});
