// The hover's engine request does no work it already did (issue 29, hover provider p95 ≤ 100 ms in
// bench:ui): asked again at the same name, nothing is parsed (each retrieved chunk's occurrences of
// the name are kept by its text); a file is parsed once for a definition it holds; a local in a buffer being typed in is answered from its scopes,
// without summarising the file's module-level names. Counted on the real tree-sitter parser and the
// resolver's real summary function, not timed. The editor's warm-up (prepareFile) readies the file's
// scopes and summary and the modules it imports, so the hover after it does no work in proportion to them.
import * as assert from 'assert';
import type { Parser } from 'web-tree-sitter';
import type { Chunker } from '../../engine/src/chunk';
import type { Engine } from '../../engine/src/engine';
import * as extraction from '../../engine/src/chunk/extract';
import * as summary from '../../engine/src/resolve/summary';
import { indexedWorkspace, positionOf, type IndexedWorkspace } from './workspace.helpers';
import { counting, scopesBuilt } from './workCounters.helpers';

const FILES: Record<string, string> = {
  'src/format.ts': '/** Pads a label. */\nexport function padCellHw(label: string, width: number): string {\n  return label.padEnd(width);\n}\n',
  'src/table.ts': [
    "import { padCellHw } from './format';",
    '',
    'export function row(cells: string[]): string {',
    '  const widths = cells.map((c) => c.length + 2);',
    '  return cells.map((c, i) => padCellHw(c, widths[i])).join("|");',
    '}',
    '',
  ].join('\n'),
  'src/header.ts': "import { padCellHw } from './format';\n\nexport function header(title: string): string {\n  return padCellHw(title, 40);\n}\n",
  'hw/report.py': 'from hw.util import pad\n\n\ndef report(rows):\n    total = len(rows)\n    return pad(str(total))\n',
  'hw/util.py': 'def pad(text):\n    return text.rjust(8)\n',
  'src/colors.ts': 'export function shadeHw(hex: string): string {\n  return hex.toLowerCase();\n}\n',
  'src/theme.ts': "import { shadeHw } from './colors';\n\nexport function accent(): string {\n  return shadeHw('#FFAA00');\n}\n",
  'src/layout.ts': 'function gapHw(n: number): string {\n  return " ".repeat(n);\n}\n\nexport function indent(text: string): string {\n  return gapHw(2) + text;\n}\n',
  // clipHw: defined again elsewhere with another body (no copy); trimHw: copied verbatim into lib/.
  'src/clip.ts': 'export function clipHw(text: string, n: number): string {\n  return text.slice(0, n);\n}\n\nexport function trimHw(text: string): string {\n  return text.replace(/^ +| +$/g, "");\n}\n',
  'src/other/clip.ts': 'export function clipHw(text: string): string {\n  return text.trimEnd();\n}\n',
  'lib/trim.ts': 'export function trimHw(text: string): string {\n  return text.replace(/^ +| +$/g, "");\n}\n',
  'src/short.ts': "import { clipHw, trimHw } from './clip';\n\nexport function short(text: string): string {\n  return clipHw(trimHw(text), 4);\n}\n",
  'src/badge.ts': "import { padCellHw } from './format';\n\nexport function badge(text: string): string {\n  const framed = padCellHw(text, 6);\n  return framed + badgeTail();\n}\n\nfunction badgeTail(): string {\n  return '!';\n}\n",
};

describe('the hover request repeats no work', function () {
  this.timeout(60_000);
  let workspace: IndexedWorkspace;
  let engine: Engine;
  before(async () => {
    workspace = await indexedWorkspace(FILES, 'rr-hoverwork');
    engine = workspace.engine;
  });
  after(() => workspace.dispose());

  /** The parser class this engine parses with (web-tree-sitter is reloaded after a wasm trap elsewhere in the process: not the one imported here). */
  const parserOf = async (file: string): Promise<Parser> => {
    const grammar = await (engine as unknown as { chunker: Chunker }).chunker.grammarFor(file, FILES[file]);
    return Object.getPrototypeOf(grammar!.parser) as Parser;
  };

  it('parses nothing when asked again at the same name (the chunks found are the same)', async () => {
    const [line, character] = positionOf(FILES['src/table.ts'], 'padCellHw(c', 1);
    const ask = () => engine.symbolRelated('src/table.ts', line, character, { context: 'padCellHw(c, widths[i])', options: { k: 8, compact: false, excerpt: 'head', maxLinesPerHit: 400 } });
    const first = await ask();
    assert.ok(first && first.chunks.some((c) => c.relation?.kind === 'calls'), 'the name is found with a chunk that calls it');
    const parses = await counting(await parserOf('src/table.ts'), 'parse', (t) => typeof t === 'string' && t.includes('padCellHw'), async () => {
      const again = await ask();
      assert.deepStrictEqual(again?.chunks.map((c) => c.relation), first.chunks.map((c) => c.relation), 'the same relations');
    });
    assert.strictEqual(parses, 0);
  });

  it('parses a file once for a name it defines (its definitions are read from the same tree)', async () => {
    const [line, character] = positionOf(FILES['src/layout.ts'], 'gapHw(2)', 1);
    const parses = await counting(await parserOf('src/layout.ts'), 'parse', (t) => typeof t === 'string' && t.includes('gapHw'), async () => {
      const gap = await engine.symbolAt('src/layout.ts', line, character);
      assert.strictEqual(gap?.resolution, 'defines');
      assert.deepStrictEqual([gap?.definitions[0]?.declLine, gap?.definitions[0]?.declaration], [0, 'function gapHw(n: number): string {']);
    });
    assert.strictEqual(parses, 1);
  });

  it('answers a local in an edited buffer without summarising the file', async () => {
    const edited = FILES['hw/report.py'].replace('total = len(rows)', 'total = len(rows) + 1');
    const [line, character] = positionOf(edited, 'total))', 1);
    const summaries = await counting(summary, 'summarize', (file) => file === 'hw/report.py', async () => {
      assert.strictEqual(await engine.symbolAt('hw/report.py', line, character, edited), null, 'a local shows nothing');
    });
    assert.strictEqual(summaries, 0);
    // A module-level name of the same buffer still resolves through its import.
    const [l2, c2] = positionOf(edited, 'pad(str', 1);
    const pad = await engine.symbolAt('hw/report.py', l2, c2, edited);
    assert.strictEqual(pad?.resolution, 'defines');
    assert.strictEqual(pad?.definitions[0]?.file, 'hw/util.py');
  });

  it('the warm-up of a typed buffer (prepareFile) readies its hover: no scopes built and nothing summarised when the hover asks', async () => {
    const edited = FILES['src/table.ts'].replace('c.length + 2', 'c.length + 3');
    await engine.updateFile('src/table.ts', edited);
    await engine.prepareFile('src/table.ts', edited);
    const [line, character] = positionOf(edited, 'padCellHw(c', 1);
    let found: Awaited<ReturnType<Engine['symbolAt']>> = null;
    const summaries = await counting(summary, 'summarize', (file) => file === 'src/table.ts', async () => {
      assert.strictEqual(await scopesBuilt('c.length + 3', async () => (found = await engine.symbolAt('src/table.ts', line, character, edited))), 0, 'no scopes built');
    });
    assert.strictEqual(summaries, 0, 'nothing summarised');
    assert.deepStrictEqual([found!.resolution, found!.definitions[0]?.file], ['defines', 'src/format.ts'], 'resolved through its import as before');
    await engine.updateFile('src/table.ts', FILES['src/table.ts']);
  });

  it('a live update readies the typed text in the background: the next hover builds and summarises nothing, and answers as a cold one', async () => {
    const file = 'src/badge.ts';
    const edited = FILES[file].replace("'!'", "'?'");
    await engine.updateFile(file, edited); // the editor's live update of the buffer
    await engine.lookupsPrepared();
    const needles = ['padCellHw(text', 'framed +', 'badgeTail()', 'text, 6', 'badge('];
    const ask = (text: string) => Promise.all(needles.map((n) => positionOf(text, n, 1)).map(([line, character]) => engine.symbolAt(file, line, character, text)));
    let prepared: Awaited<ReturnType<typeof ask>> = [];
    const summaries = await counting(summary, 'summarize', (f) => f === file, async () => {
      assert.strictEqual(await scopesBuilt("'?'", async () => (prepared = await ask(edited))), 0, 'no scopes built');
    });
    assert.strictEqual(summaries, 0, 'nothing summarised');
    assert.deepStrictEqual(prepared.map((p) => [p?.resolution, p?.definitions[0]?.file]), [['defines', 'src/format.ts'], [undefined, undefined], ['defines', file], [undefined, undefined], ['defines', file]]);
    // The same names in a text nothing prepared (a newline added: same positions), resolved on the hover's path.
    assert.deepStrictEqual(await ask(`${edited}\n`), prepared, 'the answers of a cold lookup');
    await engine.updateFile(file, FILES[file]);
    await engine.lookupsPrepared();
  });

  it('the editor\'s warm-up (prepareFile) readies a file not typed in', async () => {
    await engine.prepareFile('src/header.ts');
    const [line, character] = positionOf(FILES['src/header.ts'], 'padCellHw(title', 1);
    let found: Awaited<ReturnType<Engine['symbolAt']>> = null;
    const summaries = await counting(summary, 'summarize', (file) => file === 'src/header.ts', async () => {
      assert.strictEqual(await scopesBuilt('header(title', async () => (found = await engine.symbolAt('src/header.ts', line, character))), 0, 'no scopes built');
    });
    assert.strictEqual(summaries, 0, 'nothing summarised');
    assert.deepStrictEqual([found!.resolution, found!.definitions[0]?.file], ['defines', 'src/format.ts']);
  });

  it('the warm-up also reads the modules the file imports (summaries, definitions) before a hover on an imported name', async () => {
    const edited = FILES['src/theme.ts'].replace('#FFAA00', '#FFAA01');
    await engine.updateFile('src/theme.ts', edited);
    await engine.prepareFile('src/theme.ts', edited);
    const [line, character] = positionOf(edited, "shadeHw('", 1);
    let found: Awaited<ReturnType<Engine['symbolAt']>> = null;
    let parses = -1;
    const summaries = await counting(summary, 'summarize', (file) => file === 'src/theme.ts' || file === 'src/colors.ts', async () => {
      parses = await counting(await parserOf('src/colors.ts'), 'parse', (t) => typeof t === 'string' && t.includes('shadeHw(hex'), async () => {
        found = await engine.symbolAt('src/theme.ts', line, character, edited);
      });
    });
    assert.strictEqual(summaries, 0, 'neither the buffer nor the module it imports summarised at the hover');
    assert.strictEqual(parses, 0, 'the imported module not parsed for its definition\'s declaration');
    assert.deepStrictEqual([found!.resolution, found!.definitions[0]?.file, found!.definitions[0]?.declLine], ['defines', 'src/colors.ts', 0]);
  });

  it('a typed buffer\'s definitions are those its live update extracted: the hover runs no query over the file for them', async () => {
    const edited = FILES['src/layout.ts'].replace('repeat(n)', 'repeat(n + 0)');
    await engine.updateFile('src/layout.ts', edited);
    const [line, character] = positionOf(edited, 'gapHw(2)', 1);
    let gap: Awaited<ReturnType<Engine['symbolAt']>> = null;
    const queries = await counting(extraction, 'extract', (root) => (root as { text?: string }).text?.includes('repeat(n + 0)') ?? false, async () => {
      gap = await engine.symbolAt('src/layout.ts', line, character, edited);
    });
    assert.strictEqual(queries, 0, 'no extract over the buffer at the hover');
    assert.deepStrictEqual([gap!.resolution, gap!.definitions[0]?.declLine, gap!.definitions[0]?.declaration], ['defines', 0, 'function gapHw(n: number): string {']);
    await engine.updateFile('src/layout.ts', FILES['src/layout.ts']);
  });

  it('describes a definition in the hovered buffer from the text hovered, not from the index\'s older text', async () => {
    // Typed since its live update: two lines above the definition; the hover carries the text.
    const typed = `// a\n// b\n${FILES['src/layout.ts'].replace('gapHw(n: number)', 'gapHw(n: number, fill = " ")')}`;
    const [line, character] = positionOf(typed, 'gapHw(2)', 1);
    const gap = await engine.symbolAt('src/layout.ts', line, character, typed);
    assert.deepStrictEqual([gap?.resolution, gap?.definitions[0]?.declLine, gap?.definitions[0]?.declaration], ['defines', 2, 'function gapHw(n: number, fill = " "): string {']);
  });

  it('counts a resolved definition\'s copies without parsing files whose same-named definitions cannot be copies', async () => {
    await engine.prepareFile('src/short.ts');
    const [line, character] = positionOf(FILES['src/short.ts'], 'clipHw(trimHw', 1);
    let clip: Awaited<ReturnType<Engine['symbolAt']>> = null;
    const parses = await counting(await parserOf('src/other/clip.ts'), 'parse', (t) => typeof t === 'string' && t.includes('trimEnd()'), async () => {
      clip = await engine.symbolAt('src/short.ts', line, character);
    });
    assert.deepStrictEqual([clip!.resolution, clip!.definitions[0]?.file, clip!.copies], ['defines', 'src/clip.ts', undefined]);
    assert.strictEqual(parses, 0, 'src/other/clip.ts not parsed: its text lacks the body\'s words');
    // A verbatim copy is still counted (its file is read as before).
    const [l2, c2] = positionOf(FILES['src/short.ts'], 'trimHw(text)', 1);
    const trim = await engine.symbolAt('src/short.ts', l2, c2);
    assert.deepStrictEqual([trim?.resolution, trim?.definitions[0]?.file, trim?.copies], ['defines', 'src/clip.ts', 1]);
  });
});
