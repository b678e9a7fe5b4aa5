// Each query stage of the engine on a small fixture, through the same HybridIndex the product uses.
import * as assert from 'assert';
import { HybridIndex, CORE_WEIGHTS, type DocInput, type FusionWeights } from '../../engine/src/retrieve/hybrid';
import { buildQuery, intentBeforeCursor } from '../../engine/src/retrieve/query';
import { boundNames, normalizedTerms } from '../../engine/src/lexical/normalize';

interface FixtureDoc { file: string; startLine: number; code: string; defines?: string[]; doc?: string }

function indexOf(docs: FixtureDoc[]): { index: HybridIndex; byId: Map<number, FixtureDoc> } {
  const byId = new Map<number, FixtureDoc>();
  const index = new HybridIndex(undefined, undefined, (d) => byId.get(d.id)?.code);
  docs.forEach((d, id) => {
    byId.set(id, d);
    const input: DocInput = {
      id, file: d.file, startLine: d.startLine, endLine: d.startLine + d.code.split('\n').length - 1, kind: 'function',
      defines: d.defines ?? [], indexText: `# file: ${d.file}\n${d.code}`, code: d.code,
      docText: [...(d.defines ?? []), d.doc ?? ''].join('\n'),
    };
    index.add(input);
  });
  return { index, byId };
}

/** Only the named stage (plus nothing else), to see what the stage alone contributes. */
const only = (stage: keyof FusionWeights): Partial<FusionWeights> => ({
  ...Object.fromEntries(Object.keys(CORE_WEIGHTS).filter((k) => k !== 'rrfK').map((k) => [k, 0])), [stage]: 1,
});

describe('query stages', () => {
  it('intent-first: the comment before the cursor finds the function it describes', () => {
    const { index, byId } = indexOf([
      { file: 'a.py', startLine: 0, code: 'def mean(xs):\n    return sum(xs) / len(xs)', defines: ['mean'], doc: 'Arithmetic mean of a list.' },
      { file: 'b.py', startLine: 0, code: 'def ema(values, alpha):\n    out = values[0]\n    for v in values[1:]:\n        out = alpha * v + (1 - alpha) * out\n    return out', defines: ['ema'], doc: 'Exponentially weighted moving average of the prices.' },
      { file: 'c.py', startLine: 0, code: 'def load_prices(path):\n    return read_csv(path)', defines: ['load_prices'], doc: 'Reads prices from a CSV file.' },
    ]);
    const prefix = 'prices = load_prices("p.csv")\n# smooth the series with an exponentially weighted moving average\n';
    assert.match(intentBeforeCursor(prefix.trimEnd().split('\n'))!, /exponentially weighted moving average/);
    const q = buildQuery('main.py', prefix);
    const hits = index.search(q, undefined, { k: 3, weights: only('intent') });
    assert.strictEqual(byId.get(hits[0].id)!.defines![0], 'ema');
  });

  it('normalisation: structurally equal code meets across variable names', () => {
    const renamed = 'def total_age(people):\n    s = 0\n    for p in people:\n        s += p.age\n    return s';
    assert.deepStrictEqual([...boundNames(renamed)].sort(), ['p', 's', 'people'].sort());
    const { index, byId } = indexOf([
      { file: 'x.py', startLine: 0, code: 'def sum_ages(users):\n    total = 0\n    for user in users:\n        total += user.age\n    return total' },
      { file: 'y.py', startLine: 0, code: 'def ages(rows):\n    return [row["age"] for row in rows if row]' },
      { file: 'z.py', startLine: 0, code: 'def names(users):\n    return [user.name for user in users]' },
    ]);
    const q = buildQuery('q.py', 'def f(people):\n    s = 0\n    for p in people:\n        s += p.age\n');
    const hits = index.search(q, undefined, { k: 3, weights: only('normalized') });
    assert.strictEqual(byId.get(hits[0].id)!.file, 'x.py');
    // The same text with other names gives the same structure terms.
    assert.deepStrictEqual(
      normalizedTerms('def f(people):\n  for p in people:\n    s += p.age'),
      normalizedTerms('def f(users):\n  for user in users:\n    total += user.age'),
    );
  });

  it('next-fragment: retrieves what follows the code that matches the last lines', () => {
    const { index, byId } = indexOf([
      { file: 'train.py', startLine: 0, code: 'optimizer.zero_grad()\nloss = criterion(model(batch), target)\nloss.backward()' },
      { file: 'train.py', startLine: 3, code: 'optimizer.step()\nscheduler.step()\nlogger.log_metrics(step=global_step)' },
      { file: 'eval.py', startLine: 0, code: 'model.eval()\nwith torch.no_grad():\n    preds = model(batch)' },
    ]);
    const q = buildQuery('other.py', 'optimizer.zero_grad()\nloss = criterion(model(batch), target)\nloss.backward()\n');
    const hits = index.search(q, undefined, { k: 3, weights: only('next') });
    assert.strictEqual(byId.get(hits[0].id)!.startLine, 3);
  });

  it('expansion: the continuation of the best match is searched again', () => {
    const { index, byId } = indexOf([
      { file: 'a.ts', startLine: 0, code: 'const conn = await openDatabase(url);\nconst rows = await conn.query(sql);\nreturn normaliseRows(rows);' },
      { file: 'rows.ts', startLine: 0, code: 'export function normaliseRows(rows: Row[]) {\n  return rows.map(trimRow);\n}', defines: ['normaliseRows'] },
      { file: 'b.ts', startLine: 0, code: 'export function unrelated() {\n  return 42;\n}' },
    ]);
    const q = buildQuery('c.ts', 'const conn = await openDatabase(url);\n');
    const hits = index.search(q, undefined, { k: 3, weights: only('expand') });
    assert.ok(hits.some((h) => byId.get(h.id)!.file === 'rows.ts'), 'the function the continuation calls is found');
  });

  it('symbol: definitions of identifiers used near the cursor', () => {
    const { index, byId } = indexOf([
      { file: 'geo.ts', startLine: 0, code: 'export function crossProduct(o, a, b) {\n  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);\n}', defines: ['crossProduct'] },
      { file: 'misc.ts', startLine: 0, code: 'export function cross() { return 1; }', defines: ['cross'] },
    ]);
    const q = buildQuery('hull.ts', 'while (stack.length >= 2 && crossProduct(');
    const hits = index.search(q, undefined, { k: 2, weights: only('symbol') });
    assert.strictEqual(byId.get(hits[0].id)!.file, 'geo.ts');
  });

  it('rerank: documents in files the current file imports move up', () => {
    const docs: FixtureDoc[] = [
      { file: 'lib/other.ts', startLine: 0, code: 'export function parse(input) { const ast = parse(tokens(input)); return ast; }' },
      { file: 'lib/grammar.ts', startLine: 0, code: 'export function parse(input) { return tokens(input); }' },
    ];
    const { index, byId } = indexOf(docs);
    const q = buildQuery('src/main.ts', "import { parse } from '../lib/grammar';\nconst ast = parse(tokens(input));\n");
    const plain = index.search(q, undefined, { k: 2, weights: { ...CORE_WEIGHTS, dense: 0 } });
    assert.strictEqual(byId.get(plain[0].id)!.file, 'lib/other.ts', 'without rerank the closer lexical match wins');
    const boosted = index.search(q, undefined, { k: 2, weights: { ...CORE_WEIGHTS, dense: 0, rerank: 1 } });
    assert.strictEqual(byId.get(boosted[0].id)!.file, 'lib/grammar.ts');
    assert.strictEqual(boosted[0].signals.rerank, 1);
  });

  it('score terms: a dense list\'s cosine margin separates candidates whose ranks tie', () => {
    // a.py wins BM25, b.py wins dense by a wide margin: rank fusion with equal weights ties them.
    const index = new HybridIndex({ dim: 3, modelId: 'fixture' });
    const add = (id: number, file: string, code: string, vector: number[]) =>
      index.add({ id, file, startLine: 0, endLine: 0, kind: 'function', defines: [], indexText: code, vector: new Float32Array(vector) });
    add(0, 'a.py', 'load config path load config', [0.1, 1, 0]);
    add(1, 'b.py', 'load config', [1, 0.05, 0]);
    const q = buildQuery('q.py', 'load config\n');
    const qVec = new Float32Array([1, 0, 0]);
    const ranksOnly: Partial<FusionWeights> = { ...only('bm25'), dense: 1 };
    const tied = index.search(q, qVec, { k: 2, weights: ranksOnly });
    assert.deepStrictEqual(tied.map((h) => h.signals), [{ bm25: 1, dense: 2 }, { bm25: 2, dense: 1 }]);
    assert.strictEqual(tied[0].score, tied[1].score, 'ranks alone cannot tell them apart');
    // The hits carry the scores behind the ranks: BM25 scores and cosines.
    assert.ok(tied[0].values.bm25 > tied[1].values.bm25);
    assert.ok(tied[1].values.dense > 0.95 && tied[0].values.dense < 0.2, JSON.stringify(tied.map((h) => h.values)));
    const withMargin = index.search(q, qVec, { k: 2, weights: { ...ranksOnly, denseScore: 0.1 } });
    assert.strictEqual(withMargin[0].file, 'b.py');
    // Cosine margin (about 0.85) × 0.1 is the difference the term makes.
    assert.ok(Math.abs(withMargin[0].score - withMargin[1].score - 0.1 * (tied[1].values.dense - tied[0].values.dense)) < 1e-9);
    // The BM25 term works the same way on BM25 scores, relative to the best (1 for the best).
    const bm25Margin = index.search(q, qVec, { k: 2, weights: { ...ranksOnly, bm25Score: 0.1 } });
    assert.strictEqual(bm25Margin[0].file, 'a.py');
    assert.ok(Math.abs(bm25Margin[0].score - tied[0].score - 0.1) < 1e-12);
  });
});
