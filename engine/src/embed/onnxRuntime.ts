// The one place that loads onnxruntime-node. It is native code picked at require time by
// process.platform/process.arch (`bin/napi-v6/<platform>/<arch>/onnxruntime_binding.node`), and
// some platforms have none: onnxruntime-node 1.24+ ships no darwin/x64 (Intel Mac) binary, so the
// darwin-x64 VSIX carries no native runtime at all. A static import would take the whole engine
// down there; loaded here, lazily, a missing binary, a wrong architecture or a dlopen error becomes
// an OnnxRuntimeUnavailableError, and the engine opens with the dense signal off and says why
// (modelPaths.ts: IndexStats.modelWarning).
import type * as Ort from 'onnxruntime-node';

/** The onnxruntime-node module (InferenceSession, Tensor, …). */
export type OnnxRuntime = typeof Ort;

/** Returns the onnxruntime-node module or throws why it cannot be loaded. */
export type OnnxRuntimeLoader = () => OnnxRuntime;

/** onnxruntime-node cannot be loaded on this platform; `message` says which and why. */
export class OnnxRuntimeUnavailableError extends Error {
  constructor(
    /** `${process.platform}-${process.arch}`, as in a VSIX target. */
    readonly platform: string,
    /** The loader's own error, first line (Node's module errors append a require stack). */
    readonly reason: string,
  ) {
    super(`the ONNX runtime is not available on ${platform}: ${reason}`);
    this.name = 'OnnxRuntimeUnavailableError';
  }
}

/** The real loader: a plain require, kept external by esbuild (esbuild.config.mjs). */
export const requireOnnxRuntime: OnnxRuntimeLoader = () =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('onnxruntime-node') as OnnxRuntime;

/** One outcome per loader: a platform does not change within a process, and a failed native require is not retried. */
const outcomes = new WeakMap<OnnxRuntimeLoader, { runtime: OnnxRuntime } | { error: OnnxRuntimeUnavailableError }>();

/**
 * The onnxruntime-node module, loaded on first use by `load` (default: requireOnnxRuntime; tests
 * pass one that throws). Throws OnnxRuntimeUnavailableError when it cannot be loaded.
 */
export function loadOnnxRuntime(load: OnnxRuntimeLoader = requireOnnxRuntime): OnnxRuntime {
  let outcome = outcomes.get(load);
  if (!outcome) {
    try {
      outcome = { runtime: load() };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const reason = message.split('\n')[0].trim() || 'unknown error';
      outcome = { error: new OnnxRuntimeUnavailableError(`${process.platform}-${process.arch}`, reason) };
    }
    outcomes.set(load, outcome);
  }
  if ('error' in outcome) throw outcome.error;
  return outcome.runtime;
}
