import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as tfjs from '@energetic-ai/core';
import { EmbeddingsModel } from '@energetic-ai/embeddings';
import { lengthBuckets } from './lengthBuckets';
import type { UseLiteAssets } from './useLiteAssets';
import { toUnitVector } from './unitVector';
import type { EmbeddingBackend } from './workerProtocol';

/**
 * The part of TF.js (as bundled by @energetic-ai/core) used here. Declared locally because the
 * package's typings re-export @tensorflow/* packages that are not installed.
 */
interface TfjsWasmRuntime {
  setWasmPaths(prefix: string): void;
  ready(): Promise<void>;
  getBackend(): string;
  env(): { getAsync(flag: string): Promise<unknown> };
  loadGraphModel(handler: unknown): Promise<unknown>;
  io: { fileSystem(modelJsonPath: string): unknown };
}

const tf = tfjs as unknown as TfjsWasmRuntime;

/** USE-lite's output size. */
const DIMENSION = 512;

/**
 * Bounds the work per text: USE-lite is a sentence model, callers should chunk long documents, and
 * a pasted megabyte should not stall the batch it rides in.
 */
const MAX_CHARS = 10_000;

/** Texts x longest text per model call; see lengthBuckets. */
const PADDED_TOKEN_BUDGET = 512;

/**
 * Loads Universal Sentence Encoder Lite on the TF.js WASM backend. Runs inside the embedding
 * worker: loading takes a few hundred milliseconds and each batch keeps a core busy.
 */
export async function loadUseLiteBackend(assets: UseLiteAssets): Promise<EmbeddingBackend> {
  // Only the SIMD binary ships (TFJS_WASM_FILES): say so plainly rather than fail to fetch another.
  if ((await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT')) !== true) {
    throw new Error(
      'USE-lite needs WebAssembly SIMD, which this runtime lacks: choose another embedding provider',
    );
  }
  // An explicit folder: bundled, the backend would look beside the bundle, not where the host put
  // them. A folder, not a map: TF.js wants a map to name all three binaries, and only one ships.
  tf.setWasmPaths(`${assets.wasmDir}${path.sep}`);
  await tf.ready();
  if (tf.getBackend() !== 'wasm') throw new Error(`TF.js chose the '${tf.getBackend()}' backend, not wasm`);
  const [model, vocabulary] = await Promise.all([
    tf.loadGraphModel(tf.io.fileSystem(assets.modelJson)),
    readFile(assets.vocabJson, 'utf8').then((text) => JSON.parse(text) as Array<[string, number]>),
  ]);
  const encoder = new EmbeddingsModel({ model, vocabulary });
  return {
    dimension: DIMENSION,
    embed: async (texts) => {
      const inputs = texts.map(modelInput);
      const tokenCounts = inputs.map((input) => encoder.tokenizer.encode(input).length);
      const vectors = new Array<Float32Array>(texts.length);
      for (const group of lengthBuckets(tokenCounts, PADDED_TOKEN_BUDGET)) {
        const rows = await encoder.embed(group.map((i) => inputs[i]!));
        // The model drops the row of an input with no tokens: check rather than shift vectors.
        if (rows.length !== group.length) {
          throw new Error(`USE-lite returned ${rows.length} rows for ${group.length} texts`);
        }
        group.forEach((textIndex, row) => (vectors[textIndex] = toUnitVector(rows[row]!)));
      }
      return vectors;
    },
  };
}

/** An empty text has no tokens, and USE-lite would then return one row fewer: embed a space instead. */
function modelInput(text: string): string {
  const clipped = text.length > MAX_CHARS ? text.slice(0, MAX_CHARS) : text;
  return clipped.normalize('NFKC').length === 0 ? ' ' : clipped;
}
