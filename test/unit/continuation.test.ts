import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { Engine } from '../../engine/src/engine';
import { continuationChunks, DEFAULT_CONTINUATION, findContinuation, lastLines } from '../../engine/src/context/continuation';
import { tempDir } from './tempDir';

// An analogous file: the user writes `GetCodeErrorType` where the copy has `GetStorageAtErrorType`;
// the copy's next line (past its chunk, lines 0..3) holds the name the user needs.
const copy = [
  'export type GetStorageAtParameters = {', // 0
  '  address: Address',
  '  slot: Hex',
  '}', // 3: chunk end
  'export type GetStorageAtReturnType = Hex | undefined',
  'export type GetStorageAtErrorType =', // 5
  '  | FormatBlockParameterErrorType', // 6
  '  | RequestErrorType',
  '  | ErrorType',
];
const prefix = 'export type GetCodeParameters = {\n  address: Address\n}\nexport type GetCodeReturnType = Hex | undefined\nexport type GetCodeErrorType =\n';

describe('continuations of analogous code', () => {
  it('finds the line like the cursor\'s last one past the chunk\'s end and takes the lines after it', () => {
    assert.deepStrictEqual(lastLines(prefix), ['export type GetCodeReturnType = Hex | undefined', 'export type GetCodeErrorType =']);
    const c = findContinuation(copy, 0, 3, lastLines(prefix), DEFAULT_CONTINUATION);
    assert.ok(c);
    assert.strictEqual(c.startLine, 6);
    assert.strictEqual(c.endLine, 8);
  });

  it('aligns nowhere when no line is alike enough, or the cursor\'s last line has under two terms', () => {
    assert.strictEqual(findContinuation(copy, 0, 3, ['const unrelatedThing = computeTotals(order)'], DEFAULT_CONTINUATION), undefined);
    assert.strictEqual(findContinuation(copy, 0, 3, ['}'], DEFAULT_CONTINUATION), undefined);
  });

  it('puts the aligned line and its continuation in the context, drops lines that add no new name, and stays out of the editor window', () => {
    const seen = new Set(['export', 'type', 'GetCodeErrorType', 'RequestErrorType']);
    const files: Record<string, string[]> = { 'src/storage.ts': copy, 'src/code.ts': copy };
    const chunks = continuationChunks([{ file: 'src/storage.ts', startLine: 0, endLine: 3, score: 1 }], 1, (f) => files[f], { file: 'src/code.ts', prefix, windowStart: 100 }, DEFAULT_CONTINUATION, seen);
    assert.strictEqual(chunks.length, 1);
    assert.strictEqual(chunks[0].text, 'export type GetStorageAtErrorType =\n  | FormatBlockParameterErrorType\n  | ErrorType');
    assert.strictEqual(chunks[0].startLine, 5);
    assert.ok(seen.has('FormatBlockParameterErrorType'), 'the names shown join the seen set');
    // In the current file, lines from the editor window on are the user's own: never continued into.
    const own = continuationChunks([{ file: 'src/code.ts', startLine: 0, endLine: 3, score: 1 }], 1, (f) => files[f], { file: 'src/code.ts', prefix, windowStart: 6 }, DEFAULT_CONTINUATION);
    assert.deepStrictEqual(own, []);
  });
});

describe('Engine context for a completion (budgetTokens): continuations and comments', function () {
  this.timeout(60_000);
  // Real engine on a small repository: an analogous file whose next declaration holds the names.
  const files: Record<string, string> = {
    'src/storage.ts': [
      'export type GetStorageAtParameters = {', '  address: Address', '  slot: Hex', '}', '',
      'export type GetStorageAtReturnType = Hex | undefined', '',
      'export type GetStorageAtErrorType =', '  | FormatBlockParameterErrorType', '  | RequestErrorType', '',
      'export function getStorageAt(client: Client, parameters: GetStorageAtParameters) {',
      '  // Nodes without eth_getStorageAt: see readStorageSlotRaw.', '  return client.request(parameters)', '}', '',
    ].join('\n'),
    'src/code.ts': 'export type GetCodeParameters = {\n  address: Address\n}\n\nexport type GetCodeReturnType = Hex | undefined\n\nexport type GetCodeErrorType =\n',
  };
  let root: string, indexDir: string;
  before(() => {
    root = tempDir('rr-cont-');
    indexDir = tempDir('rr-cont-index-');
    for (const [f, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
      fs.writeFileSync(path.join(root, f), text);
    }
  });
  after(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(indexDir, { recursive: true, force: true });
  });

  it('puts the analogous file\'s continuation first and keeps comment lines that carry new names', async () => {
    const engine = await Engine.open({ root, indexDir, dense: false });
    try {
      await engine.indexAll();
      const state = { file: 'src/code.ts', prefix: files['src/code.ts'], line: 7 };
      const hits = await engine.retrieve(state, { k: 10, budgetTokens: 1024 });
      assert.strictEqual(hits[0].name, 'continuation', hits.map((h) => `${h.name}: ${h.text}`).join('\n---\n'));
      assert.strictEqual(hits[0].file, 'src/storage.ts');
      assert.ok(hits[0].text.startsWith('export type GetStorageAtErrorType =\n  | FormatBlockParameterErrorType'), hits[0].text);
      assert.ok(hits.some((h) => h.text.includes('readStorageSlotRaw')), 'a comment naming something new stays');
      // Without a budget (Find Related, hover) the context is as before: no continuation, comments dropped.
      const plain = await engine.retrieve(state, { k: 10 });
      assert.ok(!plain.some((h) => h.name === 'continuation'));
      assert.ok(!plain.some((h) => h.text.includes('readStorageSlotRaw')));
    } finally {
      await engine.close();
    }
  });
});
