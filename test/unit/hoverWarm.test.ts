// Work taken off the hover's path (issue 29, hover provider p95 ≤ 100 ms in bench:ui), answers
// unchanged: a file's warm-up reads the files defining its member names (the candidates a hover on
// `x.name` with an unknown receiver describes), and describing a definition the language server
// named builds no scopes or summary of its file, and a name a buffer imports is resolved without
// summarising the buffer. Counted on the real tree-sitter parser and the
// resolver's real scopes and summary, not timed; each answer compared with a cold engine's.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Parser } from 'web-tree-sitter';
import type { Chunker } from '../../engine/src/chunk';
import type { Engine } from '../../engine/src/engine';
import { memberNames, warmCandidates } from '../../engine/src/lookup/warmCandidates';
import * as summary from '../../engine/src/resolve/summary';
import { indexedWorkspace, positionOf, type IndexedWorkspace } from './workspace.helpers';
import { counting, scopesBuilt } from './workCounters.helpers';

const FILES: Record<string, string> = {
  // renderWm: a method of two classes; a caller whose receiver has no declared type cannot tell which.
  'src/alpha.ts': 'export class AlphaWm {\n  /** Draws alpha. */\n  renderWm(): string {\n    return "alpha";\n  }\n}\n',
  'src/beta.ts': 'export class BetaWm {\n  renderWm(depth: number): string {\n    return "beta".repeat(depth);\n  }\n}\n',
  'src/show.ts': 'export function showWm(item: any): string {\n  const out = item.renderWm();\n  return out;\n}\n',
  'hw/shapes.py': 'class CircleWm:\n    def areaWm(self):\n        """Area of the circle."""\n        return 3\n\n\nclass SquareWm:\n    def areaWm(self):\n        return 4\n',
  'hw/sum.py': 'def total_wm(shapes):\n    return sum(s.areaWm() for s in shapes)\n',
  'src/uses.ts': "import { padWm } from './format';\n\nexport function cellWm(text: string): string {\n  return padWm(text, 8) + tailWm();\n}\n\nfunction tailWm(): string {\n  return '|';\n}\n",
  'src/format.ts': '/** Pads a label. */\nexport function padWm(label: string, width: number): string {\n  const gap = width - label.length;\n  return label + " ".repeat(gap);\n}\n',
};

describe('work taken off the hover\'s path', function () {
  this.timeout(60_000);
  let warm: IndexedWorkspace;
  let cold: IndexedWorkspace;
  before(async () => {
    warm = await indexedWorkspace(FILES, 'rr-hoverwarm');
    cold = await indexedWorkspace(FILES, 'rr-hovercold');
  });
  after(async () => {
    await warm.dispose();
    await cold.dispose();
  });

  const parserOf = async (engine: Engine, file: string): Promise<Parser> => {
    const grammar = await (engine as unknown as { chunker: Chunker }).chunker.grammarFor(file, FILES[file]);
    return Object.getPrototypeOf(grammar!.parser) as Parser;
  };

  it('the warm-up reads the files defining a member name: the first hover on it parses none of them and answers as a cold engine', async () => {
    await warm.engine.prepareFile('src/show.ts');
    const [line, character] = positionOf(FILES['src/show.ts'], 'renderWm()', 1);
    let found: Awaited<ReturnType<Engine['symbolAt']>> = null;
    const parses = await counting(await parserOf(warm.engine, 'src/alpha.ts'), 'parse', (t) => typeof t === 'string' && /class (Alpha|Beta)Wm/.test(t), async () => {
      found = await warm.engine.symbolAt('src/show.ts', line, character);
    });
    assert.strictEqual(parses, 0, 'neither defining file parsed at the hover');
    assert.deepStrictEqual([found!.resolution, found!.definitions.map((d) => [d.file, d.declLine, d.declaration, d.doc])], ['candidates', [['src/alpha.ts', 2, 'renderWm(): string {', 'Draws alpha.'], ['src/beta.ts', 1, 'renderWm(depth: number): string {', undefined]]]);
    assert.deepStrictEqual(found, await cold.engine.symbolAt('src/show.ts', line, character), 'the answer of an engine with no warm-up');
  });

  it('the same in Python (an attribute whose receiver is a loop variable)', async () => {
    await warm.engine.prepareFile('hw/sum.py');
    const [line, character] = positionOf(FILES['hw/sum.py'], 'areaWm()', 1);
    let found: Awaited<ReturnType<Engine['symbolAt']>> = null;
    const parses = await counting(await parserOf(warm.engine, 'hw/shapes.py'), 'parse', (t) => typeof t === 'string' && t.includes('class CircleWm'), async () => {
      found = await warm.engine.symbolAt('hw/sum.py', line, character);
    });
    assert.strictEqual(parses, 0, 'hw/shapes.py not parsed at the hover');
    assert.strictEqual(found!.resolution, 'candidates');
    assert.deepStrictEqual(found!.definitions.map((d) => [d.file, d.declLine, d.doc]), [['hw/shapes.py', 1, 'Area of the circle.'], ['hw/shapes.py', 7, undefined]]);
    assert.deepStrictEqual(found, await cold.engine.symbolAt('hw/sum.py', line, character), 'the answer of an engine with no warm-up');
  });

  it('describing a definition the language server named builds no scopes or summary of its file, and still tells a local', async () => {
    const file = 'src/format.ts';
    const [line, character] = positionOf(FILES[file], 'padWm(label', 1);
    let at: Awaited<ReturnType<Engine['definitionAt']>> = {};
    const summaries = await counting(summary, 'summarize', (f) => f === file, async () => {
      assert.strictEqual(await scopesBuilt('padWm(label', async () => (at = await warm.engine.definitionAt(file, line, character))), 0, 'no scopes built');
    });
    assert.strictEqual(summaries, 0, 'nothing summarised');
    assert.deepStrictEqual([at.name, at.definition?.declLine, at.definition?.declaration, at.definition?.doc], ['padWm', 1, 'export function padWm(label: string, width: number): string {', 'Pads a label.']);
    assert.deepStrictEqual(at, await cold.engine.definitionAt(file, line, character));
    // A name the chunker defines nothing at is resolved as before: the local `gap`.
    const [l2, c2] = positionOf(FILES[file], 'gap =', 1);
    assert.deepStrictEqual(await warm.engine.definitionAt(file, l2, c2), { local: true });
  });

  it('resolves an imported name in a buffer nothing prepared without summarising the buffer; a name the file defines reads its summary', async () => {
    const file = 'src/uses.ts';
    const edited = FILES[file].replace("'|'", "'||'");
    const [line, character] = positionOf(edited, 'padWm(text', 1);
    let pad: Awaited<ReturnType<Engine['symbolAt']>> = null;
    const summaries = await counting(summary, 'summarize', (f) => f === file, async () => {
      pad = await warm.engine.symbolAt(file, line, character, edited);
    });
    assert.strictEqual(summaries, 0, 'the buffer not summarised for a name it imports');
    assert.deepStrictEqual([pad!.resolution, pad!.definitions[0]?.file, pad!.definitions[0]?.declLine], ['defines', 'src/format.ts', 1]);
    await cold.engine.prepareFile(file, edited); // the buffer summarised before the hover, as by a warm-up
    assert.deepStrictEqual(pad, await cold.engine.symbolAt(file, line, character, edited), 'the answer of an engine that summarised it');
    const [l2, c2] = positionOf(edited, 'tailWm()', 1);
    let tail: Awaited<ReturnType<Engine['symbolAt']>> = null;
    assert.strictEqual(await counting(summary, 'summarize', (f) => f === file, async () => (tail = await warm.engine.symbolAt(file, l2, c2, edited))), 1, 'summarised once for a name it defines');
    assert.deepStrictEqual([tail!.resolution, tail!.definitions[0]?.file, tail!.definitions[0]?.declLine], ['defines', file, 6]);
  });

  it('answers every name of real fixture files as a cold engine after the warm-up (symbolAt and definitionAt)', async () => {
    const dir = path.join(__dirname, '../../../test/fixtures/workspace');
    const files = ['src/app/main.ts', 'src/app/route.ts', 'src/geometry/hull.ts', 'python/pipelines/pipeline_depth.py', 'python/inventory/report.py'];
    const real: Record<string, string> = {};
    for (const f of fs.readdirSync(dir, { recursive: true }) as string[]) if (fs.statSync(path.join(dir, f)).isFile()) real[f] = fs.readFileSync(path.join(dir, f), 'utf8');
    const a = await indexedWorkspace(real, 'rr-hoverwarm-real');
    const b = await indexedWorkspace(real, 'rr-hovercold-real');
    try {
      let compared = 0;
      for (const f of files) {
        await a.engine.prepareFile(f);
        const lines = real[f].split('\n');
        for (let line = 0; line < lines.length; line++) {
          for (const m of lines[line].matchAll(/[A-Za-z_]\w+/g)) {
            assert.deepStrictEqual(await a.engine.symbolAt(f, line, m.index), await b.engine.symbolAt(f, line, m.index), `${f}:${line}:${m.index}`);
            assert.deepStrictEqual(await a.engine.definitionAt(f, line, m.index), await b.engine.definitionAt(f, line, m.index), `${f}:${line}:${m.index}`);
            compared++;
          }
        }
      }
      assert.ok(compared > 300, `${compared} names compared`);
    } finally {
      await a.dispose();
      await b.dispose();
    }
  });

  it('memberNames: names after `.`, `->` and `::`, each once, first seen first', () => {
    assert.deepStrictEqual(memberNames('a.get(x).get(y); p->next; std::move(v); self.x; import "./m.js"'), ['get', 'next', 'move', 'js']);
  });

  it('warmCandidates reads the first files defining each name, a pause before each not yet kept, within its budget, and stops when the text is stale', async () => {
    const table: Record<string, string[]> = { get: ['a', 'b', 'c'], put: ['c', 'd'] };
    const defines: Record<string, string[]> = { a: ['get'], b: [], c: ['get', 'put'], d: ['put'] };
    const run = async (perName: number, maxFiles: number, staleAfter = Infinity) => {
      const kept = new Set<string>(), read: string[] = [];
      let pauses = 0;
      const n = await warmCandidates('x.get(); y.put(); z.get()', {
        definitionsOf: (name) => (table[name] ?? []).map((file) => ({ file })),
        kept: (file) => kept.has(file),
        defines: async (file, name) => (kept.has(file) || (read.push(file), kept.add(file)), defines[file].includes(name)),
        stale: () => pauses > staleAfter,
      }, async () => void pauses++, perName, maxFiles);
      return { n, read, pauses };
    };
    assert.deepStrictEqual(await run(8, 32), { n: 4, read: ['a', 'b', 'c', 'd'], pauses: 4 });
    assert.deepStrictEqual(await run(1, 32), { n: 2, read: ['a', 'c'], pauses: 2 }, 'one definition a name: a (get), then c (put)');
    assert.deepStrictEqual(await run(8, 2), { n: 2, read: ['a', 'b'], pauses: 2 }, 'the budget');
    assert.deepStrictEqual(await run(8, 32, 1), { n: 1, read: ['a'], pauses: 2 }, 'stale after the first file');
  });
});
