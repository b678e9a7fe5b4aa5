// Where the engine finds its embedding model: the one it ships with, or the user's, with a fallback.
import * as fs from 'fs';
import * as path from 'path';
import type { EngineOptions } from './api';
import { OnnxEmbedder } from './embed';

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

export interface LoadedModel {
  dir: string;
  embedder: OnnxEmbedder;
  /** Why `opts.modelDir` is not the model in use. */
  warning?: string;
}

/**
 * Loads the configured model (or the shipped default). A user's model that fails to load (missing
 * files, corrupt ONNX, unsupported inputs) must not cost the user their index: with a fallback the
 * reason is logged and returned, and the fallback is used; without one the error stands.
 */
export async function loadModel(
  opts: Pick<EngineOptions, 'modelDir' | 'fallbackModelDir'>,
  log: (line: string) => void,
): Promise<LoadedModel | undefined> {
  const dir = opts.modelDir ?? defaultModelDir();
  if (!dir) {
    log('no embedding model found: dense retrieval is off (lexical and call-graph signals only)');
    return undefined;
  }
  try {
    return { dir, embedder: await OnnxEmbedder.load(dir, { threads: 1 }) };
  } catch (err) {
    const fallback = opts.fallbackModelDir;
    if (!fallback || path.resolve(fallback) === path.resolve(dir)) throw err;
    const warning = `embedding model ${dir} could not be loaded (${(err as Error).message}); using ${fallback} instead`;
    log(warning);
    return { dir: fallback, embedder: await OnnxEmbedder.load(fallback, { threads: 1 }), warning };
  }
}
