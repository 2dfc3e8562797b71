import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openTestHost } from '../support/host';
import { startWriter } from '../support/children';
import { tempDir } from '../support/temp';

describe('one writer per database', () => {
  it(
    '4 processes x 250 writes at once: 1,000 memories, none lost, none duplicated',
    { timeout: 300_000 },
    async () => {
      const dbPath = path.join(tempDir(), 'memory.db');
      const writers = ['w1', 'w2', 'w3', 'w4'].map((label) => startWriter(dbPath, label, 250));
      const codes = await Promise.all(writers.map((w) => w.exited));
      assert.deepEqual(codes, [0, 0, 0, 0], writers.map((w) => w.stderr.join('')).join('\n'));
      const acknowledged = writers.flatMap((w) => w.acks);
      assert.equal(acknowledged.length, 1000);
      assert.equal(new Set(acknowledged).size, 1000);

      const t = await openTestHost({ dbPath });
      const rows = t.host.store.read((r) =>
        r.all<{ id: string; content: string }>(
          "SELECT id, content FROM memories WHERE superseded_at IS NULL AND status = 'active'",
        ),
      );
      assert.equal(rows.length, 1000);
      assert.equal(new Set(rows.map((r) => r.content)).size, 1000);
      const ids = new Set(rows.map((r) => r.id));
      assert.ok(acknowledged.every((id) => ids.has(id)));
      assert.equal(
        t.host.store.read((r) => r.value<string>('PRAGMA integrity_check')),
        'ok',
      );
      await t.host.close();
    },
  );
});
