// A workspace written from a map of files, indexed by a real Engine in temporary folders, for
// tests that ask the engine about positions in those files (hover, resolution).
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
