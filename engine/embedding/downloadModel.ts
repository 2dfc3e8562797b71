import { mkdirSync } from 'node:fs';
import { EngramError } from '../errors';
import { assertOnnxModelPresent, assertValidModelId } from './onnxModelFiles';
import type { OnnxDtype } from './onnxModelFiles';
import { importTransformers } from './transformersModule';
import type { TransformersModule } from './transformersModule';

export interface DownloadModelOptions {
  /** Which weights to fetch (onnx/model<suffix>.onnx). @default 'fp32' */
  dtype?: OnnxDtype;
  /** A Hugging Face mirror, e.g. 'https://hf-mirror.example/'. @default transformers.js's own (huggingface.co) */
  remoteHost?: string;
  /** Called as files arrive, for a progress bar. */
  onProgress?: (progress: { file: string; loaded: number; total: number }) => void;
}

type TransformersEnv = TransformersModule['env'];

/**
 * Downloads an ONNX model into `dir` (the user's storage) in the layout the offline loader reads,
 * `<dir>/<owner>/<name>/...`. The only place remote models are allowed, and only for this call:
 * hosts call it when the user explicitly opts in to a download.
 *
 * It runs transformers.js in the calling process (loading onnxruntime there); embedding itself
 * always runs in the worker, whose copy of transformers.js never allows remote models.
 */
export async function downloadModel(
  modelId: string,
  dir: string,
  options: DownloadModelOptions = {},
): Promise<void> {
  assertValidModelId(modelId);
  const dtype = options.dtype ?? 'fp32';
  mkdirSync(dir, { recursive: true });
  const transformers = await importTransformers();
  const { env } = transformers;
  const saved = snapshot(env);
  try {
    env.allowRemoteModels = true;
    env.allowLocalModels = true;
    env.localModelPath = dir;
    // The file cache writes <cacheDir>/<model id>/<file>: the same layout localModelPath reads.
    env.useFSCache = true;
    env.cacheDir = dir;
    if (options.remoteHost !== undefined) env.remoteHost = options.remoteHost;
    const extractor = await transformers.pipeline('feature-extraction', modelId, {
      dtype,
      device: 'cpu',
      progress_callback: (progress) => reportProgress(progress, options.onProgress),
    });
    await extractor.dispose();
  } catch (error) {
    throw new EngramError(
      'UNAVAILABLE',
      `downloading ${modelId} failed: ${error instanceof Error ? error.message : String(error)}`,
      {
        model: modelId,
      },
    );
  } finally {
    Object.assign(env, saved);
  }
  assertOnnxModelPresent(dir, modelId, dtype);
}

/** The settings this function changes, to put back afterwards. */
function snapshot(env: TransformersEnv): Partial<TransformersEnv> {
  const { allowRemoteModels, allowLocalModels, localModelPath, useFSCache, cacheDir, remoteHost } = env;
  return { allowRemoteModels, allowLocalModels, localModelPath, useFSCache, cacheDir, remoteHost };
}

function reportProgress(progress: unknown, onProgress: DownloadModelOptions['onProgress']): void {
  if (!onProgress || typeof progress !== 'object' || progress === null) return;
  const { status, file, loaded, total } = progress as Record<string, unknown>;
  if (
    status === 'progress' &&
    typeof file === 'string' &&
    typeof loaded === 'number' &&
    typeof total === 'number'
  ) {
    onProgress({ file, loaded, total });
  }
}
