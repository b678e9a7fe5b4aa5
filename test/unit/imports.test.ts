// Boundaries the build relies on, read from the source files' imports (importGraph.ts): no import
// cycle in engine/src or extension/src, the engine's folders and root files importing only down
// the layering declared below (ENGINE_LAYERS), no `vscode` under engine/, the extension reaching
// the engine only through engine/src/public.ts, and no source file over 400 lines. The checker is
// first run on a fixture tree with a planted cycle, a planted folder tie and a planted vscode
// import, so a pass below means something.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { cycles, folderGraph, importGraph, layerViolations, sourceFiles, specifiers } from './importGraph';

const ROOT = path.resolve(__dirname, '../../..');
/** Longest source file: one a reader can hold in mind (ARCHITECTURE.md). */
const MAX_LINES = 400;
const FIXTURE = path.join(ROOT, 'test/fixtures/import-graph/src');
const rel = (root: string) => (f: string) => path.relative(root, f).split(path.sep).join('/');
/**
 * The engine's folders and root files, bottom layer first: each imports only from layers below it,
 * never from its own or one above (so no two of them import each other). A new folder goes in a
 * layer here; one in no layer fails the test.
 */
const ENGINE_LAYERS = [
  ['types.ts', 'indexLocation.ts', 'redact', 'embed'], // vocabulary and leaves
  ['api.ts', 'store'],
  ['util', 'enrich', 'modelPaths.ts'],
  ['scan', 'chunk', 'lexical', 'vector'],
  ['resolve', 'index'],
  ['retrieve'], // query -> ranked hits
  ['context', 'complete'], // hits -> a budget; the built-in completion
  ['lookup', 'indexer'], // hover and Find Related; keeping the index fresh
  ['team'], // syncing a team index into this one
  ['engine.ts'], // the facade
  ['agentTools', 'publish'], // the facade's users
  ['rpc'],
  ['mcp', 'public.ts'],
  ['cli.ts'],
];
const vscodeImporters = (g: ReturnType<typeof importGraph>) => [...g.specs].filter(([, s]) => s.includes('vscode')).map(([f]) => f);

describe('import graph checker (fixture tree)', () => {
  const g = importGraph(sourceFiles(FIXTURE));
  const r = rel(FIXTURE);

  it('reads static, re-export, type-only, dynamic and require imports, not commented ones', () => {
    assert.deepStrictEqual(specifiers(fs.readFileSync(path.join(FIXTURE, 'c/four.ts'), 'utf8')), ['vscode', '../a/one', '../b/three']);
    assert.deepStrictEqual(specifiers(fs.readFileSync(path.join(FIXTURE, 'b/three.ts'), 'utf8')), ['../a/one']);
    assert.deepStrictEqual(g.edges.get(path.join(FIXTURE, 'c/five.ts'))!.map(r), ['c/four.ts']);
  });

  it('finds the planted cycle, and only it', () => {
    assert.deepStrictEqual(cycles(g.edges).map((c) => c.map(r)), [['a/one.ts', 'a/two.ts', 'b/three.ts', 'a/one.ts']]);
  });

  it('finds the folder cycle it makes', () => {
    assert.deepStrictEqual(cycles(folderGraph(g.edges, FIXTURE)), [['a', 'b', 'a']]);
  });

  it('finds the folder tie that goes up a layering, and counts root files as nodes', () => {
    const nodes = folderGraph(g.edges, FIXTURE, true);
    assert.deepStrictEqual(nodes.get('facade.ts'), ['c']);
    assert.deepStrictEqual(layerViolations(nodes, [['a'], ['b'], ['c'], ['facade.ts']]), ['a -> b']);
    assert.deepStrictEqual(layerViolations(nodes, [['b'], ['a'], ['c', 'facade.ts']]), ['b -> a', 'facade.ts -> c']);
    assert.deepStrictEqual(layerViolations(nodes, [['a'], ['b'], ['c']]), ['facade.ts: in no layer', 'a -> b']);
  });

  it('finds the planted vscode import', () => {
    assert.deepStrictEqual(vscodeImporters(g).map(r), ['c/four.ts']);
  });
});

describe('module boundaries', () => {
  const engineSrc = path.join(ROOT, 'engine/src');
  const extensionSrc = path.join(ROOT, 'extension/src');
  const engine = importGraph(sourceFiles(engineSrc));
  const extension = importGraph(sourceFiles(extensionSrc));

  it('no import cycle in engine/src', () => {
    assert.deepStrictEqual(cycles(engine.edges).map((c) => c.map(rel(engineSrc)).join(' -> ')), []);
  });

  it('no import cycle between the engine folders', () => {
    assert.deepStrictEqual(cycles(folderGraph(engine.edges, engineSrc)).map((c) => c.join(' -> ')), []);
  });

  it('the engine folders and root files import only down the declared layering', () => {
    assert.deepStrictEqual(layerViolations(folderGraph(engine.edges, engineSrc, true), ENGINE_LAYERS), []);
  });

  it('no import cycle in extension/src', () => {
    assert.deepStrictEqual(cycles(extension.edges).map((c) => c.map(rel(extensionSrc)).join(' -> ')), []);
  });

  it('the engine never imports vscode (and its own tsconfig makes such an import fail to compile)', () => {
    const all = importGraph(sourceFiles(path.join(ROOT, 'engine')));
    assert.deepStrictEqual(vscodeImporters(all).map(rel(ROOT)), []);
    const tsconfig = fs.readFileSync(path.join(ROOT, 'engine/tsconfig.json'), 'utf8');
    assert.match(tsconfig, /"types": \["node"\]/);
    assert.match(tsconfig, /"paths": \{ "vscode": \["\.\/vscodeForbidden\.ts"\] \}/);
  });

  it('the extension imports the engine only through engine/src/public.ts', () => {
    const publicEntry = path.join(engineSrc, 'public.ts');
    const reaching = [...extension.specs].flatMap(([f, specs]) =>
      specs.filter((s) => s.includes('engine/')).map((s) => [f, path.resolve(path.dirname(f), s)] as const),
    );
    assert.ok(reaching.length > 0, 'the extension does import the engine');
    assert.deepStrictEqual(reaching.filter(([, target]) => `${target}.ts` !== publicEntry).map(([f, t]) => `${rel(ROOT)(f)} -> ${rel(ROOT)(t)}`), []);
  });

  it('no source file under engine/src or extension/src is over 400 lines', () => {
    const long = [...sourceFiles(engineSrc), ...sourceFiles(extensionSrc)]
      .map((f) => [rel(ROOT)(f), fs.readFileSync(f, 'utf8').split('\n').length - 1] as const)
      .filter(([, n]) => n > MAX_LINES);
    assert.deepStrictEqual(long, []);
  });
});
