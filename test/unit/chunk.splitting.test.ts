// Size-driven splitting (large classes, oversized functions, leftover module code) and the
// never-throw guarantee on hostile input.
import * as assert from 'node:assert/strict';
import { Chunker } from '../../engine/src/chunk';
import { assertCoversFile } from './chunk.helpers';

function pythonClass(methods: number): string {
  const out = ['import os', '', '', 'class Big(Base):', '    """A big class."""', '', '    limit = 10', ''];
  for (let i = 0; i < methods; i++) {
    out.push(`    def m${i}(self, x):`, `        """Method ${i}."""`, `        y = helper${i}(x)`, `        return os.path.join(y, "${i}")`, '');
  }
  out.push('', 'print(Big().m0(1))', '');
  return out.join('\n');
}

function longTsFunction(statements: number): string {
  const out = ['/** Does many things. */', 'export function huge(n: number): number {', '  let total = 0;'];
  for (let i = 0; i < statements; i++) {
    out.push(`  if (n > ${i}) {`, `    total += step${i}(n);`, '  }');
  }
  out.push('  return total;', '}', '');
  return out.join('\n');
}

describe('Chunker: splitting and robustness', function () {
  this.timeout(30000); // error recovery on garbage input is slow; correctness is what is tested here
  let chunker: Chunker;
  before(async () => {
    chunker = await Chunker.create();
  });
  after(() => chunker.dispose());

  it('splits a large class into a class-header chunk and one chunk per method', async () => {
    const content = pythonClass(40); // 4 + 40 * 5 lines: well over 120
    const file = await chunker.chunk('big.py', content);
    assertCoversFile(content, file);
    const header = file.chunks.find((c) => c.kind === 'class-header');
    assert.ok(header);
    assert.deepEqual([header.name, header.startLine, header.endLine], ['Big', 3, 6]);
    assert.equal(header.signature, 'class Big(Base):');
    assert.equal(header.doc, 'A big class.');
    const methods = file.chunks.filter((c) => c.kind === 'method');
    assert.equal(methods.length, 40);
    assert.deepEqual(methods.map((m) => m.name).slice(0, 3), ['Big.m0', 'Big.m1', 'Big.m2']);
    assert.deepEqual([methods[1].startLine, methods[1].endLine], [13, 16]);
    assert.equal(methods[1].signature, 'def m1(self, x):');
    assert.equal(methods[1].doc, 'Method 1.');
    assert.deepEqual(methods[1].calls.sort(), ['helper1', 'join']);
    assert.equal(file.chunks[0].kind, 'module');
    assert.equal(file.chunks[file.chunks.length - 1].kind, 'module');
  });

  it('keeps a class whole when it fits', async () => {
    const content = pythonClass(3);
    const file = await chunker.chunk('small.py', content);
    assert.deepEqual(
      file.chunks.map((c) => c.kind),
      ['module', 'class', 'module'],
    );
  });

  it('respects maxChunkLines from the options', async () => {
    const content = pythonClass(3); // the class spans 20 lines
    const file = await chunker.chunk('small.py', content, { maxChunkLines: 10 });
    assertCoversFile(content, file);
    assert.ok(file.chunks.some((c) => c.kind === 'class-header'));
    assert.equal(file.chunks.filter((c) => c.kind === 'method').length, 3);
  });

  it('splits an oversized function on statement boundaries, keeping its name', async () => {
    const content = longTsFunction(100); // ~305 lines
    const file = await chunker.chunk('huge.ts', content);
    assertCoversFile(content, file);
    assert.ok(file.chunks.length >= 3, `expected >= 3 pieces, got ${file.chunks.length}`);
    for (const piece of file.chunks) {
      assert.equal(piece.kind, 'function');
      assert.equal(piece.name, 'huge');
      assert.equal(piece.signature, 'export function huge(n: number): number');
      assert.ok(piece.endLine - piece.startLine + 1 <= 120, 'piece within the line limit');
    }
    // Pieces start on statement boundaries (an `if`), never in the middle of one.
    const lines = content.split('\n');
    for (const piece of file.chunks.slice(1)) assert.match(lines[piece.startLine], /^ {2}(if|return)/);
    assert.equal(file.chunks[0].doc, 'Does many things.');
    assert.equal(file.chunks[1].doc, undefined, 'the doc goes on the first piece only');
    // Every piece has the calls made on its own lines.
    assert.ok(file.chunks[0].calls.includes('step0'));
    assert.ok(!file.chunks[0].calls.includes('step99'));
    assert.ok(file.chunks[file.chunks.length - 1].calls.includes('step99'));
    assert.equal(file.definitions.length, 1);
  });

  it('respects maxChunkChars for long-lined code', async () => {
    const body = Array.from({ length: 30 }, (_, i) => `  const v${i} = "${'x'.repeat(400)}";`);
    const content = ['function wide() {', ...body, '}', ''].join('\n');
    const file = await chunker.chunk('wide.js', content, { maxChunkChars: 4000 });
    assertCoversFile(content, file);
    assert.ok(file.chunks.length >= 4);
    for (const c of file.chunks) assert.equal(c.name, 'wide');
  });

  it('groups long top-level code into module chunks within the limit', async () => {
    const content = Array.from({ length: 300 }, (_, i) => `CONST_${i} = compute(${i})`).join('\n') + '\n';
    const file = await chunker.chunk('consts.py', content);
    assertCoversFile(content, file);
    assert.equal(file.chunks.length, 3);
    for (const c of file.chunks) {
      assert.equal(c.kind, 'module');
      assert.ok(c.endLine - c.startLine + 1 <= 120);
      assert.deepEqual(c.calls, ['compute']);
    }
  });

  it('unknown extensions become 40-line windows', async () => {
    const content = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const file = await chunker.chunk('notes/data.unknownext', content);
    assert.equal(file.language, 'plaintext');
    assertCoversFile(content, file);
    assert.deepEqual(
      file.chunks.map((c) => [c.kind, c.endLine - c.startLine + 1]),
      [['window', 40], ['window', 40], ['window', 20]],
    );
    assert.deepEqual(file.definitions, []);
  });

  it('handles CRLF line endings with the shared line rule', async () => {
    const content = 'def a():\r\n    return 1\r\n\r\n\r\ndef b():\r\n    return a()\r\n';
    const file = await chunker.chunk('crlf.py', content);
    assert.deepEqual(
      file.chunks.map((c) => [c.name, c.startLine, c.endLine, c.signature]),
      [['a', 0, 1, 'def a():'], ['b', 4, 5, 'def b():']],
    );
  });

  it('does not throw on binary-ish garbage', async () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const content = Array.from({ length: 20000 }, () => String.fromCharCode(Math.floor(random() * 256))).join('');
    for (const path of ['x.ts', 'x.py', 'x.cpp', 'x.rs', 'x.bin']) {
      const file = await chunker.chunk(path, content);
      assertCoversFile(content, file);
    }
  });

  it('does not throw on deeply nested brackets', async () => {
    const depth = 50000;
    const content = 'x = ' + '('.repeat(depth) + '1' + ')'.repeat(depth) + '\n' + '{['.repeat(depth) + '\n';
    for (const path of ['deep.py', 'deep.ts', 'deep.js', 'deep.go', 'deep.c']) {
      const file = await chunker.chunk(path, content);
      assertCoversFile(content, file);
    }
    const nestedFunctions = 'function f() {\n'.repeat(3000) + '}\n'.repeat(3000);
    const file = await chunker.chunk('nested.js', nestedFunctions);
    assertCoversFile(nestedFunctions, file);
  });

  it('keeps working after the wasm runtime trapped on absurd nesting', async () => {
    // With the depth guard off, Go's grammar overflows the wasm stack on this input.
    const hostile = await chunker.chunk('deep.go', '{['.repeat(5000) + '\n', { maxNestingDepth: 1e9 });
    assert.equal(hostile.chunks[0].kind, 'window');
    const file = await chunker.chunk('ok.go', 'package a\n\nfunc F() {\n\tG()\n}\n');
    assert.deepEqual(file.chunks.map((c) => [c.kind, c.name, c.calls]), [['module', undefined, []], ['function', 'F', ['G']]]);
  });

  it('handles empty and blank files', async () => {
    assert.deepEqual((await chunker.chunk('empty.ts', '')).chunks, []);
    assert.deepEqual((await chunker.chunk('blank.py', '\n\n   \n')).chunks, []);
    assert.deepEqual((await chunker.chunk('blank.txt', '\n\n')).chunks, []);
  });
});
