import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DurableDatabase } from '../../engine/store/durableDatabase';
import { openTestHost } from '../support/host';

const CALLERS = 8;

describe('group commit: concurrent writers share an fdatasync', () => {
  it(`${CALLERS} remembers waiting at once share two or three journal syncs, and each survives a reopen`, async () => {
    const t = await openTestHost();
    const { host, dbPath } = t;
    const db = host.store.db as DurableDatabase;
    const before = db.journalSyncs;
    const results = await Promise.all(
      Array.from({ length: CALLERS }, (_, i) => t.call('remember', { content: `group commit note ${i}` })),
    );
    // The first writer's sync starts alone; the others, journaled while it ran, share the next
    // (one more if the background sync of the derived rows' records came due meanwhile).
    const syncs = db.journalSyncs - before;
    assert.ok(syncs <= 3, `${syncs} fdatasyncs for ${CALLERS} concurrent writers`);
    await host.close();

    const reopened = await openTestHost({ dbPath });
    for (const result of results) {
      const found = await reopened.call('get', { id: result.memory.id });
      assert.equal(found.memory.content, result.memory.content);
    }
    await reopened.host.close();
  });

  it('a write alone still waits for its own fdatasync before it is acknowledged', async () => {
    const t = await openTestHost();
    const host = t.host;
    const db = host.store.db as DurableDatabase;
    const before = db.journalSyncs;
    await t.call('remember', { content: 'a lone note' });
    assert.ok(db.journalSyncs - before >= 1);
    await host.close();
  });
});
