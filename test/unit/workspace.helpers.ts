// A workspace written from a map of files, indexed by a real Engine in temporary folders, for
// tests that ask the engine about positions in those files (hover, resolution).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { Engine } from '../../engine/src/engine';
import { tempDir } from './tempDir';

export interface IndexedWorkspace {
  root: string;
  indexDir: string;
  engine: Engine;
  dispose(): Promise<void>;
}

/** Writes `files` under a fresh folder and indexes it (lexical signals only: no model needed). */
export async function indexedWorkspace(files: Readonly<Record<string, string>>, prefix: string): Promise<IndexedWorkspace> {
  const root = tempDir(`${prefix}-`);
  const indexDir = tempDir(`${prefix}-index-`);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  const engine = await Engine.open({ root, indexDir, dense: false });
  await engine.indexAll();
  return {
    root, indexDir, engine,
    async dispose() {
      await engine.close();
      fs.rmSync(root, { recursive: true, force: true });
      fs.rmSync(indexDir, { recursive: true, force: true });
    },
  };
}

/** The 0-based [line, character] of the `nth` occurrence of `needle` in `text`, plus `offset`. */
export function positionOf(text: string, needle: string, offset = 0, nth = 0): [number, number] {
  const lines = text.split('\n');
  let seen = 0;
  for (let i = 0; i < lines.length; i++) {
    let at = lines[i].indexOf(needle);
    while (at >= 0) {
      if (seen++ === nth) return [i, at + offset];
      at = lines[i].indexOf(needle, at + 1);
    }
  }
  throw new Error(`${needle} not in the text`);
}

/** What a resolution suite asks: the symbol at a needle, and a check that it resolves to a definition. */
export interface SymbolSuite {
  at(rel: string, needle: string, offset?: number): ReturnType<Engine['symbolAt']>;
  /** Asserts the name at `needle` of `rel` "defines" a definition spanning `file`:`line` (1-based). */
  defines(rel: string, needle: string, file: string, line: number, offset?: number): Promise<void>;
}

/** Indexes `files` before the enclosing `describe`'s tests and disposes of them after. */
export function symbolSuite(files: Readonly<Record<string, string>>, prefix: string): SymbolSuite {
  let workspace: IndexedWorkspace | undefined;
  before(async () => {
    workspace = await indexedWorkspace(files, prefix);
  });
  after(() => workspace?.dispose());
  const at = (rel: string, needle: string, offset = 0) => workspace!.engine.symbolAt(rel, ...positionOf(files[rel], needle, offset));
  const defines = async (rel: string, needle: string, file: string, line: number, offset = 0) => {
    const s = await at(rel, needle, offset);
    assert.strictEqual(s?.resolution, 'defines', `${rel} ${needle}: ${JSON.stringify(s)}`);
    const d = s.definitions[0];
    assert.ok(d.file === file && d.startLine + 1 <= line && line <= d.endLine + 1, `${rel} ${needle}: ${d.file}:${d.startLine + 1}-${d.endLine + 1}, expected ${file}:${line}`);
  };
  return { at, defines };
}

/**
 * A table-driven symbolSuite, one `it` per row: each `resolved` row ([file, needle, defining file,
 * 1-based line, why, offset in the needle]) is "defines" there; each `unresolved` row ([file,
 * needle, why]) is not "defines" (candidates or nothing). Call it inside a `describe`.
 */
export function symbolTable(files: Readonly<Record<string, string>>, prefix: string, resolved: ReadonlyArray<readonly [string, string, string, number, string, number?]>, unresolved: ReadonlyArray<readonly [string, string, string]>): void {
  const { at, defines } = symbolSuite(files, prefix);
  for (const [file, needle, defFile, line, why, offset] of resolved) it(`defines: ${why}`, () => defines(file, needle, defFile, line, offset));
  for (const [file, needle, why] of unresolved) {
    it(`stays unresolved: ${why}`, async () => {
      const s = await at(file, needle);
      assert.notStrictEqual(s?.resolution, 'defines', `${needle}: ${JSON.stringify(s)}`);
    });
  }
}
