// A chunk is indexed with the signatures of the repository functions it calls (enrich/callgraph.ts).
// When the definitions of a name change in one file — the file is emptied (a writer killed
// mid-write leaves it so), removed, or a function renamed — the chunks of other files that call it
// must be enriched again, so the index equals a clean build of the tree: same BM25 statistics
// (live documents, total length) and the same scores.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { Engine } from '../../engine/src/engine';
import type { WorkspaceIndex } from '../../engine/src/indexer/workspaceIndex';
import { lexicalTerms } from '../../engine/src/lexical/tokenize';
import { tempDir } from './tempDir';

describe('callers enriched again when a callee\'s definitions change', function () {
  this.timeout(120_000);
  let work: string;
  beforeEach(() => (work = tempDir('rr-callee-change-')));
  afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

  const CALLEE = 'def settle_ledger_balance(ledger_rows, region_code):\n    # Sums the rows of one region.\n    return sum(ledger_rows)\n';
  const writeRepo = (root: string) => {
    fs.mkdirSync(path.join(root, 'pkg'), { recursive: true });
    fs.writeFileSync(path.join(root, 'pkg/ledger.py'), CALLEE);
    fs.writeFileSync(path.join(root, 'pkg/report.py'), 'def monthly_report(rows):\n    # Builds the report of a month.\n    total = settle_ledger_balance(rows, 7)\n    return total\n');
    fs.writeFileSync(path.join(root, 'pkg/other.py'), 'def unrelated_helper(items):\n    # Counts the items.\n    return len(items)\n');
  };

  /** The main lexical field's statistics and its BM25 hits for `q`, as file ranges with scores. */
  const lexical = (engine: Engine, q: string) => {
    const ws = (engine as unknown as { ws: WorkspaceIndex }).ws;
    const field = (ws.index.lexical as unknown as { stats: { docs: number; totalLen: number } }).stats;
    const hits = ws.index.lexical.search(lexicalTerms(q), 10).map((h) => {
      const d = ws.index.docs.get(h.id)!;
      return `${d.file}:${d.startLine}-${d.endLine} ${h.score}`;
    });
    return { live: field.docs, totalLen: field.totalLen, hits };
  };

  const clean = async (root: string, q: string) => {
    const engine = await Engine.open({ root, indexDir: path.join(work, `clean-${Math.random().toString(36).slice(2)}`) });
    await engine.indexAll();
    const got = lexical(engine, q);
    await engine.close();
    return got;
  };

  const Q = 'monthly report settle ledger balance region code';

  for (const [change, apply] of [
    ['emptied', (abs: string) => fs.writeFileSync(abs, '')],
    ['renamed', (abs: string) => fs.writeFileSync(abs, CALLEE.replace('settle_ledger_balance', 'settle_ledger_total'))],
  ] as const) {
    it(`a callee file ${change} on disk: the catch-up (next indexAll) re-enriches its callers`, async () => {
      const root = path.join(work, 'repo');
      writeRepo(root);
      const indexDir = path.join(work, 'index');
      const first = await Engine.open({ root, indexDir });
      await first.indexAll();
      await first.close();
      apply(path.join(root, 'pkg/ledger.py'));
      const again = await Engine.open({ root, indexDir });
      await again.indexAll();
      const got = lexical(again, Q);
      await again.close();
      assert.deepStrictEqual(got, await clean(root, Q));
    });

    it(`a callee file ${change} and updated: updateFile re-enriches its callers`, async () => {
      const root = path.join(work, 'repo');
      writeRepo(root);
      const engine = await Engine.open({ root, indexDir: path.join(work, 'index') });
      await engine.indexAll();
      apply(path.join(root, 'pkg/ledger.py'));
      await engine.updateFile('pkg/ledger.py');
      const got = lexical(engine, Q);
      await engine.close();
      assert.deepStrictEqual(got, await clean(root, Q));
    });
  }

  it('a callee file removed: removeFile re-enriches its callers', async () => {
    const root = path.join(work, 'repo');
    writeRepo(root);
    const engine = await Engine.open({ root, indexDir: path.join(work, 'index') });
    await engine.indexAll();
    fs.rmSync(path.join(root, 'pkg/ledger.py'));
    await engine.removeFile('pkg/ledger.py');
    const got = lexical(engine, Q);
    await engine.close();
    assert.deepStrictEqual(got, await clean(root, Q));
  });

  it('a callee defined anew: its callers indexed before it gain its signature', async () => {
    const root = path.join(work, 'repo');
    writeRepo(root);
    fs.rmSync(path.join(root, 'pkg/ledger.py'));
    const engine = await Engine.open({ root, indexDir: path.join(work, 'index') });
    await engine.indexAll();
    fs.writeFileSync(path.join(root, 'pkg/ledger.py'), CALLEE);
    await engine.updateFile('pkg/ledger.py');
    const got = lexical(engine, Q);
    await engine.close();
    assert.deepStrictEqual(got, await clean(root, Q));
  });

  it('a callee renamed in an unsaved buffer: callers wait for the save, then match a clean build', async () => {
    const root = path.join(work, 'repo');
    writeRepo(root);
    const engine = await Engine.open({ root, indexDir: path.join(work, 'index') });
    await engine.indexAll();
    const before = lexical(engine, Q);
    const callerIds = () => [...(engine as unknown as { ws: WorkspaceIndex }).ws.tables.chunks.idsOfFile('pkg/report.py')];
    const idsBefore = callerIds();
    const renamed = CALLEE.replace('settle_ledger_balance', 'settle_ledger_total');
    await engine.updateFile('pkg/ledger.py', renamed); // a keystroke: callers are not re-indexed
    const idsTyping = callerIds();
    fs.writeFileSync(path.join(root, 'pkg/ledger.py'), renamed);
    await engine.updateFile('pkg/ledger.py'); // the save: same text as the buffer, callers followed now
    const saved = lexical(engine, Q);
    const idsSaved = callerIds();
    await engine.close();
    const want = await clean(root, Q);
    assert.notDeepStrictEqual(want, before, 'the rename changes a clean build');
    assert.deepStrictEqual(idsTyping, idsBefore, 'the caller keeps its chunks while typing');
    assert.notDeepStrictEqual(idsSaved, idsBefore, 'the save indexes the caller again');
    assert.deepStrictEqual(saved, want);
  });
});
