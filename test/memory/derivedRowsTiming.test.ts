import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';

/** One turn of the event loop: a derivation deferred by the last commit is written in it. */
const idleTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

const CONTENT = 'PaymentService publishes to KafkaBroker through src/queue/producer.ts on port';

/** Journal records the `remember`s of `write` added, and the derive markers left afterwards. */
async function recordsPerRemember(t: TestHost, count: number, write: (i: number) => Promise<void>) {
  const before = t.host.store.db.stats().journalRecords;
  for (let i = 0; i < count; i++) await write(i);
  await idleTurn();
  const records = t.host.store.db.stats().journalRecords - before;
  const markers = t.host.store.read((r) =>
    r.value<number>("SELECT count(*) FROM engram_meta WHERE key LIKE 'derive:%'"),
  );
  const linked = t.host.store.read((r) =>
    r.value<number>('SELECT count(DISTINCT memory_id) FROM memory_entities'),
  );
  return { recordsPerRemember: records / count, markers, linked };
}

describe('when a remember writes its derived rows', () => {
  it('back to back: in its own transaction (no second transaction paid by the next call)', async () => {
    const t = await openTestHost();
    await t.call('remember', { content: `${CONTENT} 1` });
    await idleTurn();
    // The first after the pause may defer (the caller was idle): the second pays for that.
    await t.call('remember', { content: `${CONTENT} 2` });
    await t.call('remember', { content: `${CONTENT} 3` });
    const result = await recordsPerRemember(t, 6, async (i) => {
      await t.call('remember', { content: `${CONTENT} ${i + 100}` });
    });
    await t.host.close();
    assert.deepEqual(result, { recordsPerRemember: 1, markers: 0, linked: 9 });
  });

  it('after an idle gap: in a second transaction, written while the caller is idle', async () => {
    const t = await openTestHost();
    await t.call('remember', { content: `${CONTENT} 1` });
    const result = await recordsPerRemember(t, 4, async (i) => {
      await idleTurn();
      await t.call('remember', { content: `${CONTENT} ${i + 100}` });
    });
    await t.host.close();
    assert.deepEqual(result, { recordsPerRemember: 2, markers: 0, linked: 5 });
  });
});
