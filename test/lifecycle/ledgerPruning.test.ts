import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lifecycleFacts } from '../../engine/lifecycle/lifecycleFacts';
import { pruneAccessLedger } from '../../engine/lifecycle/ledgerPruning';
import { currentMemory } from '../../engine/memory/memoryQueries';
import { openTestHost } from '../support/host';

const DAY = 24 * 60 * 60 * 1000;

/* Issue 21, section 3.8: old access rows become daily aggregates; the figures built on them hold. */
describe('lifecycle: ledger pruning', () => {
  it('folds read and recall rows older than the window into daily aggregates; importance is unchanged', async () => {
    const t = await openTestHost();
    const ids: string[] = [];
    for (const content of ['Billing retries live in src/billing/retry.ts.', 'Redis keys expire daily.']) {
      const result = (await t.call('remember', { content, layer: 'episodic', dedupe: false })) as {
        memory: { id: string };
      };
      ids.push(result.memory.id);
    }
    // Accesses over 5 days, twice a day, by read and by recall; then 200 days pass.
    for (let day = 0; day < 5; day++) {
      for (const id of ids) await t.call('get', { id });
      await t.call('recall', { query: 'billing retries Redis' });
      t.clock.advance(DAY / 3);
      await t.call('get', { id: ids[0]! });
      t.clock.advance((2 * DAY) / 3);
    }
    t.clock.advance(200 * DAY);
    await t.call('get', { id: ids[1]! });
    t.host.store.flushReads();
    // explain looks a few memories up by id; a pass over many reads the ledger whole: both paths.
    const explain = async () => ({
      one: await Promise.all(ids.map((id) => t.call('explain', { id }))),
      many: t.host.store.read((r) => {
        const memories = ids.map((id) => currentMemory(r, id));
        const padding = Array.from({ length: 25 }, (_, i) => ({ ...memories[0]!, id: `m_padding${i}` }));
        return lifecycleFacts(r, [...memories, ...padding], t.clock.now).slice(0, 2);
      }),
    });
    const accessRows = () =>
      t.host.store.read((r) =>
        r.value<number>("SELECT count(*) FROM events WHERE type IN ('read', 'recall')"),
      );
    const before = await explain();
    const rowsBefore = accessRows();

    const pruned = pruneAccessLedger(t.host.store, 90);
    assert.ok(pruned.folded > 0 && pruned.aggregates > 0, JSON.stringify(pruned));
    assert.equal(accessRows(), 1, 'only the recent read is kept raw');
    assert.equal(rowsBefore! - 1, pruned.folded);
    assert.deepEqual(await explain(), before);
    // A second pass finds nothing more to fold, changes nothing and writes nothing.
    const seq = t.host.store.db.stats().seq;
    assert.deepEqual(pruneAccessLedger(t.host.store, 90), { folded: 0, aggregates: 0 });
    assert.equal(t.host.store.db.stats().seq, seq);
    assert.deepEqual(await explain(), before);
    await t.host.close();
  });

  it('refuses a retention window under a day', async () => {
    const t = await openTestHost();
    assert.throws(() => pruneAccessLedger(t.host.store, 0), /at least 1 day, got 0/);
    await t.host.close();
  });
});

describe('lifecycle: the long-lived host prunes the ledger', () => {
  it('folds old access rows on its scheduled lifecycle run', async () => {
    const t = await openTestHost({ lifecycleEveryMs: 200 });
    const made = (await t.call('remember', {
      content: 'The docs site builds with webpack.',
      dedupe: false,
    })) as {
      memory: { id: string };
    };
    await t.call('get', { id: made.memory.id });
    t.host.store.flushReads();
    t.clock.advance(120 * DAY);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const folded = t.host.store.read((r) => r.value<number>('SELECT sum(reads) FROM access_daily'));
    assert.equal(folded, 1);
    await t.host.close();
  });
});
