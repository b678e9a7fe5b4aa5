// The one place that loads onnxruntime-node. It is native code picked at require time by
// process.platform/process.arch (`bin/napi-v6/<platform>/<arch>/onnxruntime_binding.node`), and
// some platforms have none: onnxruntime-node 1.24+ ships no darwin/x64 (Intel Mac) binary, so the
// darwin-x64 VSIX carries no native runtime at all. A static import would take the whole engine
// down there; loaded here, lazily, a missing binary, a wrong architecture or a dlopen error becomes
// an OnnxRuntimeUnavailableError, and the engine opens with the dense signal off and says why
// (modelPaths.ts: IndexStats.modelWarning).
import { isMainThread } from 'node:worker_threads';
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

/**
 * onnxruntime-node 1.30's native library sends usage telemetry (DNS lookups of
 * mobile.events.data.microsoft.com, a device id under ~/.cache/Microsoft, a mat-debug log in the
 * temp folder) unless this variable is set when it loads: its getenv sees process.env as set on the
 * main thread (observed with strace, test/unit/offline.test.ts).
 */
export const ORT_TELEMETRY_OFF: Readonly<Record<string, string>> = { ORT_DISABLE_TELEMETRY: '1' };

/**
 * Turns the runtime's telemetry off for this process, before its first load. A worker thread's
 * process.env is its own copy that native code never sees, so a thread can only check that the
 * process that started it did so (rpc/transport.ts does); it throws when not.
 */
export function disableOnnxTelemetry(): void {
  for (const [name, value] of Object.entries(ORT_TELEMETRY_OFF)) {
    if (isMainThread) process.env[name] = value;
    else if (process.env[name] !== value) throw new Error(`onnxruntime-node would send telemetry from this worker thread: set ${name}=${value} in the process that starts it`);
  }
}

/** The real loader: a plain require, kept external by esbuild (esbuild.config.mjs), after telemetry is turned off. */
export const requireOnnxRuntime: OnnxRuntimeLoader = () => {
  disableOnnxTelemetry();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('onnxruntime-node') as OnnxRuntime;
};

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
