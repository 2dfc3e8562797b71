import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { silentLogger, systemClock } from '../../engine/host';
import { lexicalBuildMs } from '../../engine/lexical/liveLexicalIndex';
import type { IndexedDatabase } from '../../engine/lexical/liveLexicalIndex';
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
 * A team server process over PostgreSQL answers recall's lexical channel from PostgreSQL
 * (engine/pgStore/pgLexicalSearch.ts), so its replica builds no in-memory lexical copy: at 100,000
 * memories that copy cost each process seconds of CPU after every open, and memory, for nothing.
 */
it("a PostgreSQL team server's replica never builds the in-memory lexical copy recall does not read", async () => {
  await postgres.createDatabase('nocopy');
  const engine = await ReplicatedEngine.open(postgres.url('nocopy'), {
    sqlWasmPath: SQL_WASM_PATH,
    logger: silentLogger,
    clock: systemClock,
    embedding: null,
    lexicalCopy: 'background',
  });
  try {
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const { memory } = (await engine.callWithId(`nocopy-${i}`, 'remember', {
        content: `Service ${i} reads its settings from the config loader`,
      })) as { memory: { id: string } };
      ids.push(memory.id);
    }
    const found = (await engine.call('recall', { query: 'service 7 settings', k: 3 })) as {
      hits: Array<{ memory: { id: string } }>;
    };
    assert.equal(found.hits[0]?.memory.id, ids[7]);
    // Time for a background build to run, had one been started (a few slices at this size).
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    // The replica is private to the engine; the copy is keyed by it.
    const replica = (engine as unknown as { replica: IndexedDatabase }).replica;
    assert.equal(lexicalBuildMs(replica), 0, 'no in-memory lexical copy was built');
  } finally {
    await engine.close();
  }
});
