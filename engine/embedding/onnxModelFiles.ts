import { existsSync } from 'node:fs';
import path from 'node:path';
import { EngramError } from '../errors';

/** Weight precisions that transformers.js publishes ONNX files for (onnx/model<suffix>.onnx). */
export type OnnxDtype = 'fp32' | 'fp16' | 'q8' | 'int8' | 'uint8' | 'q4' | 'q4f16' | 'bnb4';

/** How token vectors become one sentence vector: BGE uses the [CLS] token, most others the mean. */
export type OnnxPooling = 'mean' | 'cls';

/** transformers.js's DEFAULT_DTYPE_SUFFIX_MAPPING, for the dtypes above. */
const DTYPE_SUFFIX: Record<OnnxDtype, string> = {
  fp32: '',
  fp16: '_fp16',
  q8: '_quantized',
  int8: '_int8',
  uint8: '_uint8',
  q4: '_q4',
  q4f16: '_q4f16',
  bnb4: '_bnb4',
};

export const ONNX_DTYPES = Object.keys(DTYPE_SUFFIX) as OnnxDtype[];

/** 'owner/name' or 'name': letters, digits, '.', '_' and '-', never a path that climbs out. */
const MODEL_ID = /^[A-Za-z0-9][\w.-]*(\/[A-Za-z0-9][\w.-]*)?$/;

export function assertValidModelId(model: string): void {
  if (!MODEL_ID.test(model) || model.split('/').includes('..')) {
    throw new EngramError(
      'INVALID_INPUT',
      `model must be a Hugging Face id like 'Xenova/bge-small-en-v1.5', got '${model}'`,
    );
  }
}

/** The files a feature-extraction pipeline reads, laid out as under `env.localModelPath`. */
export function onnxModelFiles(modelDir: string, model: string, dtype: OnnxDtype): string[] {
  const root = path.join(modelDir, ...model.split('/'));
  return [
    path.join(root, 'config.json'),
    path.join(root, 'tokenizer.json'),
    path.join(root, 'tokenizer_config.json'),
    path.join(root, 'onnx', `model${DTYPE_SUFFIX[dtype]}.onnx`),
  ];
}

/**
 * Checks, before any ONNX code loads, that the model was downloaded; the error says how to get it,
 * because offline loading otherwise fails deep inside transformers.js with a less useful message.
 */
export function assertOnnxModelPresent(modelDir: string, model: string, dtype: OnnxDtype): void {
  assertValidModelId(model);
  const missing = onnxModelFiles(modelDir, model, dtype).filter((file) => !existsSync(file));
  if (missing.length > 0) {
    throw new EngramError(
      'NOT_FOUND',
      `ONNX model '${model}' (${dtype}) is not in ${modelDir}: download it first (downloadModel), missing ${missing
        .map((file) => path.relative(modelDir, file))
        .join(', ')}`,
      { model, modelDir, missing },
    );
  }
}
