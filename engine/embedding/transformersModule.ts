import { EngramError } from '../errors';

/**
 * The part of @huggingface/transformers used here. Declared locally because the package is an
 * optional dependency (see onnxEmbeddingProvider.ts): type-checking must not need it installed.
 */
export interface TransformersModule {
  env: {
    allowRemoteModels: boolean;
    remoteHost: string;
    allowLocalModels: boolean;
    localModelPath: string;
    useFSCache: boolean;
    cacheDir: string | null;
    logLevel: number;
  };
  LogLevel: { ERROR: number };
  pipeline(task: 'feature-extraction', model: string, options: PipelineOptions): Promise<FeatureExtractor>;
}

export interface PipelineOptions {
  dtype: string;
  device?: 'cpu';
  progress_callback?: (progress: unknown) => void;
}

export interface FeatureExtractor {
  (
    texts: string[],
    options: { pooling: 'mean' | 'cls'; normalize: boolean },
  ): Promise<{
    dims: number[];
    data: Float32Array;
  }>;
  dispose(): Promise<void>;
}

/** A variable, not a literal, so neither esbuild nor tsc tries to resolve the optional package. */
const PACKAGE = '@huggingface/transformers';

/**
 * Loads transformers.js (and with it onnxruntime-node) only when an ONNX model is used, and sets
 * its logging to errors only: its info and debug messages go to console.log, i.e. stdout, which is
 * the MCP channel.
 */
export async function importTransformers(packageName: string = PACKAGE): Promise<TransformersModule> {
  let module: TransformersModule;
  try {
    module = (await import(packageName)) as TransformersModule;
  } catch (error) {
    throw new EngramError(
      'UNAVAILABLE',
      `${packageName} could not be loaded (it is an optional dependency, installed with ONNXRUNTIME_NODE_INSTALL=skip): ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
  }
  module.env.logLevel = module.LogLevel.ERROR;
  return module;
}
