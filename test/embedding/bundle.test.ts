import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import * as esbuild from 'esbuild';
import { tempDir } from '../support/temp';

const root = path.join(__dirname, '..', '..');

/** Bundles an entry as scripts/build.mjs does and lists the files that went into it. */
async function bundledInputs(entry: string): Promise<string[]> {
  const result = await esbuild.build({
    entryPoints: [path.join(root, entry)],
    outfile: path.join(tempDir(), 'bundle.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    external: ['vscode'],
    metafile: true,
    logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs);
}

describe('embedding bundles', () => {
  it('the caller side (engine/embedding/index.ts) carries neither TF.js nor transformers.js nor onnxruntime', async () => {
    const inputs = await bundledInputs('engine/embedding/index.ts');
    assert.ok(inputs.includes('engine/embedding/createEmbeddingProvider.ts'));
    assert.deepEqual(
      inputs.filter((input) => input.includes('node_modules/')),
      [],
    );
  });

  it('the worker bundles TF.js and the USE-lite tokenizer, and leaves transformers.js to a runtime import', async () => {
    const inputs = await bundledInputs('engine/embedding/embeddingWorker.ts');
    assert.ok(inputs.some((input) => input.includes('node_modules/@energetic-ai/core/')));
    assert.ok(inputs.some((input) => input.includes('node_modules/@energetic-ai/embeddings/')));
    assert.deepEqual(
      inputs.filter((input) => /onnxruntime|@huggingface|sharp/.test(input)),
      [],
    );
  });
});
