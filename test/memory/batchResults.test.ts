import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { EngramError } from '../../engine/errors';
import type { RememberManyResult } from '../../engine/memory/types';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';

// A batch write answers each memory on its own: a bad one is rejected with its position and
// reason, the others are written in one transaction. Only a call that is not a batch at all (not a
// list, too many memories) is refused whole.

async function host(options: Parameters<typeof openTestHost>[0] = {}): Promise<TestHost> {
  const test = await openTestHost(options);
  after(() => test.host.close());
  return test;
}

const memoryCount = (t: TestHost) =>
  t.host.store.read((r) => r.value<number>('SELECT count(DISTINCT id) FROM memories') ?? 0);

/** Each answer's outcome, with the index and error of a rejection. */
function outcomes(results: RememberManyResult[]) {
  return results.map((r) => (r.outcome === 'rejected' ? { index: r.index, error: r.error } : r.outcome));
}

describe('a batch write', () => {
  it('writes the three good memories of five and answers the empty and the oversize one with index and reason', async () => {
    const t = await host();
    const results = await t.call('rememberMany', {
      memories: [
        { content: 'the queue retries three times' },
        { content: '   ' },
        { content: 'alerts page the on-call engineer' },
        { content: 'x'.repeat(40_000) },
        { content: 'deploys go through the release train' },
      ],
    });
    assert.deepEqual(outcomes(results), [
      'added',
      { index: 1, error: { code: 'INVALID_INPUT', message: 'content must not be empty' } },
      'added',
      { index: 3, error: { code: 'TOO_LARGE', message: 'content is 40000 characters; the limit is 32768' } },
      'added',
    ]);
    assert.equal(memoryCount(t), 3);
    const listed = await t.call('list', {});
    assert.deepEqual(listed.items.map((m) => m.content).sort(), [
      'alerts page the on-call engineer',
      'deploys go through the release train',
      'the queue retries three times',
    ]);
  });

  it("answers a memory of the wrong shape with its field, what was expected and what came, as remember's schema says it", async () => {
    const t = await host();
    const results = await t.call('rememberMany', {
      memories: [
        { tags: ['queue'] },
        { content: 'kept', tags: 'queue' },
        42,
        { content: 'kept too', importance: 3 },
        { content: 'written' },
      ],
    });
    assert.deepEqual(outcomes(results), [
      { index: 0, error: { code: 'INVALID_INPUT', message: 'content is required (text); got nothing' } },
      { index: 1, error: { code: 'INVALID_INPUT', message: 'tags must be a list of text; got "queue"' } },
      { index: 2, error: { code: 'INVALID_INPUT', message: 'memory must be an object; got 42' } },
      {
        index: 3,
        error: { code: 'INVALID_INPUT', message: 'importance must be a number from 0 to 1; got 3' },
      },
      'added',
    ]);
    assert.equal(memoryCount(t), 1);
  });

  it("rejects a memory over its session's working-memory room on its own; the others are written", async () => {
    const t = await host({ limits: { workingMemoryBytesPerSession: 40 } });
    const results = await t.call('rememberMany', {
      memories: [
        { content: 'first of the batch' },
        { content: 'a note for the session', layer: 'working', session: 's' },
        { content: 'a second note, too much for it', layer: 'working', session: 's' },
        { content: 'fourth' },
      ],
    });
    assert.deepEqual(outcomes(results), [
      'added',
      'added',
      {
        index: 2,
        error: {
          code: 'TOO_LARGE',
          message: 'working memory of session "s" would hold 52 bytes; the limit is 40',
        },
      },
      'added',
    ]);
    assert.equal(memoryCount(t), 3);
  });

  it('writes nothing from a batch whose every memory is invalid, and answers every error', async () => {
    const t = await host();
    await t.call('remember', { content: 'kept from before' });
    const before = await t.call('stats');
    const results = await t.call('rememberMany', { memories: [{ content: '' }, { content: 7 }, {}] });
    assert.deepEqual(
      results.map((r) => (r.outcome === 'rejected' ? r.index : r.outcome)),
      [0, 1, 2],
    );
    const stats = await t.call('stats');
    assert.equal(stats.memories, 1);
    assert.equal(stats.events, before.events, 'no event recorded');
  });

  it('answers a retried request with the same per-item results, rejections included, and writes nothing twice', async () => {
    const t = await host();
    const meta = { requestId: 'batch-retry', client: 'test' };
    const memories = [{ content: 'the cache holds sessions for a day' }, { content: '' }, { content: 'y' }];
    const first = (await t.host.dispatch('rememberMany', { memories }, meta)) as RememberManyResult[];
    const again = (await t.host.dispatch('rememberMany', { memories }, meta)) as RememberManyResult[];
    assert.deepEqual(again, first);
    assert.deepEqual(
      first.map((r) => r.outcome),
      ['added', 'rejected', 'added'],
    );
    assert.equal(memoryCount(t), 2);
    const events = t.host.store.read((r) =>
      r.value<number>("SELECT count(*) FROM events WHERE type = 'remember'"),
    );
    assert.equal(events, 2);
  });

  it('refuses the whole call with one line and writes nothing when memories is not a list or holds too many', async () => {
    const t = await host();
    const before = await t.call('stats');
    const refusals: Array<[unknown, string]> = [
      ['the queue retries', 'memories must be a list; got "the queue retries"'],
      [
        Array.from({ length: 10_001 }, (_, i) => ({ content: `memory ${i}` })),
        'memories must hold at most 10000 memories a call (write more in several calls); got a list of 10001 items',
      ],
    ];
    for (const [memories, message] of refusals) {
      await assert.rejects(
        t.call('rememberMany', { memories }),
        (error: unknown) => EngramError.is(error, 'INVALID_INPUT') && error.message === message,
        message,
      );
    }
    const after = await t.call('stats');
    assert.equal(after.memories, 0);
    assert.equal(after.database.journalRecords, before.database.journalRecords, 'nothing journaled');
  });
});
