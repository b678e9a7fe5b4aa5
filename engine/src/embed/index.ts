export { OnnxEmbedder, type EmbedderOptions } from './onnxEmbedder';
export { ModelLoadError, type PoolingMode } from './modelFiles';
