import assert from 'node:assert/strict';
import { copyFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EngramError } from '../../engine/errors';
import { silentLogger } from '../../engine/host';
import { resolveDefaultModelAssets } from '../../engine/embedding/useLiteAssets';
import { UseLiteEmbeddingProvider } from '../../engine/embedding/useLiteEmbeddingProvider';
import { cosineOfUnitVectors } from '../../engine/embedding/unitVector';
import { tempDir } from '../support/temp';

const require = createRequire(__filename);
const ASSETS = resolveDefaultModelAssets(require.resolve);

/** [query, a paraphrase, an unrelated sentence]. */
const TRIPLES: Array<[string, string, string]> = [
  [
    'How do I reset my password?',
    'I forgot my login password and need to change it',
    'The weather in Paris is sunny today',
  ],
  [
    'The database migration failed because the column already exists',
    'Schema upgrade error: duplicate column in the table',
    'My cat likes to sleep on the windowsill',
  ],
  [
    'We decided to use PostgreSQL for the user store',
    'The team chose Postgres as the database for accounts',
    'Remember to buy milk and eggs',
  ],
  [
    'A man is playing a guitar',
    'Someone is strumming a guitar on stage',
    'The stock market fell sharply on Monday',
  ],
  [
    'The build fails on Node 18 with a syntax error',
    'Compilation breaks under older Node versions',
    'She painted the fence blue',
  ],
];

const SENTENCES = Array.from(
  { length: 20 },
  (_, i) => `Note ${i}: the ${['parser', 'cache', 'indexer', 'watcher'][i % 4]} handles case ${i * 7}.`,
);

const sameDirection = (a: Float32Array, b: Float32Array) => cosineOfUnitVectors(a, b) > 0.9999;

// One model load for the whole file (about a second): the tests share this provider.
let provider: UseLiteEmbeddingProvider;

describe('UseLiteEmbeddingProvider (real model, worker run from source)', () => {
  before(async () => {
    provider = new UseLiteEmbeddingProvider({ assets: ASSETS, logger: silentLogger, batchSize: 8 });
    await provider.init();
  });
  after(() => provider.dispose());

  it('has the id and dimension recorded with its vectors', () => {
    assert.equal(provider.id, 'use-lite-512');
    assert.equal(provider.dimension, 512);
    assert.ok(provider.loadMillis > 0);
  });

  it('returns unit-length 512-d vectors, also for an empty text', async () => {
    const vectors = await provider.embed(['hello world', '', 'x'.repeat(20_000)]);
    assert.equal(vectors.length, 3);
    for (const vector of vectors) {
      assert.equal(vector.length, 512);
      assert.ok(Math.abs(Math.hypot(...vector) - 1) < 1e-4, `norm ${Math.hypot(...vector)}`);
    }
  });

  it('scores paraphrases higher than unrelated sentences', async () => {
    const vectors = await provider.embed(TRIPLES.flat());
    const at = (triple: number, member: number) => vectors[triple * 3 + member]!;
    TRIPLES.forEach(([query], t) => {
      const similar = cosineOfUnitVectors(at(t, 0), at(t, 1));
      const unrelated = cosineOfUnitVectors(at(t, 0), at(t, 2));
      assert.ok(
        similar > unrelated + 0.4,
        `${query}: paraphrase ${similar.toFixed(3)}, unrelated ${unrelated.toFixed(3)}`,
      );
      // And as a search: the paraphrase is the nearest of all ten other candidates.
      const candidates = TRIPLES.flatMap((_, u) => [at(u, 1), at(u, 2)]);
      const ranked = candidates.map((c) => cosineOfUnitVectors(at(t, 0), c)).sort((a, b) => b - a);
      assert.equal(ranked[0], similar, `${query}: nearest is not its paraphrase`);
    });
  });

  it('keeps the order of texts across batches', async () => {
    const before = provider.stats();
    const forward = await provider.embed(SENTENCES);
    const backward = await provider.embed([...SENTENCES].reverse());
    // 20 texts in batches of 8: 3 batches per call, grouped differently in each direction.
    assert.equal(provider.stats().batches - before.batches, 6);
    SENTENCES.forEach((sentence, i) => {
      assert.ok(
        sameDirection(forward[i]!, backward[SENTENCES.length - 1 - i]!),
        `vector of "${sentence}" moved`,
      );
      if (i > 0)
        assert.ok(!sameDirection(forward[i]!, forward[i - 1]!), 'neighbouring texts got the same vector');
    });
  });

  it('merges concurrent calls into shared batches and answers each with its own vectors', async () => {
    const reference = await provider.embed(SENTENCES.slice(0, 6));
    const before = provider.stats();
    const results = await Promise.all([0, 2, 4].map((i) => provider.embed(SENTENCES.slice(i, i + 2))));
    const stats = provider.stats();
    assert.equal(stats.calls - before.calls, 3);
    assert.equal(
      stats.batches - before.batches,
      1,
      'three calls of two texts should share one batch of eight',
    );
    results.flat().forEach((vector, i) => assert.ok(sameDirection(vector, reference[i]!), `text ${i}`));
  });
});

describe('UseLiteEmbeddingProvider load failures', () => {
  it('names a missing model file before starting a worker', async () => {
    const missing = path.join(tempDir(), 'model.json');
    const broken = new UseLiteEmbeddingProvider({
      assets: { ...ASSETS, modelJson: missing },
      logger: silentLogger,
    });
    await assert.rejects(broken.init(), (error) => {
      assert.ok(EngramError.is(error, 'NOT_FOUND'));
      assert.ok(error.message.includes(missing), error.message);
      return true;
    });
    await broken.dispose();
  });

  it('rejects with UNAVAILABLE when the worker cannot load the model', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'model.json'), '{"not": "a model"');
    copyFileSync(ASSETS.vocabJson, path.join(dir, 'vocab.json'));
    const broken = new UseLiteEmbeddingProvider({
      assets: { ...ASSETS, modelJson: path.join(dir, 'model.json') },
      logger: silentLogger,
    });
    await assert.rejects(broken.embed(['a']), (error) => {
      assert.ok(EngramError.is(error, 'UNAVAILABLE'));
      assert.match(error.message, /could not be loaded/);
      return true;
    });
    await broken.dispose();
  });
});
