import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as tfjs from '@energetic-ai/core';
import { EmbeddingsModel } from '@energetic-ai/embeddings';
import { lengthBuckets } from './lengthBuckets';
import { TFJS_WASM_FILES } from './useLiteAssets';
import type { UseLiteAssets } from './useLiteAssets';
import { toUnitVector } from './unitVector';
import type { EmbeddingBackend } from './workerProtocol';

/**
 * The part of TF.js (as bundled by @energetic-ai/core) used here. Declared locally because the
 * package's typings re-export @tensorflow/* packages that are not installed.
 */
interface TfjsWasmRuntime {
  setWasmPaths(paths: Record<string, string>): void;
  ready(): Promise<void>;
  getBackend(): string;
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
  // Explicit paths: bundled, the backend would look beside the bundle, not where the host put them.
  tf.setWasmPaths(Object.fromEntries(TFJS_WASM_FILES.map((name) => [name, path.join(assets.wasmDir, name)])));
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
