export { VectorIndex, type VectorIndexOptions, type VectorIndexTuning, type ScoredId } from './vectorIndex';
