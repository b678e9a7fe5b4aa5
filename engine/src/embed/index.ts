export { OnnxEmbedder, type EmbedderOptions } from './onnxEmbedder';
export { ModelLoadError, type PoolingMode } from './modelFiles';
export { loadOnnxRuntime, requireOnnxRuntime, OnnxRuntimeUnavailableError, type OnnxRuntime, type OnnxRuntimeLoader } from './onnxRuntime';
