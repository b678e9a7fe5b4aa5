// Incremental re-parsing (chunk/reparse.ts): the tree re-parsed from the previous version after an
// edit is the tree a full parse gives, for typing, deleting, pasting and multi-byte text.
import * as assert from 'node:assert/strict';
import { Chunker } from '../../engine/src/chunk';
import { editBetween, parseReusing } from '../../engine/src/chunk/reparse';
import { SyntaxTrees } from '../../engine/src/chunk/syntaxTrees';
import { mulberry32 } from '../../engine/src/util/prng';
import { fixture } from './chunk.helpers';

describe('incremental re-parse', () => {
  let chunker: Chunker;
  before(async () => {
    chunker = await Chunker.create();
  });
  after(() => chunker.dispose());

  it('finds the one edit between two texts (head and tail kept, UTF-16 positions)', () => {
    assert.equal(editBetween('abc', 'abc'), null);
    const e = editBetween('x = 1\ny = 2\n', 'x = 1\ny = 42\n')!;
    assert.deepEqual([e.startIndex, e.oldEndIndex, e.newEndIndex], [10, 10, 11]);
    assert.deepEqual([e.startPosition, e.oldEndPosition, e.newEndPosition], [{ row: 1, column: 4 }, { row: 1, column: 4 }, { row: 1, column: 5 }]);
    const d = editBetween('é = 1\nfoo()\n', 'é = 1\n\nfoo()\n')!;
    assert.deepEqual([d.startIndex, d.startPosition, d.newEndPosition], [6, { row: 1, column: 0 }, { row: 2, column: 0 }]);
  });

  for (const [file, samples] of [['sample.py', 60], ['sample.ts', 60], ['sample.tsx', 30]] as const) {
    it(`gives the full parse's tree after random edits (${file})`, async () => {
      const grammar = (await chunker.grammarFor(file))!;
      const rand = mulberry32(7);
      const inserts = ['x', '\n', '    ', '(', ')', '"', 'é', 'def f():\n    return 1\n', '/* c */', '{', '}'];
      let text = fixture(file);
      let previous = { text, tree: grammar.parser.parse(text)! };
      for (let i = 0; i < samples; i++) {
        const at = Math.floor(rand() * text.length);
        const cut = rand() < 0.5 ? Math.floor(rand() * 12) : 0;
        const next = text.slice(0, at) + (rand() < 0.7 ? inserts[Math.floor(rand() * inserts.length)] : '') + text.slice(at + cut);
        const reused = parseReusing(grammar.parser, next, previous, () => false)!;
        const full = grammar.parser.parse(next)!;
        assert.equal(reused.rootNode.toString(), full.rootNode.toString(), `edit ${i} at ${at}`);
        full.delete();
        previous.tree.delete();
        previous = { text: next, tree: reused };
        text = next;
      }
      previous.tree.delete();
    });
  }

  for (const file of ['sample.py', 'sample.ts'] as const) {
    it(`chunks a buffer being typed in from its previous tree exactly as from scratch (${file})`, async () => {
      const fresh = await Chunker.create();
      try {
        const rand = mulberry32(11);
        const inserts = ['x', '\n', '  ', '(', ')', 'def g(a):\n    return a\n', 'function h() { return 1; }\n', '}'];
        let text = fixture(file);
        for (let i = 0; i < 30; i++) {
          const at = Math.floor(rand() * text.length);
          text = text.slice(0, at) + inserts[Math.floor(rand() * inserts.length)] + text.slice(at + (rand() < 0.3 ? 3 : 0));
          // Every other edit goes to another file in between: the kept tree must be this file's.
          if (i % 2) await chunker.chunk('other.ts', `export const v${i} = ${i};\n`, { incremental: true });
          const incremental = await chunker.chunk(file, text, { incremental: true });
          assert.deepEqual(incremental, await fresh.chunk(file, text), `edit ${i} at ${at}`);
        }
      } finally {
        await fresh.dispose();
      }
    });
  }
});

describe('a cancelled parse', () => {
  it('is not resumed by the next parse of another text (the parser is shared by every file of a language)', async () => {
    const chunker = await Chunker.create();
    try {
      const grammar = (await chunker.grammarFor('a.ts'))!;
      const big = Array.from({ length: 3000 }, (_, i) => `export function f${i}(a: number) { return a + ${i}; }`).join('\n');
      let calls = 0;
      assert.equal(parseReusing(grammar.parser, big, undefined, () => ++calls > 2), null, 'cancelled by its progress callback');
      const small = 'const answer = compute(42);\n';
      const next = parseReusing(grammar.parser, small, undefined, () => false)!;
      const fresh = await Chunker.create();
      const expected = (await fresh.grammarFor('a.ts'))!.parser.parse(small)!;
      assert.equal(next.rootNode.toString(), expected.rootNode.toString());
      next.delete();
      expected.delete();
      await fresh.dispose();
    } finally {
      await chunker.dispose();
    }
  });
});

describe('SyntaxTrees (the trees shared by live updates and symbol lookups)', () => {
  let chunker: Chunker;
  before(async () => {
    chunker = await Chunker.create();
  });
  after(() => chunker.dispose());

  it('gives the kept tree for the same text, re-parses a new version from it, and keeps a few files', async () => {
    const trees = new SyntaxTrees(2);
    const grammar = (await chunker.grammarFor('a.ts'))!;
    const v1 = 'export function f(a: number) {\n  return a;\n}\n';
    const t1 = trees.parse('a.ts', grammar, v1, () => false)!;
    assert.equal(trees.parse('a.ts', grammar, v1, () => false), t1, 'same text: the kept tree, no parse');
    const v2 = v1.replace('return a;', 'return a + 1;');
    const t2 = trees.parse('a.ts', grammar, v2, () => false)!;
    const full = grammar.parser.parse(v2)!;
    assert.equal(t2.rootNode.toString(), full.rootNode.toString());
    full.delete();
    trees.parse('b.ts', grammar, 'const b = 1;\n', () => false);
    trees.parse('c.ts', grammar, 'const c = 2;\n', () => false);
    assert.deepEqual(trees.files, ['c.ts', 'b.ts'], 'the least recently used file is dropped');
    trees.dispose();
  });

  it('keeps the previous tree when a parse is cancelled', async () => {
    const trees = new SyntaxTrees(2);
    const grammar = (await chunker.grammarFor('a.ts'))!;
    const v1 = 'const a = 1;\n';
    const t1 = trees.parse('a.ts', grammar, v1, () => false)!;
    const big = Array.from({ length: 3000 }, (_, i) => `export const v${i} = ${i};`).join('\n');
    let calls = 0;
    assert.equal(trees.parse('a.ts', grammar, big, () => ++calls > 2), null);
    assert.equal(trees.parse('a.ts', grammar, v1, () => false), t1);
    assert.equal(t1.rootNode.toString(), '(program (lexical_declaration (variable_declarator name: (identifier) value: (number))))');
    trees.dispose();
  });
});
