// A bounded slice of the bad-input fuzzing in test/bench/fuzz.ts (`npm run fuzz` runs it longer):
// the chunker, the scanner and the whole indexer must never crash on hostile files, and every
// file they pass over must come with its reason.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { Chunker } from '../../engine/src/chunk';
import { tempDir } from './tempDir';
import {
  buildBadTree, checkChunked, CHUNK_EXTENSIONS, fixtureSources, fuzzChunkerRound, fuzzChunkOne, fuzzIndexTree, fuzzScanTree,
  mutate, newStats, pathologicalContents, prng,
} from '../bench/fuzz';

describe('bad-input fuzzing', function () {
  this.timeout(120_000);
  let chunker: Chunker;
  before(async () => (chunker = await Chunker.create()));
  after(async () => chunker.dispose());

  it('the invariant check catches a broken chunk list (so the fuzz checks can fail)', () => {
    const text = 'a\nb\n\nc\n';
    assert.strictEqual(checkChunked(text, { language: 'x', chunks: [{ kind: 'window', startLine: 0, endLine: 3, calls: [] }], definitions: [], imports: [] }), null);
    assert.match(checkChunked(text, { language: 'x', chunks: [{ kind: 'window', startLine: 0, endLine: 1, calls: [] }], definitions: [], imports: [] })!, /line 3 is in no chunk/);
    assert.match(checkChunked(text, { language: 'x', chunks: [{ kind: 'window', startLine: 0, endLine: 9, calls: [] }], definitions: [], imports: [] })!, /past the last line/);
    assert.match(
      checkChunked(text, { language: 'x', chunks: [{ kind: 'window', startLine: 0, endLine: 2, calls: [] }, { kind: 'window', startLine: 2, endLine: 3, calls: [] }], definitions: [], imports: [] })!,
      /overlap/,
    );
  });

  it('chunks every pathological content under every extension without crashing or breaking its contract', async () => {
    const stats = newStats();
    // Small variants of the pathological inputs under every extension (the 10 MB / 100k-line sizes are in the next test).
    // The inputs that take ~0.5 s per parse get a few extensions here; `npm run fuzz` gives them all.
    const slow = /single-line-code|lines-100k|defs-10k|unterminated-string/;
    for (const p of pathologicalContents(false)) {
      const exts = slow.test(p.kind) ? ['.ts', '.py', '.go', '.txt', '.xyz'] : CHUNK_EXTENSIONS;
      for (const ext of exts) await fuzzChunkOne(chunker, stats, p.kind, `fuzz/${p.kind}${ext}`, p.text);
    }
    assert.deepStrictEqual(stats.failures, []);
    assert.ok(stats.chunkInputs > pathologicalContents(false).length * 5);
    assert.ok((chunker.fallbacks['too-deep'] ?? 0) > 0, 'deep nesting was routed to windows');
  });

  it('handles the full-size inputs: a 10 MB single line, 100k brackets, a 100k-line file', async () => {
    const stats = newStats();
    for (const p of pathologicalContents(true).filter((x) => /10MB|nested-parens|lines-100k|long-binary|nested-jsx/.test(x.kind))) {
      for (const ext of ['.ts', '.py', '.tsx', '.txt']) await fuzzChunkOne(chunker, stats, p.kind, `fuzz/${p.kind}${ext}`, p.text);
    }
    assert.deepStrictEqual(stats.failures, []);
  });

  it('chunks mutated fixtures (byte flips, truncation, splicing, NULs, invalid UTF-8) of every language', async () => {
    const stats = newStats();
    const r = prng(12345);
    await fuzzChunkerRound(chunker, r, stats, { mutations: 300, big: false });
    // Every fixture with each mutation kind at least once, deterministically.
    for (const f of fixtureSources()) {
      for (let i = 0; i < 8; i++) {
        const m = mutate(r, f.bytes, [f.bytes]);
        await fuzzChunkOne(chunker, stats, `mutated:${m.how}`, `fuzz/${f.name}`, m.bytes.toString('utf8'));
      }
    }
    assert.deepStrictEqual(stats.failures, []);
    assert.ok(stats.chunkInputs >= 300 + 8 * fixtureSources().length);
  });

  describe('on a workspace full of bad files', () => {
    let work: string;
    beforeEach(() => (work = tempDir('rr-fuzz-unit-')));
    afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

    it('the scanner reports every bad file with its reason, including files vanishing mid-scan and link loops', async () => {
      const stats = newStats();
      const tree = buildBadTree(prng(7), { big: true, parent: work });
      await fuzzScanTree(tree, stats);
      assert.deepStrictEqual(stats.failures, []);
      for (const reason of ['binary', 'invalid-name', 'too-large', 'minified', 'secret', 'generated', 'symlink-loop', 'unreadable'] as const) {
        assert.ok(stats.skipReasons[reason], `some file skipped as ${reason}: ${JSON.stringify(stats.skipReasons)}`);
      }
    });

    it('Engine.indexAll finishes and skippedFiles() lists the bad files with reasons', async () => {
      const stats = newStats();
      const tree = buildBadTree(prng(8), { big: false, parent: work });
      const out = await fuzzIndexTree(tree, stats, path.join(work, 'index'));
      assert.deepStrictEqual(stats.failures, []);
      assert.ok(out);
      const reasons = new Map(out.skipped.map((s) => [s.relPath, s.reason]));
      assert.strictEqual(reasons.get('bad/random.bin'), 'binary');
      assert.strictEqual(reasons.get('bad/caf\\xe9.py'), 'invalid-name');
      for (const kept of ['good/invalid-utf8.py', 'good/utf16le.py', 'good/utf16be.py', 'good/lone-cr.py']) assert.ok(!reasons.has(kept), `${kept} is indexed`);
      assert.strictEqual(reasons.get('bad/single-line-10MB.js'), 'too-large');
      assert.strictEqual(reasons.get('links/a'), 'symlink-loop');
      assert.strictEqual(reasons.get('bad/.env'), 'secret');
    });
  });
});
