import { importTransformers } from './transformersModule';
import type { OnnxDtype, OnnxPooling } from './onnxModelFiles';
import { toUnitVector } from './unitVector';
import type { EmbeddingBackend } from './workerProtocol';

/**
 * Loads a local ONNX model through transformers.js, offline: remote models stay disallowed, so a
 * missing file fails instead of reaching for huggingface.co. Runs inside the embedding worker.
 */
export async function loadOnnxBackend(spec: {
  model: string;
  modelDir: string;
  dtype: OnnxDtype;
  pooling: OnnxPooling;
}): Promise<EmbeddingBackend> {
  const transformers = await importTransformers();
  const { env } = transformers;
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.localModelPath = spec.modelDir;
  // Read only from modelDir: the default cache lives inside node_modules.
  env.useFSCache = false;
  env.cacheDir = spec.modelDir;
  const extractor = await transformers.pipeline('feature-extraction', spec.model, {
    dtype: spec.dtype,
    device: 'cpu',
  });
  const embed = async (texts: string[]): Promise<Float32Array[]> => {
    const output = await extractor(texts, { pooling: spec.pooling, normalize: true });
    const [rows, dimension] = output.dims;
    if (output.dims.length !== 2 || rows !== texts.length || dimension === undefined) {
      throw new Error(`the model returned shape [${output.dims.join(', ')}] for ${texts.length} texts`);
    }
    return Array.from({ length: rows }, (_, row) =>
      toUnitVector(output.data.subarray(row * dimension, (row + 1) * dimension)),
    );
  };
  const probe = await embed(['dimension probe']);
  return { dimension: probe[0]!.length, embed };
}
