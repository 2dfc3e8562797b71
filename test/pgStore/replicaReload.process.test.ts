import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import pg from 'pg';
import { silentLogger, systemClock } from '../../engine/host';
import { ReplicatedEngine } from '../../engine/pgStore/replicatedEngine';
import { startPostgres } from '../support/postgresServer';
import type { PostgresServer } from '../support/postgresServer';
import { SQL_WASM_PATH } from '../support/temp';

let postgres: PostgresServer;
before(async () => {
  postgres = await startPostgres();
});
after(() => postgres.stop());

/**
 * Snapshots let PostgreSQL drop old records (engine/pgStore/pgJournal.ts): a server process that
 * idled meanwhile finds its next record gone, and reloads from the newest snapshot.
 */
it('a replica left behind by pruned records reloads from the newest snapshot and misses nothing', async () => {
  await postgres.createDatabase('pruned');
  const url = postgres.url('pruned');
  const options = {
    sqlWasmPath: SQL_WASM_PATH,
    logger: silentLogger,
    clock: systemClock,
    embedding: null,
    lexicalCopy: 'background' as const,
  };
  const writer = await ReplicatedEngine.open(url, options, { snapshotEvery: 5 });
  const idle = await ReplicatedEngine.open(url, options, { snapshotEvery: 5 });
  try {
    for (let i = 0; i < 14; i++)
      await writer.callWithId(`pruned-${i}`, 'remember', { content: `Fact ${i}: the ${i}th relay` });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const kept = await admin.query<{ first: string; snapshots: string }>(
      'SELECT (SELECT min(seq) FROM engram_journal) AS first, (SELECT count(*) FROM engram_snapshots) AS snapshots',
    );
    await admin.end();
    assert.ok(
      Number(kept.rows[0]!.first) > 2,
      `records were pruned: the first kept is ${kept.rows[0]!.first}`,
    );
    assert.equal(Number(kept.rows[0]!.snapshots), 2, 'the two newest snapshots are kept');

    const listed = (await idle.call('list', { limit: 100 })) as { items: Array<{ content: string }> };
    assert.equal(listed.items.length, 14);
    const recalled = (await idle.call('recall', { query: 'relay 13th' })) as {
      hits: Array<{ memory: { content: string } }>;
    };
    assert.equal(recalled.hits[0]?.memory.content, 'Fact 13: the 13th relay');
  } finally {
    await Promise.all([writer.close(), idle.close()]);
  }
});
