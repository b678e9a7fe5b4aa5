// Where the engine finds its embedding model: the one it ships with, or the user's, with a fallback.
import * as fs from 'fs';
import * as path from 'path';
import type { EngineOptions } from './api';
import { loadOnnxRuntime, OnnxEmbedder, OnnxRuntimeUnavailableError, type OnnxRuntime, type OnnxRuntimeLoader } from './embed';

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
}

export interface ModelLoad {
  /** The model in use; undefined: the dense signal is off. */
  model: LoadedModel | undefined;
  /**
   * Why the configured model is not the one in use (a user's model that could not be loaded), or
   * why there is none (the ONNX runtime cannot be loaded on this platform). Already logged.
   */
  warning?: string;
}

/** What the engine says when onnxruntime-node cannot be loaded: the dense signal is off, the rest works. */
export function runtimeUnavailableWarning(err: OnnxRuntimeUnavailableError): string {
  return `${err.message}; completions and search use the lexical and symbol signals only`;
}

/**
 * Loads the configured model (or the shipped default). A user's model that fails to load (missing
 * files, corrupt ONNX, unsupported inputs) must not cost the user their index: with a fallback the
 * reason is logged and returned, and the fallback is used; without one the error stands.
 * A platform where onnxruntime-node cannot be loaded at all (no binary for it, e.g. darwin-x64;
 * a dlopen error) is not an error either: no model, the dense signal off, and the reason returned.
 * `loadRuntime` replaces the require of onnxruntime-node (tests).
 */
export async function loadModel(
  opts: Pick<EngineOptions, 'modelDir' | 'fallbackModelDir'>,
  log: (line: string) => void,
  loadRuntime?: OnnxRuntimeLoader,
): Promise<ModelLoad> {
  // The runtime first: without it no model can run, whether or not one is shipped (the darwin-x64
  // VSIX ships none), and the user is told that rather than about a model.
  let runtime: OnnxRuntime;
  try {
    runtime = loadOnnxRuntime(loadRuntime);
  } catch (err) {
    if (!(err instanceof OnnxRuntimeUnavailableError)) throw err;
    const warning = runtimeUnavailableWarning(err);
    log(warning);
    return { model: undefined, warning };
  }
  const dir = opts.modelDir ?? defaultModelDir();
  if (!dir) {
    log('no embedding model found: dense retrieval is off (lexical and call-graph signals only)');
    return { model: undefined };
  }
  try {
    return { model: { dir, embedder: await OnnxEmbedder.load(dir, { threads: 1, runtime }) } };
  } catch (err) {
    const fallback = opts.fallbackModelDir;
    if (!fallback || path.resolve(fallback) === path.resolve(dir)) throw err;
    const warning = `embedding model ${dir} could not be loaded (${(err as Error).message}); using ${fallback} instead`;
    log(warning);
    return { model: { dir: fallback, embedder: await OnnxEmbedder.load(fallback, { threads: 1, runtime }) }, warning };
  }
}
