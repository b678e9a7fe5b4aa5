// The engine's pure jobs, without an index on disk: change detection, building a file's documents,
// reusing vectors across updates, the save delay, what a large repository leaves out, the buffers
// and line cache, and context packing.
import * as assert from 'assert';
import * as fs from 'fs';
import { ParsedSpill } from '../../engine/src/indexer/parsedSpill';
import { sha1 } from '../../engine/src/index/indexStore';
import { contentChange, statUnchanged } from '../../engine/src/indexer/changes';
import { definitionRefs, documentItems } from '../../engine/src/indexer/documents';
import { VectorReuse } from '../../engine/src/indexer/vectorReuse';
import { MAX_SAVE_DELAY_MS, SAVE_DELAY_MS, saveDelayMs } from '../../engine/src/indexer/saveSchedule';
import { fieldsToLeaveOut, LARGE_REPO_FILES, LARGE_REPO_QUERY_POSTINGS, queryBudget } from '../../engine/src/indexer/sizePolicy';
import { Buffers } from '../../engine/src/indexer/buffers';
import { packHits } from '../../engine/src/context/pack';
import { DefinitionTable } from '../../engine/src/enrich/definitionTable';
import type { Hit } from '../../engine/src/retrieve/hybrid';
import type { ChunkedFile } from '../../engine/src/types';
import { tempDir } from './tempDir';

describe('indexer: change detection', () => {
  const row = { hash: sha1('a = 1\n'), size: 6, mtimeMs: 1000 };
  it('skips reading a file whose size and mtime match its row', () => {
    assert.strictEqual(statUnchanged(row, { size: 6, mtimeMs: 1000 }), true);
    assert.strictEqual(statUnchanged(row, { size: 6, mtimeMs: 1001 }), false);
    assert.strictEqual(statUnchanged(row, { size: 7, mtimeMs: 1000 }), false);
    assert.strictEqual(statUnchanged(undefined, { size: 6, mtimeMs: 1000 }), false);
  });
  it('tells a touched file (same hash) from a changed or new one, and refuses binary content', () => {
    assert.deepStrictEqual(contentChange('a.py', Buffer.from('a = 1\n'), row), { kind: 'touched' });
    assert.deepStrictEqual(contentChange('a.py', Buffer.from('a = 2\n'), row), { kind: 'changed', content: 'a = 2\n', hash: sha1('a = 2\n') });
    assert.strictEqual(contentChange('a.py', Buffer.from('a = 1\n'), undefined).kind, 'changed');
    assert.strictEqual(contentChange('a.py', Buffer.from([0x61, 0, 0, 0x62, 0, 1, 2, 3]), row).kind, 'skip');
  });
});

describe('indexer: documents of a file', () => {
  const lines = ['def helper(x):', '    return x + 1', '', '', 'def main():', '    """Entry."""', '    return helper(2)'];
  const chunked: ChunkedFile = {
    language: 'python',
    chunks: [
      { kind: 'function', startLine: 0, endLine: 1, name: 'helper', signature: 'def helper(x):', calls: [] },
      { kind: 'module', startLine: 2, endLine: 3, calls: [] },
      { kind: 'function', startLine: 4, endLine: 6, name: 'main', signature: 'def main():', doc: 'Entry.', calls: ['helper'] },
    ],
    definitions: [
      { name: 'helper', kind: 'function', startLine: 0, endLine: 1, signature: 'def helper(x):' },
      { name: 'main', kind: 'function', startLine: 4, endLine: 6, signature: 'def main():' },
    ],
    imports: [],
  };
  it('skips blank chunks, numbers the others, and points each definition at its chunk', () => {
    const defs = new DefinitionTable();
    defs.setFile('src/a.py', chunked.definitions.map((d) => ({ name: d.name, file: 'src/a.py', signature: d.signature, chunkId: -1 })));
    let id = 40;
    const items = [...documentItems('src/a.py', lines, chunked, defs, () => id++)];
    const definitions = definitionRefs('src/a.py', chunked, items);
    assert.deepStrictEqual(items.map((i) => [i.chunk.id, i.chunk.name, i.chunk.defines]), [[40, 'helper', ['helper']], [41, 'main', ['main']]]);
    assert.deepStrictEqual(definitions.map((d) => [d.name, d.chunkId]), [['helper', 40], ['main', 41]]);
    // The path in front, then the code (its doc inside it, so not repeated); `helper` is defined in
    // this file, so its signature is not appended (the chunk holding it is in the index already).
    assert.strictEqual(items[1].text, '# file: src/a.py\ndef main():\n    """Entry."""\n    return helper(2)');
    assert.strictEqual(items[1].docText, 'main\ndef main():\nEntry.');
    assert.strictEqual(items[0].code, 'def helper(x):\n    return x + 1');
  });
});

describe('indexer: vector reuse', () => {
  it('embeds only texts it has not seen, and forgets the least recently used beyond its capacity', async () => {
    const asked: string[][] = [];
    const embed = async (texts: string[]) => (asked.push(texts), texts.map((t) => new Float32Array([t.length])));
    const reuse = new VectorReuse(2);
    const first = await reuse.embed(['a', 'bb'], embed);
    const second = await reuse.embed(['bb', 'ccc'], embed);
    assert.deepStrictEqual(asked, [['a', 'bb'], ['ccc']]);
    assert.strictEqual(second[0], first[1], 'the same vector object is reused');
    await reuse.embed(['a'], embed);
    assert.deepStrictEqual(asked[2], ['a'], "'a' was the least recently used and was forgotten");
    assert.strictEqual(reuse.size, 2);
  });
});

describe('indexer: save delay and size policy', () => {
  it('waits longer the larger the index, within bounds', () => {
    assert.strictEqual(saveDelayMs(0), SAVE_DELAY_MS);
    assert.strictEqual(saveDelayMs(50_000), 5_000);
    assert.strictEqual(saveDelayMs(10_000_000), MAX_SAVE_DELAY_MS);
  });
  it('leaves the normalized field out and lowers the query budget above the threshold only', () => {
    const filled = new Set(['normalized', 'docField'] as const);
    assert.deepStrictEqual(fieldsToLeaveOut(LARGE_REPO_FILES, filled), []);
    assert.deepStrictEqual(fieldsToLeaveOut(LARGE_REPO_FILES + 1, filled), ['normalized']);
    assert.deepStrictEqual(fieldsToLeaveOut(LARGE_REPO_FILES + 1, new Set(['docField'] as const)), []);
    assert.strictEqual(queryBudget(LARGE_REPO_FILES, undefined), undefined);
    assert.strictEqual(queryBudget(LARGE_REPO_FILES + 1, undefined), LARGE_REPO_QUERY_POSTINGS);
    assert.strictEqual(queryBudget(LARGE_REPO_FILES + 1, 1234), 1234);
    assert.strictEqual(queryBudget(10, 1234, 5), 1234);
  });
});

describe('indexer: buffers', () => {
  it('prefer the unsaved buffer, cache lines of recent files only, and read nothing for an unreadable file', () => {
    const reads: string[] = [];
    const disk: Record<string, string> = { 'a.ts': 'a1\na2', 'b.ts': 'b1', 'c.ts': 'c1' };
    const buffers = new Buffers((rel) => (reads.push(rel), rel in disk ? disk[rel] : (() => { throw new Error('ENOENT'); })()), (t) => t.split('\n'), 2);
    buffers.setOverlay('a.ts', 'typed');
    assert.deepStrictEqual(buffers.linesOf('a.ts'), ['typed']);
    assert.deepStrictEqual(buffers.linesOf('b.ts'), ['b1']);
    assert.deepStrictEqual(buffers.linesOf('c.ts'), ['c1']); // evicts a.ts
    buffers.setOverlay('a.ts', undefined);
    assert.deepStrictEqual(buffers.linesOf('a.ts'), ['a1', 'a2']);
    assert.deepStrictEqual(buffers.linesOf('gone.ts'), []);
    assert.deepStrictEqual(reads, ['b.ts', 'c.ts', 'a.ts', 'gone.ts']);
  });
});

describe('retrieve: context packing', () => {
  const hit = (file: string, startLine: number, endLine: number, score: number): Hit =>
    ({ id: startLine, file, startLine, endLine, kind: 'function', defines: [], score, signals: { bm25: 1 }, values: {} });
  const files: Record<string, string[]> = { 'a.ts': ['f1', '', 'f3', 'f4'], 'b.ts': ['g1', 'g2'] };
  const base = { k: 2, packing: { maxLines: 20, compact: true }, maxPerFile: Infinity, novelty: 0, queryTerms: new Set<string>(), window: '' };
  it('keeps the first k hits, at most maxPerFile per file, blank lines dropped', () => {
    const hits = [hit('a.ts', 0, 3, 3), hit('a.ts', 2, 3, 2), hit('b.ts', 0, 1, 1)];
    assert.deepStrictEqual(packHits(hits, (f) => files[f], base).map((c) => c.text), ['f1\nf3\nf4', 'f3\nf4']);
    assert.deepStrictEqual(packHits(hits, (f) => files[f], { ...base, maxPerFile: 1 }).map((c) => c.file), ['a.ts', 'b.ts']);
  });
  it('cuts the text to about 4 characters a token of budget', () => {
    const out = packHits([hit('a.ts', 0, 3, 3), hit('b.ts', 0, 1, 1)], (f) => files[f], { ...base, budgetTokens: 1 });
    assert.deepStrictEqual(out.map((c) => c.text), ['f1\nf']);
    const two = packHits([hit('a.ts', 0, 3, 3), hit('b.ts', 0, 1, 1)], (f) => files[f], { ...base, budgetTokens: 3 });
    assert.deepStrictEqual(two.map((c) => c.text), ['f1\nf3\nf4', 'g1\ng']);
  });
});

describe('indexer: parsed files spilled to disk during a full index', () => {
  const parsed = (i: number): ChunkedFile => ({
    language: 'python',
    chunks: [{ kind: 'function', startLine: i, endLine: i + 3, name: `f${i}`, signature: `def f${i}(x):`, doc: i % 2 ? 'Doc.' : undefined, calls: ['g', `h${i}`] }],
    definitions: [{ name: `f${i}`, kind: 'function', startLine: i, endLine: i + 3, signature: `def f${i}(x):` }] as ChunkedFile['definitions'],
    imports: [],
  });
  it('gives back each parse as it was put, in any order, and leaves no file behind', () => {
    const dir = tempDir('rr-spill-');
    const spill = new ParsedSpill(dir);
    const ids = [0, 1, 2, 3, 4].map((i) => spill.put(parsed(i)));
    assert.strictEqual(spill.size, 5);
    for (const i of [3, 0, 4, 1, 2, 3]) assert.deepStrictEqual(spill.take(ids[i]), parsed(i));
    spill.close();
    assert.deepStrictEqual(fs.readdirSync(dir), []);
    assert.throws(() => spill.take(0), /after close/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
