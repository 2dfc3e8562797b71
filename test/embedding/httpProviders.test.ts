import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { EngramError } from '../../engine/errors';
import { OllamaEmbeddingProvider } from '../../engine/embedding/ollamaEmbeddingProvider';
import { OpenAiEmbeddingProvider } from '../../engine/embedding/openAiEmbeddingProvider';
import { readBody } from '../support/chatCompletionServer';

/**
 * A real HTTP server on 127.0.0.1 that speaks the OpenAI embeddings API and Ollama's /api/embed
 * (a paid or remote API cannot be reached from here). Its vectors are a function of the text and
 * deliberately not unit length: [length, 2, first char code, 1] * 3.
 */
interface Received {
  path: string;
  authorization: string | undefined;
  body: { model?: string; input?: string[] };
}

interface Behaviour {
  status?: number;
  errorBody?: string;
  delayMs?: number;
  /** OpenAI: return `data` in reverse order (with indexes), as the API allows. */
  shuffle?: boolean;
  /** Answer with this many fewer vectors than asked for. */
  dropOne?: boolean;
  /** Dimension of the vectors after the first request. */
  laterDimension?: number;
}

const DIMENSION = 4;
const rawVector = (text: string, dimension = DIMENSION) =>
  [text.length, 2, text.charCodeAt(0) || 0, 1, 5, 6].slice(0, dimension).map((x) => x * 3);

let server: Server;
let baseUrl: string;
let received: Received[] = [];
let behaviour: Behaviour = {};

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const body = JSON.parse(await readBody(request)) as Received['body'];
  received.push({ path: request.url ?? '', authorization: request.headers.authorization, body });
  if (behaviour.delayMs) await new Promise((resolve) => setTimeout(resolve, behaviour.delayMs));
  if (response.destroyed) return;
  if (behaviour.status) {
    response.writeHead(behaviour.status, { 'content-type': 'application/json' });
    response.end(behaviour.errorBody ?? '');
    return;
  }
  const inputs = body.input ?? [];
  const dimension = received.length > 1 ? (behaviour.laterDimension ?? DIMENSION) : DIMENSION;
  const vectors = inputs.slice(behaviour.dropOne ? 1 : 0).map((text) => rawVector(text, dimension));
  response.writeHead(200, { 'content-type': 'application/json' });
  if (request.url === '/v1/embeddings') {
    const data = vectors.map((embedding, index) => ({ object: 'embedding', index, embedding }));
    response.end(
      JSON.stringify({ object: 'list', model: body.model, data: behaviour.shuffle ? data.reverse() : data }),
    );
  } else if (request.url === '/api/embed') {
    response.end(JSON.stringify({ model: body.model, embeddings: vectors }));
  } else {
    response.writeHead(404).end();
  }
}

before(async () => {
  server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(() => {
  received = [];
  behaviour = {};
});

const unitOf = (text: string) => {
  const raw = rawVector(text);
  const norm = Math.hypot(...raw);
  return raw.map((x) => x / norm);
};
const assertVectorsOf = (vectors: Float32Array[], texts: string[]) => {
  assert.equal(vectors.length, texts.length);
  vectors.forEach((vector, i) => {
    const expected = unitOf(texts[i] === '' ? ' ' : texts[i]!);
    vector.forEach((x, j) => assert.ok(Math.abs(x - expected[j]!) < 1e-6, `text ${i} value ${j}`));
  });
};
const unavailable = (pattern: RegExp) => (error: unknown) => {
  assert.ok(EngramError.is(error, 'UNAVAILABLE'), `expected UNAVAILABLE, got ${String(error)}`);
  assert.match(error.message, pattern);
  return true;
};

describe('OpenAiEmbeddingProvider', () => {
  const open = (extra: { apiKey?: string; batchSize?: number; timeoutMs?: number } = {}) =>
    new OpenAiEmbeddingProvider({ baseUrl: `${baseUrl}/v1/`, model: 'text-embedding-3-small', ...extra });

  it('learns the dimension from the first response and sends model, input and the bearer key', async () => {
    const provider = open({ apiKey: 'sk-test' });
    assert.equal(provider.id, 'openai:text-embedding-3-small');
    assert.equal(provider.dimension, 0);
    await provider.init();
    assert.equal(provider.dimension, DIMENSION);
    assert.equal(received.length, 1);
    assert.equal(received[0]!.path, '/v1/embeddings');
    assert.equal(received[0]!.authorization, 'Bearer sk-test');
    assert.equal(received[0]!.body.model, 'text-embedding-3-small');
    await provider.dispose();
  });

  it('batches texts, puts shuffled answers back in order by index, and normalises', async () => {
    behaviour.shuffle = true;
    const provider = open({ batchSize: 2 });
    const texts = ['alpha', 'be', 'gamma ray', 'd', ''];
    const vectors = await provider.embed(texts);
    assertVectorsOf(vectors, texts);
    assert.deepEqual(
      received.slice(1).map((r) => r.body.input),
      [['alpha', 'be'], ['gamma ray', 'd'], [' ']],
    );
    assert.equal(received[0]!.authorization, undefined, 'no key configured, no header');
    await provider.dispose();
  });

  it('merges concurrent calls into one request', async () => {
    const provider = open({ batchSize: 10 });
    await provider.init();
    const results = await Promise.all([
      provider.embed(['a', 'b']),
      provider.embed(['c']),
      provider.embed(['d', 'e']),
    ]);
    assertVectorsOf(results.flat(), ['a', 'b', 'c', 'd', 'e']);
    assert.equal(received.length, 2, 'the probe and one merged request');
    await provider.dispose();
  });

  it('names the endpoint, the status and the server message on an HTTP error, never the key', async () => {
    behaviour.status = 401;
    behaviour.errorBody = JSON.stringify({
      error: { message: 'Incorrect API key provided', type: 'invalid_request_error' },
    });
    const provider = open({ apiKey: 'sk-secret-123' });
    await assert.rejects(provider.embed(['a']), (error) => {
      unavailable(
        new RegExp(`POST ${baseUrl}/v1/embeddings returned 401 Unauthorized: Incorrect API key provided`),
      )(error);
      assert.ok(!(error as Error).message.includes('sk-secret-123'));
      assert.equal((error as EngramError).details?.status, 401);
      return true;
    });
    // init() failures are not cached: once the server recovers, the provider works.
    behaviour = {};
    assert.equal((await provider.embed(['a'])).length, 1);
    await provider.dispose();
  });

  it('times out a slow request and says so', async () => {
    behaviour.delayMs = 1_000;
    const provider = open({ timeoutMs: 200 });
    await assert.rejects(provider.init(), unavailable(/\/v1\/embeddings timed out after 200 ms/));
    await provider.dispose();
  });

  it('rejects an answer with the wrong number of vectors or a changed dimension', async () => {
    const provider = open();
    await provider.init();
    behaviour.dropOne = true;
    await assert.rejects(provider.embed(['a', 'b']), unavailable(/returned 1 vectors for 2 texts/));
    behaviour = { laterDimension: 3 };
    await assert.rejects(provider.embed(['a']), unavailable(/vector of 3 values at 0, expected 4/));
    await provider.dispose();
  });

  it('rejects a body that is not JSON or has no data array', async () => {
    behaviour = { status: 200, errorBody: '<html>proxy login</html>' };
    const provider = open();
    await assert.rejects(
      provider.init(),
      unavailable(/returned a body that is not JSON: <html>proxy login<\/html>/),
    );
    behaviour = { status: 200, errorBody: '{"object":"list"}' };
    await assert.rejects(provider.init(), unavailable(/returned no 'data' array/));
    await provider.dispose();
  });

  it('dispose cancels a request in flight with CLOSED', async () => {
    const provider = open();
    await provider.init();
    behaviour.delayMs = 1_000;
    const pending = assert.rejects(provider.embed(['a']), (error) => EngramError.is(error, 'CLOSED'));
    while (received.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    await provider.dispose();
    await pending;
    await assert.rejects(provider.embed(['b']), (error) => EngramError.is(error, 'CLOSED'));
  });
});

describe('OllamaEmbeddingProvider', () => {
  const open = (extra: { batchSize?: number; timeoutMs?: number } = {}) =>
    new OllamaEmbeddingProvider({ baseUrl, model: 'nomic-embed-text', ...extra });

  it('posts model and input to /api/embed in batches and returns unit vectors in order', async () => {
    const provider = open({ batchSize: 3 });
    assert.equal(provider.id, 'ollama:nomic-embed-text');
    const texts = ['one', 'two', 'three', 'four'];
    assertVectorsOf(await provider.embed(texts), texts);
    assert.equal(provider.dimension, DIMENSION);
    assert.deepEqual(
      received.map((r) => [r.path, r.body.model, r.body.input]),
      [
        ['/api/embed', 'nomic-embed-text', ['dimension probe']],
        ['/api/embed', 'nomic-embed-text', ['one', 'two', 'three']],
        ['/api/embed', 'nomic-embed-text', ['four']],
      ],
    );
    await provider.dispose();
  });

  it("quotes Ollama's error string with the endpoint and status", async () => {
    behaviour.status = 404;
    behaviour.errorBody = JSON.stringify({
      error: 'model "nomic-embed-text" not found, try pulling it first',
    });
    const provider = open();
    await assert.rejects(
      provider.init(),
      unavailable(
        new RegExp(`POST ${baseUrl}/api/embed returned 404 Not Found: model "nomic-embed-text" not found`),
      ),
    );
    await provider.dispose();
  });

  it('names the endpoint when nothing listens there', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const provider = new OllamaEmbeddingProvider({ baseUrl: url, model: 'm' });
    await assert.rejects(
      provider.init(),
      unavailable(new RegExp(`POST ${url}/api/embed failed: fetch failed \\(ECONNREFUSED\\)`)),
    );
    await provider.dispose();
  });
});

describe('HTTP provider settings', () => {
  it('rejects a base URL that is not http(s) and an empty model, at construction', () => {
    for (const bad of ['localhost:11434', 'ftp://host/', 'http://host/?key=1']) {
      assert.throws(
        () => new OllamaEmbeddingProvider({ baseUrl: bad, model: 'm' }),
        (error) => EngramError.is(error, 'INVALID_INPUT') && error.message.includes(bad),
      );
    }
    assert.throws(
      () => new OpenAiEmbeddingProvider({ baseUrl: 'https://api.openai.com/v1', model: ' ' }),
      (error) => EngramError.is(error, 'INVALID_INPUT'),
    );
  });
});
