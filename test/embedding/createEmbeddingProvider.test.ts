import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { EngramError } from '../../engine/errors';
import { silentLogger } from '../../engine/host';
import { createEmbeddingProvider } from '../../engine/embedding/createEmbeddingProvider';
import { OllamaEmbeddingProvider } from '../../engine/embedding/ollamaEmbeddingProvider';
import { OnnxEmbeddingProvider } from '../../engine/embedding/onnxEmbeddingProvider';
import { OpenAiEmbeddingProvider } from '../../engine/embedding/openAiEmbeddingProvider';
import type { EmbeddingConfig } from '../../engine/embedding/types';
import {
  resolveDefaultModelAssets,
  TFJS_WASM_FILES,
  useLiteAssetsInDirectory,
} from '../../engine/embedding/useLiteAssets';
import { UseLiteEmbeddingProvider } from '../../engine/embedding/useLiteEmbeddingProvider';
import { tempDir } from '../support/temp';

const require = createRequire(__filename);
const root = path.join(__dirname, '..', '..');

describe('createEmbeddingProvider', () => {
  it('builds the provider each kind names, with its model id, and loads nothing yet', () => {
    const cases: Array<[EmbeddingConfig, unknown, string]> = [
      [
        { kind: 'use-lite', assets: resolveDefaultModelAssets(require.resolve) },
        UseLiteEmbeddingProvider,
        'use-lite-512',
      ],
      [
        { kind: 'onnx', model: 'Xenova/bge-small-en-v1.5', modelDir: tempDir(), pooling: 'cls', dtype: 'q8' },
        OnnxEmbeddingProvider,
        'onnx:Xenova/bge-small-en-v1.5:q8:cls',
      ],
      [
        {
          kind: 'openai',
          baseUrl: 'https://api.openai.com/v1',
          model: 'text-embedding-3-small',
          apiKey: 'k',
        },
        OpenAiEmbeddingProvider,
        'openai:text-embedding-3-small',
      ],
      [
        { kind: 'ollama', baseUrl: 'http://127.0.0.1:11434', model: 'nomic-embed-text' },
        OllamaEmbeddingProvider,
        'ollama:nomic-embed-text',
      ],
    ];
    for (const [config, type, id] of cases) {
      const provider = createEmbeddingProvider(config, silentLogger);
      after(() => provider.dispose());
      assert.ok(provider instanceof (type as new (...args: never[]) => unknown), config.kind);
      assert.equal(provider.id, id);
      assert.equal(provider.dimension, 0);
    }
  });

  it('rejects an unknown kind, naming the kinds it knows', () => {
    assert.throws(
      () => createEmbeddingProvider({ kind: 'word2vec' } as unknown as EmbeddingConfig, silentLogger),
      (error) =>
        EngramError.is(error, 'INVALID_INPUT') &&
        error.message.includes("'use-lite', 'onnx', 'openai' or 'ollama', got 'word2vec'"),
    );
  });
});

describe('USE-lite assets', () => {
  it('resolveDefaultModelAssets finds the model, vocabulary and wasm files in node_modules', () => {
    const assets = resolveDefaultModelAssets(require.resolve);
    assert.ok(existsSync(assets.modelJson), assets.modelJson);
    assert.ok(existsSync(assets.vocabJson), assets.vocabJson);
    for (const name of TFJS_WASM_FILES) assert.ok(existsSync(path.join(assets.wasmDir, name)), name);
  });

  it('the build copies every file the model needs to dist/use-lite', () => {
    const assets = useLiteAssetsInDirectory(path.join(root, 'dist', 'use-lite'));
    const manifest = JSON.parse(readFileSync(assets.modelJson, 'utf8')) as {
      weightsManifest: Array<{ paths: string[] }>;
    };
    const shards = manifest.weightsManifest.flatMap((group) => group.paths);
    assert.ok(shards.length > 0);
    for (const file of [assets.vocabJson, ...shards.map((s) => path.join(assets.wasmDir, s))]) {
      assert.ok(existsSync(file), `${file} missing: run node scripts/build.mjs`);
    }
    for (const name of TFJS_WASM_FILES) assert.ok(existsSync(path.join(assets.wasmDir, name)), name);
  });
});
