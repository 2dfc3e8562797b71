import { EngramError } from '../errors';
import type { Logger } from '../host';
import { defaultWorkerScripts } from '../process/workerScripts';
import { assertOnnxModelPresent, assertValidModelId, ONNX_DTYPES } from './onnxModelFiles';
import type { OnnxDtype, OnnxPooling } from './onnxModelFiles';
import type { EmbeddingWorkerScript } from './types';
import { WorkerEmbeddingProvider } from './workerEmbeddingProvider';

export interface OnnxProviderOptions {
  /** A Hugging Face model id, e.g. 'Xenova/bge-small-en-v1.5'. */
  model: string;
  /** The user's model directory; see downloadModel. */
  modelDir: string;
  logger: Logger;
  /** @default 'fp32' */
  dtype?: OnnxDtype;
  /** @default 'mean' */
  pooling?: OnnxPooling;
  /** @default defaultWorkerScripts().embedding (process/workerScripts.ts) */
  worker?: EmbeddingWorkerScript;
  /** @default 32 */
  batchSize?: number;
  /** @default 120000 */
  timeoutMs?: number;
}

/**
 * A local ONNX model through @huggingface/transformers, loaded offline from `modelDir` in the
 * embedding worker: neither this thread nor the engine bundle loads onnxruntime. The package is an
 * optional dependency: without it `init()` rejects with EngramError('UNAVAILABLE').
 */
export class OnnxEmbeddingProvider extends WorkerEmbeddingProvider {
  constructor(options: OnnxProviderOptions) {
    const { model, modelDir } = options;
    const dtype = options.dtype ?? 'fp32';
    const pooling = options.pooling ?? 'mean';
    assertValidModelId(model);
    if (modelDir.trim() === '') throw new EngramError('INVALID_INPUT', 'modelDir must not be empty');
    if (!ONNX_DTYPES.includes(dtype)) {
      throw new EngramError(
        'INVALID_INPUT',
        `dtype must be one of ${ONNX_DTYPES.join(', ')}, got '${String(dtype)}'`,
      );
    }
    if (pooling !== 'mean' && pooling !== 'cls') {
      throw new EngramError('INVALID_INPUT', `pooling must be 'mean' or 'cls', got '${String(pooling)}'`);
    }
    super({
      id: onnxProviderId(model, dtype, pooling),
      spec: { backend: 'onnx', model, modelDir, dtype, pooling },
      worker: options.worker ?? defaultWorkerScripts().embedding,
      logger: options.logger,
      batchSize: options.batchSize,
      timeoutMs: options.timeoutMs,
      checkFiles: () => assertOnnxModelPresent(modelDir, model, dtype),
    });
  }
}

/**
 * 'onnx:<model>', plus the dtype and pooling when they are not the defaults: vectors of the same
 * model at another precision or pooling are not comparable, so they must not share an id.
 */
export function onnxProviderId(model: string, dtype: OnnxDtype, pooling: OnnxPooling): string {
  return `onnx:${model}${dtype === 'fp32' ? '' : `:${dtype}`}${pooling === 'mean' ? '' : `:${pooling}`}`;
}
