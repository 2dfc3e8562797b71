/** The vector index the recall pipeline queries: exact below a crossover, HNSW above it. */
export { openVectorIndex } from './openVectorIndex';
export { DEFAULT_CROSSOVER, DEFAULT_HNSW_PARAMS, WORKER_BATCH_MIN, workerBatchFor } from './hnswParams';
export type { HnswParams } from './hnswParams';
export { loadBundledHnswlib } from './hnswlib';
export type { HnswLibrary, HnswlibLoader } from './hnswlib';
export { labelChecksum } from './labelChecksum';
export type { WorkerScript } from './workerBuild';
export type {
  OpenVectorIndexOptions,
  RebuildReason,
  VectorHit,
  VectorIndex,
  VectorIndexMode,
  VectorIndexStats,
  VectorItem,
} from './types';
