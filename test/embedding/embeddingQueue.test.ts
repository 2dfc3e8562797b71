import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EngramError } from '../../engine/errors';
import { EmbeddingQueue } from '../../engine/embedding/embeddingQueue';

/** A runner that encodes each text as [length, first char code] and records the batches it saw. */
function recordingRunner(options: { failOn?: string; delayMs?: number } = {}) {
  const batches: string[][] = [];
  const run = async (texts: string[]): Promise<Float32Array[]> => {
    batches.push(texts);
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    if (options.failOn !== undefined && texts.includes(options.failOn))
      throw new Error(`cannot embed ${options.failOn}`);
    return texts.map((text) => Float32Array.of(text.length, text.charCodeAt(0)));
  };
  return { batches, run };
}

/** Resolves once `condition` holds, checking on every turn of the event loop. */
async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

const decode = (vectors: Float32Array[]) => vectors.map((v) => `${v[0]}:${String.fromCharCode(v[1]!)}`);

describe('EmbeddingQueue', () => {
  it('splits a large call into batches of batchSize and keeps its order', async () => {
    const runner = recordingRunner();
    const queue = new EmbeddingQueue(runner.run, 3);
    const texts = ['a', 'bb', 'ccc', 'dddd', 'eeeee', 'f', 'gg'];
    const vectors = await queue.embed(texts);
    assert.deepEqual(decode(vectors), ['1:a', '2:b', '3:c', '4:d', '5:e', '1:f', '2:g']);
    assert.deepEqual(
      runner.batches.map((b) => b.length),
      [3, 3, 1],
    );
  });

  it('merges calls made together into shared batches and gives each caller its own vectors', async () => {
    const runner = recordingRunner();
    const queue = new EmbeddingQueue(runner.run, 8);
    const results = await Promise.all([
      queue.embed(['a', 'bb']),
      queue.embed(['ccc']),
      queue.embed(['dddd', 'e']),
    ]);
    assert.deepEqual(results.map(decode), [['1:a', '2:b'], ['3:c'], ['4:d', '1:e']]);
    // One batch, filled one text per call in turn.
    assert.deepEqual(runner.batches, [['a', 'ccc', 'dddd', 'bb', 'e']]);
    assert.deepEqual(queue.stats(), { calls: 3, batches: 1, texts: 5 });
  });

  it('batches calls that arrive while a batch is running', async () => {
    const runner = recordingRunner({ delayMs: 20 });
    const queue = new EmbeddingQueue(runner.run, 8);
    const first = queue.embed(['a']);
    await waitFor(() => runner.batches.length === 1);
    const later = [queue.embed(['bb']), queue.embed(['ccc']), queue.embed(['dddd'])];
    await Promise.all([first, ...later]);
    assert.deepEqual(runner.batches, [['a'], ['bb', 'ccc', 'dddd']]);
  });

  it('lets a small call that arrives behind a large one ride in the next batch', async () => {
    const runner = recordingRunner({ delayMs: 5 });
    const queue = new EmbeddingQueue(runner.run, 4);
    const backlog = queue.embed(Array.from({ length: 40 }, (_, i) => `bulk${i}`));
    await waitFor(() => runner.batches.length === 1);
    const query = await queue.embed(['query']);
    assert.deepEqual(decode(query), ['5:q']);
    assert.equal(runner.batches.length, 2, 'the query waited for more than the batch in flight');
    assert.deepEqual(runner.batches[1], ['bulk4', 'query', 'bulk5', 'bulk6']);
    const bulk = await backlog;
    assert.deepEqual(
      bulk.map((v) => v[0]),
      Array.from({ length: 40 }, (_, i) => `bulk${i}`.length),
    );
  });

  it('retries the calls of a failed merged batch one by one, so only the culprit fails', async () => {
    const runner = recordingRunner({ failOn: 'boom' });
    const queue = new EmbeddingQueue(runner.run, 2);
    const [ok, bad, after] = await Promise.allSettled([
      queue.embed(['a', 'b']),
      queue.embed(['boom', 'c', 'd']),
      queue.embed(['e']),
    ]);
    assert.equal(ok.status, 'fulfilled');
    assert.deepEqual(decode(ok.value), ['1:a', '1:b']);
    assert.equal(bad.status, 'rejected');
    assert.match(String(bad.reason), /cannot embed boom/);
    assert.deepEqual(after.status === 'fulfilled' && decode(after.value), ['1:e']);
    // [a, boom] failed; retried alone, [a] passed and [boom] failed; 'c' and 'd' were never sent.
    assert.deepEqual(runner.batches, [['a', 'boom'], ['a'], ['boom'], ['b', 'e']]);
  });

  it('rejects a batch whose runner returns the wrong number of vectors', async () => {
    const queue = new EmbeddingQueue(() => Promise.resolve([Float32Array.of(1)]), 4);
    await assert.rejects(queue.embed(['a', 'b']), (error) => {
      assert.ok(EngramError.is(error, 'UNAVAILABLE'));
      assert.match(error.message, /1 vectors for 2 texts/);
      return true;
    });
  });

  it('answers an empty call at once without running a batch', async () => {
    const runner = recordingRunner();
    const queue = new EmbeddingQueue(runner.run, 4);
    assert.deepEqual(await queue.embed([]), []);
    assert.equal(runner.batches.length, 0);
  });

  it('close rejects waiting and in-flight calls and every later call', async () => {
    const runner = recordingRunner({ delayMs: 50 });
    const queue = new EmbeddingQueue(runner.run, 1);
    const pending = queue.embed(['a', 'b', 'c']);
    await waitFor(() => runner.batches.length === 1);
    queue.close(new EngramError('CLOSED', 'closed for the test'));
    await assert.rejects(pending, (error) => EngramError.is(error, 'CLOSED'));
    await assert.rejects(queue.embed(['d']), (error) => EngramError.is(error, 'CLOSED'));
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.deepEqual(runner.batches, [['a']]);
  });

  it('failPending rejects what waits but accepts later calls', async () => {
    const runner = recordingRunner({ delayMs: 20 });
    const queue = new EmbeddingQueue(runner.run, 1);
    const pending = queue.embed(['a', 'b']);
    await waitFor(() => runner.batches.length === 1);
    queue.failPending(new EngramError('UNAVAILABLE', 'worker gone'));
    await assert.rejects(pending, /worker gone/);
    assert.deepEqual(decode(await queue.embed(['zz'])), ['2:z']);
  });

  it('rejects a batchSize that is not a positive integer', () => {
    for (const size of [0, -1, 1.5, Number.NaN]) {
      assert.throws(
        () => new EmbeddingQueue(() => Promise.resolve([]), size),
        (error) => EngramError.is(error, 'INVALID_INPUT') && /batchSize/.test(error.message),
      );
    }
  });
});
