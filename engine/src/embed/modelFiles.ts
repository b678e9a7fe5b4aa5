// Finds and reads the files of a Hugging Face / sentence-transformers style model directory, with
// errors that name the missing or broken file (the user picks the directory in settings).
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

/** How token vectors become one text vector when the graph has no `sentence_embedding` output. */
export type PoolingMode = 'mean' | 'cls' | 'max' | 'lasttoken';

export interface ModelFiles {
  modelPath: string;
  tokenizerPath: string;
  tokenizerJson: object;
  /** `tokenizer_config.json` when present, else `{}` (tokenizers.js takes special tokens from it). */
  tokenizerConfig: Record<string, unknown>;
  pooling: PoolingMode;
  /** Pad id from tokenizer.json padding / config.json, else 0 (padded positions are masked anyway). */
  padId: number;
}

export class ModelLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelLoadError';
  }
}

function readJson(file: string, what: string): Record<string, unknown> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new ModelLoadError(`cannot read ${what} ${file}: ${(err as Error).message}`);
  }
  try {
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('not a JSON object');
    return value as Record<string, unknown>;
  } catch (err) {
    throw new ModelLoadError(`${what} ${file} is not valid JSON (${(err as Error).message}); is the file complete?`);
  }
}

function readOptionalJson(file: string, what: string): Record<string, unknown> | undefined {
  return fs.existsSync(file) ? readJson(file, what) : undefined;
}

/**
 * Pooling per sentence-transformers: `modules.json` names the Pooling module's folder (usually
 * `1_Pooling`), whose `config.json` has `pooling_mode_*` flags. Default: mean pooling.
 */
function readPooling(modelDir: string): PoolingMode {
  let poolingDir = path.join(modelDir, '1_Pooling');
  const modules = fs.existsSync(path.join(modelDir, 'modules.json'))
    ? (JSON.parse(fs.readFileSync(path.join(modelDir, 'modules.json'), 'utf8')) as Array<{ type?: string; path?: string }>)
    : [];
  const poolingModule = Array.isArray(modules) ? modules.find((m) => m.type?.endsWith('Pooling') && m.path) : undefined;
  if (poolingModule?.path) poolingDir = path.join(modelDir, poolingModule.path);
  const cfg = readOptionalJson(path.join(poolingDir, 'config.json'), 'pooling config');
  if (!cfg) return 'mean';
  if (cfg.pooling_mode_cls_token === true) return 'cls';
  if (cfg.pooling_mode_lasttoken === true) return 'lasttoken';
  if (cfg.pooling_mode_max_tokens === true) return 'max';
  return 'mean';
}

function readPadId(tokenizerJson: Record<string, unknown>, modelDir: string): number {
  const padding = tokenizerJson.padding as { pad_id?: unknown } | null | undefined;
  if (padding && typeof padding.pad_id === 'number') return padding.pad_id;
  const config = readOptionalJson(path.join(modelDir, 'config.json'), 'model config');
  if (config && typeof config.pad_token_id === 'number') return config.pad_token_id;
  return 0;
}

/** Locates `model.onnx` (top level or `onnx/`) and `tokenizer.json`, and reads the small configs. */
export function readModelFiles(modelDir: string): ModelFiles {
  if (!fs.existsSync(modelDir) || !fs.statSync(modelDir).isDirectory()) {
    throw new ModelLoadError(`model directory ${modelDir} does not exist`);
  }
  const modelPath = [path.join(modelDir, 'model.onnx'), path.join(modelDir, 'onnx', 'model.onnx')].find((p) => fs.existsSync(p));
  if (!modelPath) throw new ModelLoadError(`no model.onnx in ${modelDir} (looked for model.onnx and onnx/model.onnx)`);
  const tokenizerPath = path.join(modelDir, 'tokenizer.json');
  if (!fs.existsSync(tokenizerPath)) throw new ModelLoadError(`no tokenizer.json in ${modelDir}`);
  const tokenizerJson = readJson(tokenizerPath, 'tokenizer');
  if (!tokenizerJson.model || typeof tokenizerJson.model !== 'object') {
    throw new ModelLoadError(`tokenizer ${tokenizerPath} has no "model" section; is it a Hugging Face tokenizer.json?`);
  }
  const tokenizerConfig = readOptionalJson(path.join(modelDir, 'tokenizer_config.json'), 'tokenizer config') ?? {};
  let pooling: PoolingMode;
  try {
    pooling = readPooling(modelDir);
  } catch (err) {
    throw new ModelLoadError(`cannot read pooling config in ${modelDir}: ${(err as Error).message}`);
  }
  return { modelPath, tokenizerPath, tokenizerJson, tokenizerConfig, pooling, padId: readPadId(tokenizerJson, modelDir) };
}

/**
 * Stable id of a model: sha256 over the graph, the tokenizer and the pooling mode. Cached vectors
 * carry it, so changing any of these invalidates them.
 */
export async function computeModelId(files: ModelFiles): Promise<string> {
  const hash = createHash('sha256');
  for (const file of [files.modelPath, files.tokenizerPath]) {
    await new Promise<void>((resolve, reject) => {
      fs.createReadStream(file)
        .on('data', (chunk) => hash.update(chunk))
        .on('end', resolve)
        .on('error', reject);
    });
    hash.update('\0');
  }
  hash.update(files.pooling);
  return hash.digest('hex').slice(0, 32);
}
