// The hover's and Find Related Code's relation labels (engine/src/lookup/relations.ts) come from a
// search of each chunk's tree (tree-sitter's descendantsOfType) over trees kept for the next name
// (issue 29, hover provider p95 ≤ 100 ms in bench:ui): the occurrences must be the ones the walk of
// the whole tree found before, in the same order, on real code; and a second name looked up in the
// same chunk parses nothing.
import * as assert from 'assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Parser, Tree } from 'web-tree-sitter';
import { Chunker } from '../../engine/src/chunk';
import type { LoadedGrammar } from '../../engine/src/chunk/grammar';
import { occurrenceKind, occurrencesIn, type Occurrence } from '../../engine/src/lookup/relations';

const ROOT = path.resolve(__dirname, '../../..');
const NAME = /identifier$|^constant$|^shorthand_property_identifier(_pattern)?$/;

/** The relations' former search, kept as the reference: a cursor walk over every node of the chunk's tree. */
function walked(grammar: LoadedGrammar, text: string, startLine: number, name: string): Occurrence[] | undefined {
  const lines = text.split('\n');
  let indent = Infinity;
  for (const l of lines) if (l.trim()) indent = Math.min(indent, l.length - l.trimStart().length);
  const source = Number.isFinite(indent) && indent > 0 ? lines.map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length))).join('\n') : text;
  if (!source.includes(name)) return [];
  const tree: Tree | null = grammar.parser.parse(source);
  if (!tree) return undefined;
  const out: Occurrence[] = [];
  const cursor = tree.walk();
  const visit = (): void => {
    if (cursor.nodeIsNamed && NAME.test(cursor.nodeType) && cursor.nodeText === name) {
      const n = cursor.currentNode;
      const kind = occurrenceKind(n);
      out.push({ kind, line: startLine + n.startPosition.row, ...(kind === 'defines' && /method|function_definition/.test(n.parent?.type ?? '') ? { method: true } : {}) });
    }
    if (cursor.gotoFirstChild()) {
      do visit(); while (cursor.gotoNextSibling());
      cursor.gotoParent();
    }
  };
  visit();
  cursor.delete();
  tree.delete();
  return out;
}

/** Real code of several languages: the engine's own sources and the test repositories' files. */
function realFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|tsx|js|py|rs|go|java|c|h|cpp|hpp)$/.test(e.name)) out.push(p);
    }
  };
  walk(path.join(ROOT, 'test', 'fixtures'));
  walk(path.join(ROOT, 'engine', 'src', 'lookup'));
  walk(path.join(ROOT, 'engine', 'src', 'resolve'));
  return out.sort();
}

describe('relations: occurrences by tree-sitter search over kept chunk trees', function () {
  this.timeout(120_000);
  let chunker: Chunker;
  before(async () => {
    chunker = await Chunker.create();
  });
  after(() => chunker.dispose());

  it('finds the occurrences the walk of the whole tree found, in its order, for every name of every chunk of real code', async () => {
    let compared = 0;
    const languages = new Set<string>();
    for (const file of realFiles()) {
      const rel = path.relative(ROOT, file);
      const text = fs.readFileSync(file, 'utf8');
      if (text.length > 200_000) continue;
      const grammar = await chunker.grammarFor(rel, text);
      if (!grammar) continue;
      languages.add(grammar.name);
      const lines = text.split('\n');
      for (const chunk of (await chunker.chunk(rel, text)).chunks) {
        const body = lines.slice(chunk.startLine, chunk.endLine + 1).join('\n');
        const names = [...new Set(body.match(/[A-Za-z_]\w+/g) ?? [])].slice(0, 40);
        for (const name of names) {
          const found = occurrencesIn(grammar, body, chunk.startLine, name);
          // Undefined: its 50 ms parse deadline passed (a loaded machine), which the contract allows; a wrong answer never.
          if (found === undefined) continue;
          assert.deepStrictEqual(found, walked(grammar, body, chunk.startLine, name), `${rel}:${chunk.startLine + 1} ${name}`);
          compared++;
        }
      }
    }
    assert.ok(compared > 2000, `compared ${compared}`);
    for (const l of ['typescript', 'python']) assert.ok(languages.has(l), `real ${l} files compared (${[...languages].join(', ')})`);
  });

  it('parses a chunk once for every name looked up in it', async () => {
    const text = 'def area(shape):\n    width = shape.width\n    height = shape.height\n    return scale(width) * scale(height)\n';
    const grammar = (await chunker.grammarFor('geometry_rt.py', text))!;
    const parser = Object.getPrototypeOf(grammar.parser) as Parser;
    const original = parser.parse;
    let parses = 0;
    parser.parse = function (this: Parser, ...args: Parameters<Parser['parse']>) {
      if (typeof args[0] === 'string' && args[0].includes('scale(width)')) parses++;
      return original.apply(this, args);
    };
    try {
      assert.deepStrictEqual(occurrencesIn(grammar, text, 10, 'scale')?.map((o) => [o.kind, o.line]), [['calls', 13], ['calls', 13]]);
      assert.deepStrictEqual(occurrencesIn(grammar, text, 10, 'width')?.map((o) => [o.kind, o.line]), [['uses', 11], ['uses', 11], ['uses', 13]]);
      assert.deepStrictEqual(occurrencesIn(grammar, text, 10, 'area')?.map((o) => [o.kind, o.line, o.method]), [['defines', 10, true]]);
    } finally {
      parser.parse = original;
    }
    assert.strictEqual(parses, 1, 'one parse for the three names');
  });
});
