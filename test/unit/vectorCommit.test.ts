// The vectors are part of the index's one commit (index/manifest.ts `vectors`): their files are
// named by save and listed with their digests, so a vectors folder from another commit — even
// one holding as many vectors as the index has chunks — is found out and re-embedded, never served.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { Engine } from '../../engine/src/engine';
import { generateRepo } from '../bench/scale/generate';
import { tempDir } from './tempDir';

describe('vectors committed with the manifest', function () {
  this.timeout(120_000);
  let work: string;
  beforeEach(() => (work = tempDir('rr-vector-commit-')));
  afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

  /** The dense signal alone, as file ranges. */
  const denseRanking = async (engine: Engine, q: string) =>
    (await engine.retrieve(q, { k: 8 }, { bm25: 0, recent: 0, symbol: 0, intent: 0, docField: 0, normalized: 0, next: 0, expand: 0, hyde: 0, rerank: 0, bm25Score: 0, recentScore: 0, denseScore: 0, dense: 1 })).map((h) => `${h.file}:${h.startLine}-${h.endLine}`);

  it('an older vectors folder with the same vector count is detected and re-embedded, with a message', async () => {
    const root = path.join(work, 'repo');
    generateRepo(root, { files: 150, seed: 606 });
    const indexDir = path.join(work, 'index');
    const first = await Engine.open({ root, indexDir });
    await first.indexAll();
    const indexed = [...first.fileHashes().keys()].filter((rel) => /\.(py|go|ts|rs|js|java)$/.test(rel)).sort().map((rel) => path.join(root, rel));
    await first.close();
    const vectorsDir = path.join(indexDir, 'vectors');
    const previous = path.join(work, 'vectors-before');
    fs.cpSync(vectorsDir, previous, { recursive: true });

    // Edit 40 files without changing their chunk structure: one comment line each gets new words.
    let edited = 0;
    for (const abs of indexed) {
      const lines = fs.readFileSync(abs, 'utf8').split('\n');
      const at = lines.findIndex((l) => /^\s+(#|\/\/) /.test(l));
      if (at < 0) continue;
      lines[at] = lines[at].replace(/((?:#|\/\/) ).*/, '$1quarantine telescope lantern harvest');
      fs.writeFileSync(abs, lines.join('\n'));
      if (++edited === 40) break;
    }
    assert.strictEqual(edited, 40);
    const second = await Engine.open({ root, indexDir });
    const stats = await second.indexAll();
    await second.close();
    assert.strictEqual(stats.changedFiles, 40);

    // The previous vectors folder put back: as many vectors as chunks, other contents.
    fs.rmSync(vectorsDir, { recursive: true });
    fs.cpSync(previous, vectorsDir, { recursive: true });
    const logs: string[] = [];
    const third = await Engine.open({ root, indexDir, log: (l) => logs.push(l) });
    const rebuilt = logs.find((l) => /cannot be used/.test(l));
    assert.ok(rebuilt, `the swapped vectors were noticed: ${logs.join(' | ')}`);
    assert.match(rebuilt!, /vector index: .*vectors\/.* (is missing|fails its checksum|does not match)/);
    await third.indexAll();
    const got = await denseRanking(third, 'quarantine telescope lantern harvest');
    await third.close();

    const clean = await Engine.open({ root, indexDir: path.join(work, 'clean') });
    await clean.indexAll();
    assert.deepStrictEqual(got, await denseRanking(clean, 'quarantine telescope lantern harvest'), 'the dense ranks are those of the edited files');
    await clean.close();
  });

  it('the manifest lists the vector files with their digests, and a save writes only its pending file unless the lists were rebuilt', async () => {
    const root = path.join(work, 'repo');
    generateRepo(root, { files: 30, seed: 607 });
    const indexDir = path.join(work, 'index');
    const engine = await Engine.open({ root, indexDir });
    await engine.indexAll();
    const manifest = () => JSON.parse(fs.readFileSync(path.join(indexDir, 'manifest.json'), 'utf8'));
    const before = manifest();
    assert.ok(before.vectors, 'the manifest holds the vectors');
    const pending = `vectors/${before.vectors.pendingFile}`;
    assert.match(pending, new RegExp(`^vectors/pending-${before.seq}\\.bin$`));
    assert.ok(before.digests[pending], 'its digest is listed');
    const rel = fs.readdirSync(path.join(root, 'src'), { recursive: true }).map(String).find((f) => f.endsWith('.ts'))!;
    fs.appendFileSync(path.join(root, 'src', rel), '\nexport function telescopeOrbit(x: number): number {\n  return x * 7;\n}\n');
    await engine.updateFile(path.join('src', rel));
    await engine.flush();
    const after = manifest();
    assert.deepStrictEqual(fs.readdirSync(path.join(indexDir, 'vectors')), [after.vectors.pendingFile], 'the older pending file was collected');
    assert.strictEqual(after.vectors.count, after.chunks);
    await engine.close();
  });

  it('a save staged while a single-file update is half applied never commits the file\'s new row without its chunks', async () => {
    const root = path.join(work, 'repo');
    fs.cpSync(path.resolve(__dirname, '../../../test/fixtures/engine-repo'), root, { recursive: true });
    const indexDir = path.join(work, 'index');
    const committed = path.join(work, 'committed');
    let saving: Promise<void> | undefined;
    let armed = false;
    // The row of the updated file is set before its chunks are embedded and added: a save is asked for right then.
    const onIndexed = { chunks: async () => undefined, file: (rel: string) => {
      if (!armed || rel !== 'src/cart.ts') return;
      armed = false;
      saving = engine.flush().then(() => fs.cpSync(indexDir, committed, { recursive: true }));
    } };
    const engine: Engine = await Engine.open({ root, indexDir }, { hooks: { onIndexed } });
    await engine.indexAll();
    fs.appendFileSync(path.join(root, 'src/cart.ts'), '\nexport function telescopeHarvest(points: number): number {\n  return points * 11;\n}\n');
    armed = true;
    await engine.updateFile('src/cart.ts');
    assert.ok(saving, 'the save was asked for during the update');
    await saving;
    await engine.close();
    // What that save committed, as a kill right after it would leave it, caught up with the workspace.
    fs.rmSync(path.join(committed, 'writer.lock'), { force: true });
    const after = await Engine.open({ root, indexDir: committed });
    await after.indexAll();
    const hits = await after.retrieve('telescope harvest points', { k: 1 });
    await after.close();
    assert.strictEqual(hits[0]?.name, 'telescopeHarvest', 'the function added by the update is in the index');
  });
});
