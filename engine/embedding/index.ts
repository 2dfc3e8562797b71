/** The embedding layer: providers that turn texts into unit vectors, and how to build them. */
export { createEmbeddingProvider } from './createEmbeddingProvider';
export type {
  BatchingOptions,
  EmbeddingConfig,
  EmbeddingProvider,
  EmbeddingWorkerScript,
  OllamaConfig,
  OnnxConfig,
  OpenAiConfig,
  UseLiteConfig,
} from './types';
export {
  assertUseLiteAssetsExist,
  resolveDefaultModelAssets,
  useLiteAssetsInDirectory,
} from './useLiteAssets';
export type { UseLiteAssets } from './useLiteAssets';
export { UseLiteEmbeddingProvider } from './useLiteEmbeddingProvider';
export type { UseLiteProviderOptions } from './useLiteEmbeddingProvider';
export { OnnxEmbeddingProvider, onnxProviderId } from './onnxEmbeddingProvider';
export type { OnnxProviderOptions } from './onnxEmbeddingProvider';
export { assertOnnxModelPresent, onnxModelFiles } from './onnxModelFiles';
export type { OnnxDtype, OnnxPooling } from './onnxModelFiles';
export { downloadModel } from './downloadModel';
export type { DownloadModelOptions } from './downloadModel';
export { OpenAiEmbeddingProvider } from './openAiEmbeddingProvider';
export type { OpenAiProviderOptions } from './openAiEmbeddingProvider';
export { OllamaEmbeddingProvider } from './ollamaEmbeddingProvider';
export type { OllamaProviderOptions } from './ollamaEmbeddingProvider';
export { WorkerEmbeddingProvider } from './workerEmbeddingProvider';
export { HttpEmbeddingProvider } from './httpEmbeddingProvider';
export type { EmbeddingQueueStats } from './embeddingQueue';
export { cosineOfUnitVectors, toUnitVector } from './unitVector';
export { EMBEDDING_SETTING_HELP, parseEmbeddingSetting } from './embeddingSetting';
export type { EmbeddingSettingContext } from './embeddingSetting';
