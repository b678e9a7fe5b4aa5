// The segmented index store (engine/src/index/indexStore.ts, manifest.ts, deltaFile.ts): a save
// writes a delta segment for what changed, merges write new bases, too many deltas fold into one,
// and a reopened index equals the one that was saved — its tables, and its lexical fields' scores,
// which also equal exhaustive BM25 over the live documents.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { Engine } from '../../engine/src/engine';
import { createRequire } from 'module';
import { committedFiles, IndexStore, type LexicalFields } from '../../engine/src/index/indexStore';
import { walkBytes } from '../../engine/src/index/diskSize';
import { emptyTables, type IndexTables } from '../../engine/src/index/tables';
import { STORE_FORMAT_VERSION } from '../../engine/src/index/manifest';
import { Bm25Index } from '../../engine/src/lexical/bm25';
import { generateRepo } from '../bench/scale/generate';
import { tempDir } from './tempDir';

const FIXTURE = path.resolve(__dirname, '../../../test/fixtures/engine-repo');
const rng = (seed: number) => () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
const zipfTerm = (rand: () => number, vocab: number) => `t${Math.floor(Math.exp(rand() * Math.log(vocab + 1))) - 1}`;
const FIELDS = ['lexical', 'docField', 'normalized'] as const;

/** Exhaustive Okapi BM25 (k1 1.2, b 0.75) over plain maps, terms summed in the index's documented order. */
function reference(docs: Map<number, string[]>, query: string[], k: number): Array<{ id: number; score: number }> {
  let total = 0;
  const df = new Map<string, number>();
  const tfs = new Map<number, Map<string, number>>();
  for (const [id, terms] of docs) {
    total += terms.length;
    const tf = new Map<string, number>();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    tfs.set(id, tf);
  }
  const avg = total / docs.size || 1;
  const qtf = new Map<string, number>();
  for (const t of query) if (df.has(t)) qtf.set(t, (qtf.get(t) ?? 0) + 1);
  const weights = [...qtf].map(([t, q]) => ({ t, w: Math.log(1 + (docs.size - df.get(t)! + 0.5) / (df.get(t)! + 0.5)) * q }));
  weights.sort((x, y) => y.w - x.w || (x.t < y.t ? -1 : x.t > y.t ? 1 : 0));
  const out: Array<{ id: number; score: number }> = [];
  for (const [id, terms] of docs) {
    let score = 0;
    for (const { t, w } of weights) {
      const f = tfs.get(id)!.get(t);
      if (f) score += (w * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * terms.length) / avg));
    }
    if (score > 0) out.push({ id, score });
  }
  out.sort((x, y) => y.score - x.score || x.id - y.id);
  return out.slice(0, k);
}

/** `run()`'s value and how many directories the real `fs` listed meanwhile. */
function countListings<T>(run: () => T): { value: T; listings: number } {
  const nodeFs = createRequire(__filename)('fs') as { readdirSync: typeof fs.readdirSync };
  const real = nodeFs.readdirSync;
  let listings = 0;
  nodeFs.readdirSync = ((...args: Parameters<typeof fs.readdirSync>) => (listings++, real(...args))) as typeof fs.readdirSync;
  try {
    return { value: run(), listings };
  } finally {
    nodeFs.readdirSync = real;
  }
}

function assertSameRanking(actual: Array<{ id: number; score: number }>, expected: Array<{ id: number; score: number }>, what: string): void {
  assert.deepStrictEqual(actual.map((r) => r.id), expected.map((r) => r.id), what);
  for (let i = 0; i < actual.length; i++) assert.ok(Math.abs(actual[i].score - expected[i].score) < 1e-9, `${what}: score ${i}`);
}

/** The tables as plain data: per file its entry, chunk rows and definitions. */
function tablesSnapshot(t: IndexTables): unknown {
  const out: Record<string, unknown> = {};
  for (const rel of t.files.relPaths().sort()) {
    out[rel] = {
      entry: t.files.get(rel),
      rows: t.chunks.idsOfFile(rel).map((id) => t.chunks.get(id)),
      defs: t.defs.ofFile(rel).map((d) => [d.name, d.signature, d.chunkId]),
    };
  }
  return { files: out, chunks: t.chunks.size, nextChunkId: t.nextChunkId };
}

describe('index segments', function () {
  this.timeout(120_000);
  let work: string;
  beforeEach(() => (work = tempDir('rr-segments-')));
  afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

  it('random file adds, replaces and removes across saves, merges and folds reopen to equal tables and exhaustive BM25 scores', async () => {
    const rand = rng(7);
    const dir = path.join(work, 'index');
    const policy = { maxDeltas: 4, tablesRebaseMinFiles: 6, lexicalMergeMinDocs: 24 };
    let store = new IndexStore(dir, policy);
    let tables = emptyTables();
    let fields: LexicalFields = { lexical: new Bm25Index({ mergeMinDocs: 24 }), docField: new Bm25Index({ mergeMinDocs: 24 }), normalized: new Bm25Index({ mergeMinDocs: 24 }) };
    /** Live documents per field, for the exhaustive reference. */
    const live = FIELDS.map(() => new Map<number, string[]>());
    const seen = { bases: new Set<string>(), folds: 0, deltaSaves: 0 };
    const dropFile = (rel: string) => {
      for (const id of tables.chunks.idsOfFile(rel)) {
        tables.chunks.remove(id);
        FIELDS.forEach((f, i) => (fields[f].remove(id), live[i].delete(id)));
      }
      tables.defs.removeFile(rel);
      tables.files.delete(rel);
    };
    for (let round = 0; round < 40; round++) {
      const ops = 1 + Math.floor(rand() * (round < 3 ? 12 : 4));
      for (let o = 0; o < ops; o++) {
        const rel = `src/f${Math.floor(rand() * 30)}.ts`;
        dropFile(rel);
        if (rand() < 0.25) continue; // removed
        const n = 1 + Math.floor(rand() * 4);
        const defs = [];
        for (let c = 0; c < n; c++) {
          const id = tables.nextChunkId++;
          const name = `fn${id}`;
          tables.chunks.add({ id, file: rel, startLine: c * 10, endLine: c * 10 + 9, kind: 'function', name, defines: [name] });
          defs.push({ name, file: rel, signature: `function ${name}(x: number): number`, chunkId: id });
          FIELDS.forEach((f, i) => {
            const terms = Array.from({ length: 1 + Math.floor(rand() * 25) }, () => zipfTerm(rand, 40 + 20 * i));
            fields[f].add(id, terms);
            live[i].set(id, terms);
          });
        }
        tables.files.set(rel, { hash: (round * 100 + o).toString(16).padStart(40, '0'), size: 100 + o, mtimeMs: round, language: 'typescript' });
        tables.defs.setFile(rel, defs);
      }
      const before = fs.existsSync(dir) ? committedFiles(dir).deltas.length : 0;
      await store.saveAsync({ tables, lexical: fields, vectors: undefined, modelId: null, dim: 0, fields: ['docField', 'normalized'] });
      const after = committedFiles(dir);
      Object.values(after.bases).forEach((b) => seen.bases.add(b));
      if (after.deltas.length <= before && before > 0) seen.folds++;
      else seen.deltaSaves++;
      assert.ok(after.deltas.length <= policy.maxDeltas, `round ${round}: ${after.deltas.length} deltas`);
      // Nothing unlisted stays behind.
      const listed = new Set([...Object.values(after.bases), ...after.deltas, 'manifest.json']);
      assert.deepStrictEqual(fs.readdirSync(dir).filter((f) => !listed.has(f)), [], `round ${round}: unlisted files`);
      // The folder's size is kept by the saves and deletions: walked only the first time (and after a reopen).
      const size = countListings(() => store.diskBytes());
      assert.strictEqual(size.value, walkBytes(dir), `round ${round}: index bytes`);
      if (round % 5 !== 0) assert.strictEqual(size.listings, 0, `round ${round}: the index folder was walked`);

      const reader = new IndexStore(dir, policy);
      const loaded = reader.load({ modelId: null, dim: 0, fields: ['docField', 'normalized'] });
      if ('error' in loaded) throw new Error(`round ${round}: ${loaded.error}`);
      assert.deepStrictEqual(tablesSnapshot(loaded.tables), tablesSnapshot(tables), `round ${round}: tables`);
      for (let q = 0; q < 4; q++) {
        FIELDS.forEach((f, i) => {
          const query = Array.from({ length: 1 + Math.floor(rand() * 20) }, () => zipfTerm(rand, 70));
          const k = 1 + Math.floor(rand() * 10);
          const expected = reference(live[i], query, k);
          assertSameRanking(fields[f].search(query, k), expected, `round ${round} ${f}: writer vs exhaustive`);
          assertSameRanking(loaded[f].search(query, k), expected, `round ${round} ${f}: reopened vs exhaustive`);
        });
      }
      if (round % 5 === 4) {
        // Go on from the reopened index: its later deltas must build on what it replayed.
        FIELDS.forEach((f) => fields[f].close());
        await store.closeWriter();
        store = reader;
        tables = loaded.tables;
        fields = { lexical: loaded.lexical, docField: loaded.docField, normalized: loaded.normalized };
      } else {
        FIELDS.forEach((f) => loaded[f].close());
      }
    }
    FIELDS.forEach((f) => fields[f].close());
    await store.closeWriter();
    assert.ok(seen.folds >= 2 && seen.deltaSaves >= 10, `folds ${seen.folds}, delta saves ${seen.deltaSaves}`);
    assert.ok(seen.bases.size >= 8, `merges wrote new bases: ${[...seen.bases].join(' ')}`);
  });

  it('a merge in slices, with adds, removes, replaces and searches between its slices, scores like exhaustive BM25 throughout and after', () => {
    const rand = rng(11);
    const idx = new Bm25Index({ mergeMinDocs: 1 << 30 }); // merges only when asked
    const live = new Map<number, string[]>();
    const mutate = (ops: number) => {
      for (let o = 0; o < ops; o++) {
        const id = Math.floor(rand() * 300);
        if (rand() < 0.35) assert.strictEqual(idx.remove(id), live.delete(id));
        else {
          const doc = Array.from({ length: 1 + Math.floor(rand() * 20) }, () => zipfTerm(rand, 80));
          idx.add(id, doc);
          live.set(id, doc);
        }
      }
    };
    const check = (what: string) => {
      assert.strictEqual(idx.size, live.size, what);
      for (let q = 0; q < 3; q++) {
        const query = Array.from({ length: 1 + Math.floor(rand() * 12) }, () => zipfTerm(rand, 90));
        const k = 1 + Math.floor(rand() * 10);
        assertSameRanking(idx.search(query, k), reference(live, query, k), what);
      }
    };
    let slices = 0;
    for (let round = 0; round < 12; round++) {
      mutate(60);
      const steps = idx.mergeSteps(4);
      for (let r = steps.next(); !r.done; r = steps.next()) {
        slices++;
        assert.ok(idx.mergeRunning, 'the merge runs between its slices');
        assert.throws(() => idx.compact(), /already running/);
        mutate(3);
        check(`round ${round}, during the merge`);
      }
      assert.ok(!idx.mergeRunning);
      check(`round ${round}, after the merge`);
      // What the merge left pending (changes made during it) is small, and a second merge folds it.
      idx.compact();
      assert.strictEqual(idx.pendingDocs, 0);
      check(`round ${round}, merged again`);
    }
    assert.ok(slices > 100, `${slices} slices`);
    idx.close();
  });

  it('a cold build with checkpoints ends with everything in bases: no delta left to replay or fold', async () => {
    const root = path.join(work, 'gen');
    generateRepo(root, { files: 160, seed: 9 });
    const indexDir = path.join(work, 'gen-index');
    const logs: string[] = [];
    const engine = await Engine.open({ root, indexDir, dense: false, log: (l) => logs.push(l) }, { seams: { checkpointMs: 1, lexicalMergeMinDocs: 64 } });
    await engine.indexAll();
    await engine.close();
    assert.ok(logs.filter((l) => /^index saved/.test(l)).length >= 3, `checkpoints: ${logs.join('\n')}`);
    assert.deepStrictEqual(committedFiles(indexDir).deltas, [], logs.join('\n'));
  });

  it('a cold build merges before its checkpoint saves, so none writes a delta of the documents a merge was due for', async () => {
    const root = path.join(work, 'gen');
    generateRepo(root, { files: 160, seed: 10 });
    const indexDir = path.join(work, 'merge-first-index');
    const logs: string[] = [];
    const engine = await Engine.open({ root, indexDir, dense: false, log: (l) => logs.push(l) }, { seams: { checkpointMs: 1, lexicalMergeMinDocs: 16 } });
    await engine.indexAll();
    await engine.close();
    const saves = logs.filter((l) => /^index saved/.test(l));
    assert.ok(saves.filter((l) => /lexical-\d+\.bin/.test(l)).length >= 3, `merged bases committed mid-build: ${logs.join('\n')}`);
    // A merge left for after a save (in the background) means that save wrote the unmerged documents as a delta.
    assert.deepStrictEqual(logs.filter((l) => /background merge/.test(l)), [], logs.join('\n'));
  });

  it('a cold build merges its lexical fields in slices, never inside add where a query would wait for the whole merge', async () => {
    const root = path.join(work, 'gen');
    generateRepo(root, { files: 160, seed: 12 });
    // The minimum above the embedding batch (64): a batch alone can then not carry the mutable segment past the backstop.
    const engine = await Engine.open({ root, indexDir: path.join(work, 'sliced-index'), dense: false }, { seams: { checkpointMs: 1e9, lexicalMergeMinDocs: 48 } });
    await engine.indexAll();
    const index = (engine as unknown as { ws: { index: { lexical: Bm25Index; docField: Bm25Index } } }).ws.index;
    const merged = committedFiles(path.join(work, 'sliced-index')).bases.lexical;
    assert.ok(Number(/-(\d+)\.bin$/.exec(merged)![1]) > 2, `several lexical bases written during the build: ${merged}`);
    assert.deepStrictEqual([index.lexical.syncMerges, index.docField.syncMerges], [0, 0]);
    await engine.close();
  });

  it('a cold build commits each merged lexical base as it goes (memory bounded, a crash keeps it), and ranks as an unmerged build', async () => {
    const root = path.join(work, 'gen');
    generateRepo(root, { files: 160, seed: 11 });
    const build = async (indexDir: string, lexicalMergeMinDocs?: number) => {
      const engine = await Engine.open({ root, indexDir, dense: false }, { seams: { checkpointMs: 1e9, lexicalMergeMinDocs } });
      const midBuild: number[] = [];
      await engine.indexAll((p) => {
        // Bases committed while documents are still being added (no time checkpoint: checkpointMs is huge).
        if (p.phase === 'embed' && p.done < p.total && fs.existsSync(path.join(indexDir, 'manifest.json'))) {
          midBuild.push(fs.statSync(path.join(indexDir, committedFiles(indexDir).bases.lexical)).size);
        }
      });
      const results = [];
      for (const q of ['parse config value', 'compute total price', 'user session token', 'retry request']) results.push(await engine.retrieve(q, { k: 8 }));
      await engine.close();
      return { midBuild, results };
    };
    const bounded = await build(path.join(work, 'bounded'), 16);
    const unbounded = await build(path.join(work, 'unbounded'));
    assert.ok(bounded.midBuild.length > 0 && bounded.midBuild.some((size) => size > 1024), `lexical bases committed mid-build: ${bounded.midBuild}`);
    assert.deepStrictEqual(unbounded.midBuild, [], 'without merges nothing is committed before the end');
    assert.ok(bounded.results.some((r) => r.length > 0));
    assert.deepStrictEqual(bounded.results, unbounded.results);
  });

  describe('through the engine', () => {
    let root: string;
    let indexDir: string;
    beforeEach(() => {
      root = path.join(work, 'repo');
      fs.cpSync(FIXTURE, root, { recursive: true });
      indexDir = path.join(work, 'index');
    });
    const open = async () => {
      const logs: string[] = [];
      const engine = await Engine.open({ root, indexDir, dense: false, log: (l) => logs.push(l) });
      return { engine, logs };
    };
    const stat = () => new Map(fs.readdirSync(indexDir).map((f) => [f, fs.statSync(path.join(indexDir, f))]));

    it('a save after one edit writes one delta segment and the manifest, and leaves every base file as it was', async () => {
      const { engine } = await open();
      await engine.indexAll();
      const before = stat();
      fs.appendFileSync(path.join(root, 'lib/pricing.ts'), '\nexport function loyaltyBonus(points: number): number {\n  return points * 2;\n}\n');
      await engine.updateFile('lib/pricing.ts');
      await engine.flush();
      const after = stat();
      const written = [...after].filter(([f, st]) => !before.has(f) || before.get(f)!.mtimeMs !== st.mtimeMs || before.get(f)!.ino !== st.ino).map(([f]) => f);
      assert.deepStrictEqual(written.sort(), ['delta-2.bin', 'manifest.json'], 'what the save wrote');
      for (const base of Object.values(committedFiles(indexDir).bases)) assert.ok(before.has(base), `${base} predates the edit`);
      assert.ok(after.get('delta-2.bin')!.size < 4096, `delta ${after.get('delta-2.bin')!.size} bytes`);
      const expected = await engine.retrieve('loyalty bonus points', { k: 3 });
      await engine.close();
      const { engine: again } = await open();
      assert.deepStrictEqual(await again.retrieve('loyalty bonus points', { k: 3 }), expected, 'the reopened index replays the delta');
      assert.strictEqual(expected[0].name, 'loyaltyBonus');
      await again.close();
    });

    it('a query asked while a save writes its files is answered before the save ends, and the save holds the edit', async () => {
      const { engine } = await open();
      await engine.indexAll();
      fs.appendFileSync(path.join(root, 'lib/pricing.ts'), '\nexport function loyaltyBonus(points: number): number {\n  return points * 2;\n}\n');
      await engine.updateFile('lib/pricing.ts');
      const order: string[] = [];
      // The save's fsyncs run off the event loop (store/writerThread.ts): the query does not wait for them.
      const saving = engine.flush().then(() => order.push('save'));
      const querying = engine.retrieve('loyalty bonus points', { k: 3 }).then((hits) => (order.push('query'), hits));
      const [, hits] = await Promise.all([saving, querying]);
      assert.deepStrictEqual(order, ['query', 'save']);
      await engine.close();
      const { engine: again } = await open();
      assert.deepStrictEqual(await again.retrieve('loyalty bonus points', { k: 3 }), hits, 'the reopened index holds the edit');
      await again.close();
    });

    it('a save whose files cannot be written loses nothing: the next save writes every base again and the index reopens whole', async () => {
      const { engine, logs } = await open();
      await engine.indexAll();
      fs.appendFileSync(path.join(root, 'src/cart.ts'), '\nexport function cartLimitFor(total: number): number {\n  return total * 40;\n}\n');
      await engine.updateFile('src/cart.ts');
      // A folder where the manifest goes: the rename over it fails after the delta was written.
      const manifest = path.join(indexDir, 'manifest.json');
      fs.renameSync(manifest, `${manifest}.aside`);
      fs.mkdirSync(path.join(manifest, 'blocker'), { recursive: true });
      await assert.rejects(engine.flush());
      fs.rmSync(manifest, { recursive: true });
      fs.renameSync(`${manifest}.aside`, manifest);
      fs.appendFileSync(path.join(root, 'lib/pricing.ts'), '\nexport function pricingFloorOf(price: number): number {\n  return price * 3;\n}\n');
      await engine.updateFile('lib/pricing.ts');
      await engine.flush();
      const bases = committedFiles(indexDir).bases;
      assert.ok(Object.values(bases).every((f) => /-3\.bin$/.test(f)), `every base rewritten by the save after the failure: ${JSON.stringify(bases)}`);
      const expected = [await engine.retrieve('cart limit for total', { k: 3 }), await engine.retrieve('pricing floor of price', { k: 3 })];
      await engine.close();
      const { engine: again, logs: reopenLogs } = await open();
      assert.ok(reopenLogs.some((l) => /^index loaded/.test(l)), reopenLogs.join('\n') + logs.join('\n'));
      assert.deepStrictEqual([await again.retrieve('cart limit for total', { k: 3 }), await again.retrieve('pricing floor of price', { k: 3 })], expected);
      assert.deepStrictEqual(expected.map((hits) => hits[0].name), ['cartLimitFor', 'pricingFloorOf']);
      await again.close();
    });

    it('merges in the background once pending documents pass the minimum; the next save commits the new bases', async () => {
      const logs: string[] = [];
      const engine = await Engine.open({ root, indexDir, dense: false, log: (l) => logs.push(l) }, { seams: { lexicalMergeMinDocs: 4 } });
      await engine.indexAll();
      const before = committedFiles(indexDir).bases.lexical;
      for (let i = 0; i < 6; i++) {
        fs.appendFileSync(path.join(root, 'src/cart.ts'), `\nexport function extraStep${i}(total: number): number {\n  return total + ${i};\n}\n`);
        await engine.updateFile('src/cart.ts');
        await engine.flush();
      }
      for (let t = 0; t < 500 && !logs.some((l) => /background merge done/.test(l)); t++) await new Promise((r) => setTimeout(r, 10));
      assert.ok(logs.some((l) => /background merge done/.test(l)), logs.join('\n'));
      const expected = await engine.retrieve('extra step total', { k: 5 });
      await engine.flush();
      const after = committedFiles(indexDir);
      assert.notStrictEqual(after.bases.lexical, before, 'the merged base was committed');
      await engine.close();
      const { engine: again } = await open();
      assert.deepStrictEqual(await again.retrieve('extra step total', { k: 5 }), expected);
      assert.ok(expected.length === 5 && expected.every((h) => h.name?.startsWith('extraStep')), JSON.stringify(expected.map((h) => h.name)));
      await again.close();
    });

    it('a corrupt delta segment is detected, reported by name, and the index rebuilt', async () => {
      const { engine } = await open();
      await engine.indexAll();
      await engine.updateFile('lib/pricing.ts', undefined);
      fs.appendFileSync(path.join(root, 'src/cart.ts'), '\nexport const cartLimit = 40;\n');
      await engine.updateFile('src/cart.ts');
      await engine.flush();
      const expected = await engine.retrieve('cart limit', { k: 3 });
      await engine.close();
      const delta = path.join(indexDir, committedFiles(indexDir).deltas[0]);
      const buf = fs.readFileSync(delta);
      buf[buf.length - 2] ^= 0xff;
      fs.writeFileSync(delta, buf);
      const { engine: again, logs } = await open();
      assert.ok(logs.some((l) => /delta-\d+\.bin does not match its checksum.*rebuilding/.test(l)), logs.join('\n'));
      assert.strictEqual((await again.indexAll()).changedFiles, 4);
      assert.deepStrictEqual(await again.retrieve('cart limit', { k: 3 }), expected);
      await again.close();
    });

    it('an index of the previous format is rebuilt with one message naming both formats', async () => {
      const { engine } = await open();
      await engine.indexAll();
      await engine.close();
      const previous = STORE_FORMAT_VERSION - 1;
      fs.writeFileSync(path.join(indexDir, 'manifest.json'), JSON.stringify({ format: previous, modelId: null, dim: 0, digests: {}, fields: [] }));
      fs.writeFileSync(path.join(indexDir, 'tables.bin'), 'old');
      const { engine: again, logs } = await open();
      const messages = logs.filter((l) => /cannot be used/.test(l));
      assert.strictEqual(messages.length, 1, logs.join('\n'));
      assert.match(messages[0], new RegExp(`index format ${previous}, this version uses ${STORE_FORMAT_VERSION}\\b.*rebuilding it`));
      assert.strictEqual((await again.indexAll()).changedFiles, 4);
      assert.ok(!fs.existsSync(path.join(indexDir, 'tables.bin')), 'the old files are gone');
      await again.close();
    });

    it('the writer deletes files no commit lists (an interrupted save) when it opens the index', async () => {
      const { engine } = await open();
      await engine.indexAll();
      await engine.close();
      const stray = ['delta-77.bin', 'lexical-9.bin.tmp-123-abcdef', 'manifest.json.tmp-1-x'];
      for (const f of stray) fs.writeFileSync(path.join(indexDir, f), 'partial');
      const { engine: again, logs } = await open();
      assert.ok(logs.some((l) => /^index loaded/.test(l)), logs.join('\n'));
      for (const f of stray) assert.ok(!fs.existsSync(path.join(indexDir, f)), `${f} deleted`);
      for (const f of Object.values(committedFiles(indexDir).bases)) assert.ok(fs.existsSync(path.join(indexDir, f)), `${f} kept`);
      await again.close();
    });
  });
});
