import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ingestSource } from '../../engine/capture/ingest';
import { SLICE_MS } from '../../engine/capture/ingestSlices';
import { openTestHost } from '../support/host';
import { tempDir } from '../support/temp';
import { syntheticClaudeSession } from './syntheticSession';

/** Simulated cost of writing one record, and of each look at the clock while preparing. */
const WRITE_MS = 1;
const TICK_MS = 0.05;

test('an ingest transaction keeps preparing and writing its records within one slice, however slow the write', async () => {
  const t = await openTestHost();
  try {
    const file = path.join(tempDir(), 'slow.jsonl');
    writeFileSync(file, syntheticClaudeSession(60, '/home/dev/shop', 'slow'));
    // A clock that only moves when looked at (preparing) and while records are written: the
    // slices are counted in simulated time, so a busy machine cannot make this test fail.
    let now = 0;
    const clock = () => (now += TICK_MS);
    const store = t.host.store;
    const write = store.write.bind(store);
    const batchEnds: number[] = [];
    store.write = (fn, options) =>
      write((tx, at) => {
        const counted: typeof tx = {
          ...tx,
          run: (sql, params) => {
            if (sql.includes('INTO capture_records')) now += WRITE_MS;
            return tx.run(sql, params);
          },
        };
        const result = fn(counted, at);
        batchEnds.push(now);
        return result;
      }, options);
    const report = await ingestSource(
      store,
      { agent: 'claude-code', path: file },
      { root: '/home/dev/shop', clock },
    );
    assert.equal(report.records, 300);
    assert.ok(batchEnds.length > 2, `${batchEnds.length} transactions`);
    // The first transaction learns what a write costs; every later one fits in the slice (plus the
    // one record whose cost is only known once it is written).
    const spans = batchEnds.slice(1).map((end, i) => end - (batchEnds[i] as number));
    const longest = Math.max(...spans);
    assert.ok(
      longest <= SLICE_MS + WRITE_MS + TICK_MS * 4,
      `a transaction held the thread for ${longest} ms`,
    );
  } finally {
    await t.host.close();
  }
});
