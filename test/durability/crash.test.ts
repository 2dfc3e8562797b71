import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openTestHost } from '../support/host';
import { startWriter } from '../support/children';
import { tempDir } from '../support/temp';

const ROUNDS = 24;

describe('crash safety', () => {
  it(
    `keeps every acknowledged write across ${ROUNDS} SIGKILLs at random moments`,
    { timeout: 300_000 },
    async () => {
      const dbPath = path.join(tempDir(), 'memory.db');
      const acknowledged: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const writer = startWriter(dbPath, `round${round}`, 100_000);
        await writer.waitForAcks(1);
        // Kill somewhere in the next 0-300 ms: mid-write, mid-fsync, mid-snapshot or between writes.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 300));
        writer.child.kill('SIGKILL');
        await writer.exited;
        assert.ok(writer.acks.length > 0, `round ${round} wrote nothing: ${writer.stderr.join('')}`);
        acknowledged.push(...writer.acks);
      }
      const t = await openTestHost({ dbPath });
      const ids = new Set(
        t.host.store
          .read((r) => r.all<{ id: string }>('SELECT id FROM memories WHERE superseded_at IS NULL'))
          .map((r) => r.id),
      );
      const missing = acknowledged.filter((id) => !ids.has(id));
      assert.deepEqual(missing, [], `${missing.length} of ${acknowledged.length} acknowledged writes lost`);
      assert.equal(
        t.host.store.read((r) => r.value<string>('PRAGMA integrity_check')),
        'ok',
      );
      await t.host.close();
    },
  );
});
