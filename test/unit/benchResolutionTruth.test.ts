// Protocol R's ground truth beyond Python and TypeScript (test/bench/resolution): Debian's clangd
// over LSP on a tiny C repository (a definition behind a header, a local, a member, a libc call),
// and the TypeScript language service on a tiny JavaScript one. Real servers, no stand-ins.
import * as assert from 'assert';
import { Chunker } from '../../engine/src/chunk';
import { loadRepo } from '../../test/bench/split';
import { candidates, type Occurrence } from '../../test/bench/resolution/sample';
import { classify, type Truth } from '../../test/bench/resolution/truth';
import { clangTruth, spelledTruth } from '../../test/bench/resolution/truthClang';
import { typescriptTruth } from '../../test/bench/resolution/truthTs';
import * as path from 'path';

const SPLIT = path.resolve(__dirname, '../../../test/fixtures/r-split');

async function allOccurrences(chunker: Chunker, name: string, language: 'c' | 'javascript'): Promise<Occurrence[]> {
  const all = await candidates(loadRepo(SPLIT, name, language), chunker);
  return [...all.values()].flat();
}

function find(truth: Truth[], file: string, name: string, syntax?: string): Truth {
  const t = truth.find((x) => x.occurrence.file === file && x.occurrence.name === name && (!syntax || x.occurrence.syntax === syntax));
  assert.ok(t, `no occurrence of ${name} (${syntax ?? 'any'}) in ${file}: ${truth.map((x) => `${x.occurrence.name}/${x.occurrence.syntax}`).join(' ')}`);
  return t;
}

describe('bench protocol R: clangd and JavaScript truth', () => {
  let chunker: Chunker;
  before(async function () {
    this.timeout(60_000);
    chunker = await Chunker.create();
  });
  after(() => chunker.dispose());

  it('samples C references by kind, never the names a declaration introduces', async () => {
    const occ = await allOccurrences(chunker, 'c-tiny', 'c');
    const at = (name: string) => occ.filter((o) => o.name === name).map((o) => `${o.file}:${o.line + 1}:${o.syntax}`);
    assert.deepStrictEqual(at('util_add'), ['src/main.c:6:call']);
    assert.deepStrictEqual(at('origin'), ['src/main.c:6:name']);
    assert.deepStrictEqual(at('point'), ['src/main.c:5:type']);
    assert.deepStrictEqual(at('strlen'), ['src/main.c:7:call']);
    assert.deepStrictEqual(at('total'), ['src/main.c:8:name']);
  });

  it('clangd: a call reaches its body behind the header, a local stays local, libc is external', async function () {
    this.timeout(120_000); // clangd parses and indexes three files on a shared machine
    const truth = await clangTruth(loadRepo(SPLIT, 'c-tiny', 'c'), await allOccurrences(chunker, 'c-tiny', 'c'), chunker);
    const call = find(truth, 'src/main.c', 'util_add');
    assert.strictEqual(classify(call), 'repo');
    assert.deepStrictEqual(call.defs.map((d) => `${d.file}:${d.line + 1}:${d.scope}`).sort(), ['include/util.h:3:module', 'src/util.c:3:module']);
    assert.strictEqual(classify(find(truth, 'src/main.c', 'origin')), 'local');
    assert.strictEqual(classify(find(truth, 'src/main.c', 'total')), 'local');
    const type = find(truth, 'src/main.c', 'point');
    assert.deepStrictEqual(type.defs.map((d) => `${d.file}:${d.line + 1}`), ['include/util.h:4']);
    const libc = find(truth, 'src/main.c', 'strlen');
    assert.strictEqual(classify(libc), 'external');
    assert.ok(libc.external);
  });

  it('JavaScript: an ES import reaches the exported function, a parameter and a const are local', async function () {
    this.timeout(60_000);
    const repo = loadRepo(SPLIT, 'js-tiny', 'javascript');
    const truth = typescriptTruth(repo, await allOccurrences(chunker, 'js-tiny', 'javascript'));
    const call = find(truth, 'index.mjs', 'square', 'call');
    assert.strictEqual(classify(call), 'repo');
    assert.deepStrictEqual(call.defs.map((d) => `${d.file}:${d.line + 1}:${d.scope}`), ['lib/math.mjs:1:module']);
    assert.strictEqual(classify(find(truth, 'index.mjs', 'edge')), 'local');
    assert.strictEqual(classify(find(truth, 'index.mjs', 'side')), 'local');
    assert.strictEqual(classify(find(truth, 'index.mjs', 'area', 'call')), 'repo');
    assert.strictEqual(classify(find(truth, 'index.mjs', 'log', 'member')), 'external');
  });

  it('a clangd location naming another name (error recovery, a macro\'s expansion site) is no truth for the name asked about', () => {
    const repo = loadRepo(SPLIT, 'c-tiny', 'c');
    const occurrence: Occurrence = { file: 'src/main.c', line: 5, column: 21, name: 'util_add', syntax: 'call' };
    // `main` (line 4) encloses the call: what clangd answers in a file it cannot compile.
    const recovered = spelledTruth(repo, { occurrence, defs: [{ file: 'src/main.c', line: 3, column: 4, scope: 'module' }], external: false });
    assert.strictEqual(classify(recovered), 'no-truth');
    const spelled = { occurrence, defs: [{ file: 'src/main.c', line: 5, column: 14, scope: 'module' as const }], external: false };
    assert.deepStrictEqual(spelledTruth(repo, { ...spelled, occurrence: { ...occurrence, column: 14 } }).defs, spelled.defs);
  });
});
