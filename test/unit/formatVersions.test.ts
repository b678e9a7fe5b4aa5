// The on-disk format versions move together: a component's layout change without a new store
// version would let an old index's manifest pass its check and its files fail to parse later.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { FORMAT_VERSIONS } from '../../engine/src/store/formatVersions';
import { Bm25Index } from '../../engine/src/lexical/bm25';
import { Engine } from '../../engine/src/engine';
import { tempDir } from './tempDir';

type Components = Omit<typeof FORMAT_VERSIONS, 'store'>;

/** Each store version with the component versions it was released with: add a row when you bump. */
const RELEASED: Record<number, Components> = {
  9: { tables: 2, delta: 1, bm25: 2, vectors: 2 },
};

describe('format versions', () => {
  it('the components are those released with this store version (a lone component bump fails)', () => {
    const { store, ...components } = FORMAT_VERSIONS;
    const released = RELEASED[store];
    assert.ok(released, `store format ${store} has no row in RELEASED: add the component versions it ships with`);
    assert.deepStrictEqual(components, released, 'a component format changed without a new store version: bump FORMAT_VERSIONS.store and add its row');
  });

  it('store versions only grow with their rows', () => {
    const versions = Object.keys(RELEASED).map(Number);
    assert.strictEqual(Math.max(...versions), FORMAT_VERSIONS.store, 'the newest released row is the current store version');
  });

  it('what a save writes carries the table: the manifest its store version, a BM25 segment its own', async () => {
    const work = tempDir('rr-formats-');
    try {
      const root = path.join(work, 'repo');
      fs.mkdirSync(root);
      fs.writeFileSync(path.join(root, 'a.py'), 'def total(rows):\n    return sum(r.amount for r in rows)\n');
      const indexDir = path.join(work, 'index');
      const engine = await Engine.open({ root, indexDir, dense: false });
      await engine.indexAll();
      await engine.close();
      const manifest = JSON.parse(fs.readFileSync(path.join(indexDir, 'manifest.json'), 'utf8')) as { format: number };
      assert.strictEqual(manifest.format, FORMAT_VERSIONS.store);
      const bm25 = new Bm25Index();
      bm25.add(1, ['total', 'rows']);
      assert.strictEqual(bm25.serialize().readUInt32LE(4), FORMAT_VERSIONS.bm25);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});
