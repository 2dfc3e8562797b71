import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StoredHistory } from '../../engine/drift/historyStore';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';

const HOUR = 60 * 60 * 1000;
const ROOT = '/workspace';
const HEAD_A = 'a'.repeat(40);
const HEAD_B = 'b'.repeat(40);

/** One check: reads the stored answers, lets `ask` use them, saves what it learned at `head`. */
async function check(test: TestHost, head: string, ask: (history: StoredHistory) => void, limit?: number) {
  const history = test.host.store.read((r) => StoredHistory.read(r, ROOT));
  ask(history);
  await history.settled();
  test.host.store.write((tx, now) => history.save(tx, head, now, limit));
  return history;
}

function rows(test: TestHost): Array<{ head: string | null; answer: string }> {
  return test.host.store.read((r) =>
    r.all<{ head: string | null; answer: string }>('SELECT head, answer FROM drift_history ORDER BY answer'),
  );
}

describe('stored history answers', () => {
  it('keeps answers, never a failed one, and reads them back in a later check', async () => {
    const test = await openTestHost();
    await check(test, HEAD_A, (h) => {
      h.keep('grep at c1', null, Promise.resolve(['src/a.ts']));
      h.keep('walk to HEAD', HEAD_A, Promise.resolve({ hash: 'c2' }));
      h.keep('failed grep', null, Promise.reject(new Error('git busy')));
    });
    assert.equal(rows(test).length, 2);
    await check(test, HEAD_A, (h) => {
      assert.deepEqual(h.lookup('grep at c1', null)?.value, ['src/a.ts']);
      assert.deepEqual(h.lookup('walk to HEAD', HEAD_A)?.value, { hash: 'c2' });
      assert.equal(h.lookup('failed grep', null), undefined);
      assert.equal(h.lookup('walk to HEAD', HEAD_B), undefined, 'another HEAD asks again');
    });
  });

  it('drops answers of a HEAD no longer current and, past the bound, the least recently used', async () => {
    const test = await openTestHost();
    await check(test, HEAD_A, (h) => {
      h.keep('grep 1', null, Promise.resolve(1));
      h.keep('grep 2', null, Promise.resolve(2));
      h.keep('walk', HEAD_A, Promise.resolve(3));
    });
    test.clock.advance(2 * HOUR);
    // HEAD moved: the walk of HEAD_A goes; grep 1 is used again, so grep 2 is the least recent.
    await check(
      test,
      HEAD_B,
      (h) => {
        assert.equal(h.lookup('grep 1', null)?.value, 1);
        h.keep('grep 3', null, Promise.resolve(4));
      },
      2,
    );
    assert.deepEqual(
      rows(test).map((r) => [r.head, r.answer]),
      [
        [null, '{"v":1}'],
        [null, '{"v":4}'],
      ],
    );
  });

  it('reads an answer from the database only when a check looks it up', async () => {
    const test = await openTestHost();
    await check(test, HEAD_A, (h) => {
      h.keep('timeline', HEAD_A, Promise.resolve('x'.repeat(10_000)));
      h.keep('versions', HEAD_A, Promise.resolve('y'.repeat(10_000)));
      h.keep('grep', null, Promise.resolve(['src/a.ts']));
    });
    let reads = 0;
    const history = test.host.store.read((r) =>
      StoredHistory.read(r, ROOT, (fn) => {
        reads++;
        return test.host.store.read(fn);
      }),
    );
    assert.equal(reads, 0);
    assert.deepEqual(history.lookup('grep', null)?.value, ['src/a.ts']);
    assert.equal(reads, 1, 'one answer read, not the two large ones');
    assert.ok(history.has('timeline', HEAD_A));

    // Dropped after the keys were read: asked again, and the new answer is stored.
    test.host.store.write((tx) => tx.run('DELETE FROM drift_history'));
    assert.equal(history.lookup('timeline', HEAD_A), undefined);
    history.keep('timeline', HEAD_A, Promise.resolve('z'));
    await history.settled();
    test.host.store.write((tx, now) => history.save(tx, HEAD_A, now));
    assert.deepEqual(
      rows(test).map((r) => r.answer),
      ['{"v":"z"}'],
    );
  });

  it('read lazily, marks as used only the answers looked up, as the eager read does', async () => {
    const test = await openTestHost();
    await check(test, HEAD_A, (h) => {
      h.keep('grep 1', null, Promise.resolve(1));
      h.keep('grep 2', null, Promise.resolve(2));
    });
    test.clock.advance(2 * HOUR);
    const history = test.host.store.read((r) =>
      StoredHistory.read(r, ROOT, (fn) => test.host.store.read(fn)),
    );
    assert.equal(history.lookup('grep 2', null)?.value, 2);
    test.host.store.write((tx, now) => history.save(tx, HEAD_A, now));
    const usedAt = test.host.store.read((r) =>
      r.all<{ answer: string; used_at: number }>('SELECT answer, used_at FROM drift_history ORDER BY answer'),
    );
    assert.ok(usedAt[1]!.used_at - usedAt[0]!.used_at >= 2 * HOUR, JSON.stringify(usedAt));
  });
});
