// Where the engine finds the embedding model it ships with.
import * as fs from 'fs';
import * as path from 'path';

/** Candidate package roots: the source tree (out/engine/src → ../../..) and the bundle (dist → ..). */
function packageRoots(): string[] {
  return [path.resolve(__dirname, '../../..'), path.resolve(__dirname, '..'), path.resolve(__dirname, '../..')];
}

/**
 * The default model directory: the project's own code model when present, else the USE-Lite
 * reference model (built by `npm run model:reference`), else undefined (dense retrieval off).
 */
export function defaultModelDir(): string | undefined {
  for (const root of packageRoots()) {
    for (const name of ['models/reporecall-code', 'models/reference-use-lite']) {
      const dir = path.join(root, name);
      if (fs.existsSync(path.join(dir, 'tokenizer.json'))) return dir;
    }
  }
  return undefined;
}
