// Lines predicted from the current file's own repeated structure (engine/src/complete/shapes.ts),
// offered by the built-in completion when no repository copy continues the lines before the cursor.
import * as assert from 'assert';
import { completeFromSources } from '../../engine/src/complete/builtin';
import { guessUsualLine, MIN_SHAPE_SHARE, nextLines, shapeOf } from '../../engine/src/complete/shapes';

const DOCS = [
  '/**',
  ' * Returns the balance of an account.',
  ' *',
  ' * @param client - Client to use',
  ' */',
  'export function getBalance(client: Client) {}',
  '',
  '/**',
  ' * Returns the nonce of an account.',
  ' *',
  ' * @param client - Client to use',
  ' */',
  'export function getNonce(client: Client) {}',
  '',
  '/**',
  ' * Returns the chain id.',
  ' *',
  ' * @param client - Client to use',
  ' */',
  'export function getChainId(client: Client) {}',
  '',
  '/**',
  ' * Returns the code stored at an address.',
];

describe('built-in completion: lines from the file\'s own structure', () => {
  it('folds names, literals and comment text into a shape', () => {
    assert.strictEqual(shapeOf("  const x = call(a, 'text', 42);"), shapeOf('const total = sum(items, "other", 7);'));
    assert.strictEqual(shapeOf(' * Returns the nonce.'), shapeOf(' * Something else entirely'));
    assert.notStrictEqual(shapeOf(' * @param client - Client'), shapeOf(' * Returns the nonce.'));
  });

  it('offers the line this file writes after the same two line shapes (a JSDoc summary is followed by ` *`)', () => {
    const r = completeFromSources({ file: 'src/code.ts', prefix: DOCS.join('\n') + '\n', line: DOCS.length, language: 'typescript' }, []);
    assert.strictEqual(r?.text, ' *');
  });

  it('abstains where the earlier places disagree or are too few', () => {
    const mixed = ['switch (k) {', "  case 'a':", '    x = 1;', '    break;', "  case 'b':", '    x = 2;', '    return x;', "  case 'c':", '    x = 3;', '    return y;', "  case 'd':", '    x = 4;'];
    assert.strictEqual(guessUsualLine(mixed, '', nextLines(mixed, [])), undefined);
    const agreeing = ['switch (k) {', "  case 'a':", '    x = 1;', '    break;', "  case 'b':", '    x = 2;', '    break;', "  case 'c':", '    x = 3;', '    break;', "  case 'd':", '    x = 4;'];
    assert.strictEqual(guessUsualLine(agreeing, '', nextLines(agreeing, []))?.text, '    break;');
    assert.strictEqual(guessUsualLine(agreeing.slice(0, 9), '', nextLines(agreeing.slice(0, 9), [])), undefined); // two places are too few
  });
  it('abstains where only two of three earlier places agree (MIN_SHAPE_SHARE: at positions chosen the benchmark\'s way such lines were right 7 times in 23)', () => {
    const twoOfThree = ['switch (k) {', "  case 'a':", '    x = 1;', '    break;', "  case 'b':", '    x = 2;', '    break;', "  case 'c':", '    x = 3;', '    return x;', "  case 'd':", '    x = 4;'];
    assert.strictEqual(guessUsualLine(twoOfThree, '', nextLines(twoOfThree, [])), undefined);
    assert.ok(2 / 3 < MIN_SHAPE_SHARE);
  });
  it('counts the places in the retrieved chunks too, where the file has none yet', () => {
    const chunk = DOCS.slice(0, 20);
    const prefix = "import type { Client } from './client';\n\n/**\n * Returns the gas price.\n";
    const r = completeFromSources({ file: 'src/gas.ts', prefix, line: 4, language: 'typescript' }, [{ file: 'src/code.ts', lines: chunk, from: 0, to: chunk.length }], { idf: () => 0 });
    assert.strictEqual(r?.text, ' *', JSON.stringify(r));
  });
});
