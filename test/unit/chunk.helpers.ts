// Shared helpers for the chunker tests (not a test file itself).
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChunkedFile, RawChunk } from '../../engine/src/types';

export const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'chunk');

export function fixture(name: string): string {
  return readFileSync(join(FIXTURES, name), 'utf8');
}

/** Chunks are sorted, disjoint, inside the file, and cover every non-blank line. */
export function assertCoversFile(content: string, file: ChunkedFile): void {
  const lines = content.split(/\r\n|\r|\n/); // the editor's lines
  let previousEnd = -1;
  for (const chunk of file.chunks) {
    assert.ok(chunk.startLine > previousEnd, `chunk at ${chunk.startLine} overlaps the one ending at ${previousEnd}`);
    assert.ok(chunk.endLine >= chunk.startLine, `chunk ${chunk.startLine}-${chunk.endLine} is inverted`);
    assert.ok(chunk.endLine < lines.length, `chunk ends past the file (${chunk.endLine} >= ${lines.length})`);
    for (let line = previousEnd + 1; line < chunk.startLine; line++) {
      assert.ok(!/\S/.test(lines[line]), `non-blank line ${line} is in no chunk: ${JSON.stringify(lines[line])}`);
    }
    previousEnd = chunk.endLine;
  }
  for (let line = previousEnd + 1; line < lines.length; line++) {
    assert.ok(!/\S/.test(lines[line]), `non-blank line ${line} after the last chunk`);
  }
}

export function byName(file: ChunkedFile, name: string): RawChunk {
  const chunk = file.chunks.find((c) => c.name === name);
  assert.ok(chunk, `no chunk named ${name}; have ${file.chunks.map((c) => c.name ?? c.kind).join(', ')}`);
  return chunk;
}

/** [kind, name, startLine, endLine] of every chunk, for compact whole-file assertions. */
/**
 * The outline a fixture should chunk into, from `NAME.outline` beside it: one chunk a line,
 * `kind name startLine endLine`, `-` for a chunk with no name.
 */
export function expectedOutline(name: string): Array<[string, string | undefined, number, number]> {
  return fixture(`${name}.outline`).trim().split('\n').map((line) => {
    const [kind, chunkName, start, end] = line.split(' ');
    return [kind, chunkName === '-' ? undefined : chunkName, Number(start), Number(end)];
  });
}

export function outline(file: ChunkedFile): Array<[string, string | undefined, number, number]> {
  return file.chunks.map((c) => [c.kind, c.name, c.startLine, c.endLine]);
}
