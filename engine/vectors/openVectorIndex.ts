import { invalidInput } from '../errors';
import { HybridVectorIndex } from './hybridVectorIndex';
import type { IndexConfig } from './hybridVectorIndex';
import { loadBundledHnswlib } from './hnswlib';
import { DEFAULT_CROSSOVER, DEFAULT_HNSW_PARAMS } from './hnswParams';
import { readIndexFile } from './indexFile';
import { labelChecksum } from './labelChecksum';
import type { OpenVectorIndexOptions, VectorIndex } from './types';
import { checkLabels } from './vectorInput';
import { defaultWorkerScripts } from '../process/workerScripts';

/**
 * Opens the vector index: loads `file` when it matches the model, dimension and (if given) the
 * expected count and labels; otherwise starts empty with `needsRebuild` set, and the caller adds
 * every vector from the source of truth.
 */
export async function openVectorIndex(options: OpenVectorIndexOptions): Promise<VectorIndex> {
  const config = checkOptions(options);
  if (!options.file) return new HybridVectorIndex(config, 'missing');
  const expectedLabels = options.expectedLabels ? checkLabels([...options.expectedLabels]) : undefined;
  const read = await readIndexFile(options.file, {
    modelId: config.modelId,
    dimension: config.dimension,
    count: options.expectedCount ?? expectedLabels?.length,
    labelChecksum: expectedLabels && labelChecksum(expectedLabels),
  });
  if (!read.ok) {
    config.logger.info('vector index file not used; rebuild needed', {
      reason: read.reason,
      detail: read.detail,
    });
    return new HybridVectorIndex(config, read.reason);
  }
  const index = new HybridVectorIndex(config, null);
  try {
    await index.load(read.contents);
    return index;
  } catch (error) {
    await index.close();
    config.logger.warn('vector index file is damaged; rebuild needed', {
      file: options.file,
      error: error instanceof Error ? error.message : String(error),
    });
    return new HybridVectorIndex(config, 'unreadable');
  }
}

function checkOptions(options: OpenVectorIndexOptions): IndexConfig {
  const { dimension, modelId, crossover = DEFAULT_CROSSOVER, workerBatch } = options;
  if (!Number.isInteger(dimension) || dimension < 1 || dimension > 65_536) {
    throw invalidInput(`dimension must be a whole number from 1 to 65536; got ${String(dimension)}`);
  }
  if (typeof modelId !== 'string' || modelId.trim() === '') {
    throw invalidInput('modelId must be a non-empty string');
  }
  if (!Number.isInteger(crossover) || crossover < 1) {
    throw invalidInput(`crossover must be a whole number of vectors (1 or more); got ${String(crossover)}`);
  }
  if (workerBatch !== undefined && (!Number.isInteger(workerBatch) || workerBatch < 1)) {
    throw invalidInput(
      `workerBatch must be a whole number of vectors (1 or more); got ${String(workerBatch)}`,
    );
  }
  const { expectedCount } = options;
  if (expectedCount !== undefined && (!Number.isInteger(expectedCount) || expectedCount < 0)) {
    throw invalidInput(`expectedCount must be a whole number (0 or more); got ${String(expectedCount)}`);
  }
  return {
    dimension,
    modelId,
    crossover,
    workerBatch: workerBatch ?? null,
    params: { ...DEFAULT_HNSW_PARAMS },
    logger: options.logger,
    loader: options.hnswlibLoader ?? loadBundledHnswlib,
    worker: options.worker ?? defaultWorkerScripts().vectors,
  };
}
