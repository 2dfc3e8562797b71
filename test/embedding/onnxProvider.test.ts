import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EngramError } from '../../engine/errors';
import { silentLogger } from '../../engine/host';
import { downloadModel } from '../../engine/embedding/downloadModel';
import { OnnxEmbeddingProvider } from '../../engine/embedding/onnxEmbeddingProvider';
import { importTransformers } from '../../engine/embedding/transformersModule';
import { cosineOfUnitVectors } from '../../engine/embedding/unitVector';
import { tempDir } from '../support/temp';
import { TINY_DIMENSION, writeTinyOnnxModel } from './fixtures/tinyOnnxModel';

const MODEL = 'engram-test/tiny-bert';

describe('OnnxEmbeddingProvider without the model', () => {
  it('is built from its settings alone, before the model directory exists', () => {
    const provider = new OnnxEmbeddingProvider({
      model: 'Xenova/bge-small-en-v1.5',
      modelDir: path.join(tempDir(), 'not-yet-created'),
      pooling: 'cls',
      logger: silentLogger,
    });
    assert.equal(provider.id, 'onnx:Xenova/bge-small-en-v1.5:cls');
    assert.equal(provider.dimension, 0);
  });

  it('rejects embed() with NOT_FOUND naming the missing files and how to get them', async () => {
    const modelDir = tempDir();
    const provider = new OnnxEmbeddingProvider({
      model: 'Xenova/bge-small-en-v1.5',
      modelDir,
      logger: silentLogger,
    });
    await assert.rejects(provider.embed(['a']), (error) => {
      assert.ok(EngramError.is(error, 'NOT_FOUND'), String(error));
      assert.match(
        error.message,
        /ONNX model 'Xenova\/bge-small-en-v1.5' \(fp32\) is not in .*: download it first/,
      );
      assert.match(error.message, /Xenova\/bge-small-en-v1.5\/onnx\/model.onnx/);
      return true;
    });
    await provider.dispose();
  });

  it('rejects model ids that are not Hugging Face ids, and unknown dtypes', () => {
    for (const model of ['../etc', 'a/../../b', '', 'a/b/c', 'https://huggingface.co/x']) {
      assert.throws(
        () => new OnnxEmbeddingProvider({ model, modelDir: '/tmp', logger: silentLogger }),
        (error) => EngramError.is(error, 'INVALID_INPUT'),
        model,
      );
    }
    assert.throws(
      () =>
        new OnnxEmbeddingProvider({
          model: 'a/b',
          modelDir: '/tmp',
          dtype: 'fp64' as 'fp32',
          logger: silentLogger,
        }),
      (error) => EngramError.is(error, 'INVALID_INPUT') && /dtype must be one of/.test(error.message),
    );
  });
});

describe('OnnxEmbeddingProvider with a tiny local model', () => {
  it('loads offline in the worker and pools, normalises and orders vectors', async () => {
    const modelDir = tempDir();
    writeTinyOnnxModel(modelDir, MODEL);
    const provider = new OnnxEmbeddingProvider({
      model: MODEL,
      modelDir,
      logger: silentLogger,
      batchSize: 2,
    });
    after(() => provider.dispose());
    const [cat, kitten, database, sqlite, rain] = await provider.embed([
      'cat',
      'Kitten',
      'database',
      'SQLite',
      'rain',
    ]);
    assert.equal(provider.dimension, TINY_DIMENSION);
    assert.equal(provider.id, `onnx:${MODEL}`);
    for (const vector of [cat!, database!, rain!]) assert.ok(Math.abs(Math.hypot(...vector) - 1) < 1e-5);
    assert.ok(cosineOfUnitVectors(cat!, kitten!) > 0.999);
    assert.ok(cosineOfUnitVectors(database!, sqlite!) > 0.999);
    assert.ok(cosineOfUnitVectors(cat!, database!) < 0.1);
    assert.ok(cosineOfUnitVectors(cat!, rain!) < 0.1);
  });
});

describe('importTransformers when the optional package is missing', () => {
  it('rejects with UNAVAILABLE naming the package and how to install it', async () => {
    await assert.rejects(importTransformers('@huggingface/not-installed-here'), (error) => {
      assert.ok(EngramError.is(error, 'UNAVAILABLE'), String(error));
      assert.match(
        error.message,
        /@huggingface\/not-installed-here could not be loaded \(it is an optional dependency/,
      );
      return true;
    });
  });
});

describe('downloadModel', () => {
  /** A stand-in Hugging Face host on 127.0.0.1 serving `<model>/resolve/main/<file>` from a directory. */
  let mirror: Server;
  let mirrorUrl: string;
  const served = tempDir();
  const requests: string[] = [];

  before(async () => {
    writeTinyOnnxModel(served, MODEL);
    mirror = createServer((request, response) => {
      requests.push(request.url ?? '');
      const match = /^\/(.+?)\/resolve\/main\/(.+)$/.exec(decodeURIComponent(request.url ?? ''));
      const file = match ? path.join(served, match[1]!, match[2]!) : '';
      if (match && existsSync(file)) response.writeHead(200).end(readFileSync(file));
      else response.writeHead(404).end('Entry not found');
    });
    await new Promise<void>((resolve) => mirror.listen(0, '127.0.0.1', resolve));
    mirrorUrl = `http://127.0.0.1:${(mirror.address() as AddressInfo).port}/`;
  });
  after(() => {
    mirror.closeAllConnections();
    mirror.close();
  });

  it('fetches the model into the given directory, where the provider then loads it offline', async () => {
    const dir = tempDir();
    const progress: string[] = [];
    await downloadModel(MODEL, dir, { remoteHost: mirrorUrl, onProgress: (p) => progress.push(p.file) });
    assert.ok(requests.some((url) => url.endsWith('/onnx/model.onnx')));
    assert.ok(progress.includes('onnx/model.onnx'), progress.join(', '));
    assert.ok(existsSync(path.join(dir, 'engram-test', 'tiny-bert', 'onnx', 'model.onnx')));

    mirror.closeAllConnections();
    const requestsBefore = requests.length;
    const provider = new OnnxEmbeddingProvider({ model: MODEL, modelDir: dir, logger: silentLogger });
    after(() => provider.dispose());
    const [cat, kitten] = await provider.embed(['cat', 'kitten']);
    assert.ok(cosineOfUnitVectors(cat!, kitten!) > 0.999);
    assert.equal(requests.length, requestsBefore, 'the provider must not contact the host');
  });

  it('fails with UNAVAILABLE naming the model when the host does not have it', async () => {
    await assert.rejects(
      downloadModel('engram-test/absent', tempDir(), { remoteHost: mirrorUrl }),
      (error) =>
        EngramError.is(error, 'UNAVAILABLE') && /downloading engram-test\/absent failed/.test(error.message),
    );
  });
});
