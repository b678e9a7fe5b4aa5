// The signal registry (engine/src/retrieve/registry.ts) and the fusion (fusion.ts): the weights
// derived from the signals' declarations are exactly the tuned ones (PARAMS.md), every signal file
// is registered, and the fusion's arithmetic on hand-made lists.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { SIGNALS } from '../../engine/src/retrieve/registry';
import { ABLATION_WEIGHTS, CORE_SIGNALS, CORE_WEIGHTS, DEFAULT_WEIGHTS, fieldsFor, STAGES } from '../../engine/src/retrieve/weights';
import { fuse } from '../../engine/src/retrieve/fusion';

const SIGNALS_DIR = path.resolve(__dirname, '../../../engine/src/retrieve/signals');

describe('signal registry', () => {
  it('derives the tuned default, core and ablation weights from the signals', () => {
    assert.deepStrictEqual(DEFAULT_WEIGHTS, {
      bm25: 1, recent: 1.3, dense: 1, symbol: 0.25, intent: 0, docField: 0, normalized: 0.2, next: 0, expand: 0, hyde: 0, rerank: 0, rrfK: 30,
      bm25Score: 0.067, recentScore: 0.024, denseScore: 0.095,
    });
    assert.deepStrictEqual(CORE_WEIGHTS, { ...DEFAULT_WEIGHTS, normalized: 0 });
    assert.deepStrictEqual(ABLATION_WEIGHTS, { intent: 0.6, docField: 0.4, normalized: 0.4, next: 0.4, expand: 0.4, rerank: 0.5 });
    assert.deepStrictEqual(CORE_SIGNALS, ['bm25', 'recent', 'dense', 'symbol']);
    assert.deepStrictEqual(STAGES, ['bm25', 'recent', 'dense', 'symbol', 'intent', 'docField', 'normalized', 'next', 'expand', 'hyde', 'rerank']);
  });

  it('registers every file in signals/ once, under the name it declares', () => {
    const files = fs.readdirSync(SIGNALS_DIR).filter((f) => f.endsWith('.ts')).map((f) => f.replace(/\.ts$/, '')).sort();
    assert.deepStrictEqual([...SIGNALS.map((s) => s.name)].sort(), files);
  });

  it('fills an optional field while a signal that reads it is on', () => {
    assert.deepStrictEqual([...fieldsFor({})], ['normalized']);
    assert.deepStrictEqual([...fieldsFor({ normalized: 0 })], []);
    assert.deepStrictEqual([...fieldsFor({ normalized: 0, intent: 0.5 })], ['docField']);
    assert.deepStrictEqual([...fieldsFor({ docField: 1 })].sort(), ['docField', 'normalized']);
  });
});

describe('fusion', () => {
  it('adds weight / (rrfK + rank) per list, then each score term relative to its list best', () => {
    const fused = fuse([
      { name: 'a', weight: 2, ids: [7, 8], scores: new Map([[7, 10], [8, 5]]), scoreTerm: { weight: 0.5, relative: 'ratio' } },
      { name: 'b', weight: 1, ids: [8, 9], scores: new Map([[8, 0.9], [9, 0.6], [3, 0.1]]), scoreTerm: { weight: 1, relative: 'difference' } },
    ], 10);
    const near = (x: number, y: number) => assert.ok(Math.abs(x - y) < 1e-12, `${x} != ${y}`);
    // 7: a rank 1, score 10/10; not in b: the worst kept cosine (0.6) - best (0.9).
    near(fused.get(7)!.score, 2 / 11 + 0.5 * 1 + 1 * (0.6 - 0.9));
    near(fused.get(8)!.score, 2 / 12 + 1 / 11 + 0.5 * 0.5 + 0);
    near(fused.get(9)!.score, 1 / 12 + 0 + 1 * (0.6 - 0.9));
    assert.deepStrictEqual(fused.get(8)!.signals, { a: 2, b: 1 });
    assert.strictEqual(fused.has(3), false, 'a score alone does not make a candidate');
  });

  it('leaves a list with a zero-weight score term to its ranks', () => {
    const fused = fuse([{ name: 'a', weight: 1, ids: [1], scores: new Map([[1, 3]]), scoreTerm: { weight: 0, relative: 'ratio' } }], 30);
    assert.strictEqual(fused.get(1)!.score, 1 / 31);
  });
});
