import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseEmbeddingSetting } from '../../engine/embedding/embeddingSetting';
import { EngramError } from '../../engine/errors';

const assets = { modelJson: '/m/model.json', vocabJson: '/m/vocab.json', wasmDir: '/m' };
const context = (env: NodeJS.ProcessEnv = {}) => ({ useLiteAssets: () => assets, modelDir: '/models', env });

describe('embedding setting', () => {
  it('defaults to no model; USE-lite when asked for; off with off or none', () => {
    assert.equal(parseEmbeddingSetting('', context()), null);
    assert.equal(parseEmbeddingSetting('default', context()), null);
    assert.deepEqual(parseEmbeddingSetting('use-lite', context()), { kind: 'use-lite', assets });
    assert.equal(parseEmbeddingSetting('off', context()), null);
    assert.equal(parseEmbeddingSetting(' none ', context()), null);
  });

  it('reads onnx models with pooling, and HTTP endpoints with their base URL and a key from the environment', () => {
    assert.deepEqual(parseEmbeddingSetting('onnx:Xenova/bge-small-en-v1.5#cls', context()), {
      kind: 'onnx',
      model: 'Xenova/bge-small-en-v1.5',
      modelDir: '/models',
      pooling: 'cls',
    });
    assert.deepEqual(parseEmbeddingSetting('ollama:nomic-embed-text', context()), {
      kind: 'ollama',
      model: 'nomic-embed-text',
      baseUrl: 'http://127.0.0.1:11434',
    });
    assert.deepEqual(
      parseEmbeddingSetting(
        'openai:text-embedding-3-small@http://127.0.0.1:8080/v1',
        context({ OPENAI_API_KEY: 'k' }),
      ),
      { kind: 'openai', model: 'text-embedding-3-small', baseUrl: 'http://127.0.0.1:8080/v1', apiKey: 'k' },
    );
  });

  it('rejects anything else with one line naming the choices', () => {
    for (const bad of ['bert', 'onnx:', 'onnx:a/b@http://x', 'ollama:m#cls', 'openai:a b']) {
      assert.throws(
        () => parseEmbeddingSetting(bad, context()),
        (error) => EngramError.is(error, 'INVALID_INPUT') && !error.message.includes('\n'),
        bad,
      );
    }
  });
});
