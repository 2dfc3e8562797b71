import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type pg from 'pg';
import { Engram } from '../../engine/engram';
import { TestClock } from '../support/host';
import { startPostgres, testPool } from '../support/postgresServer';
import type { PostgresServer } from '../support/postgresServer';
import { SQL_WASM_PATH, tempDir } from '../support/temp';

/**
 * The lifecycle timer of team server processes on one PostgreSQL store (`lifecycleEveryMs`, as
 * `engram serve --team --store` sets it): each process keeps its timer, and the store gets one run
 * per period, journaled, whichever process's timer comes first. A real PostgreSQL 15.
 */
let postgres: PostgresServer;
let admin: pg.Pool;
before(async () => {
  postgres = await startPostgres();
  admin = testPool(postgres.url());
});
after(async () => {
  await admin.end();
  await postgres.stop();
});

const MINUTE = 60_000;
/** Long enough that only each process's first run (a tenth of it after open) falls in the test. */
const PERIOD_MS = 40_000;

function openEngine(schema: string, clock: TestClock, lifecycleEveryMs?: number): Promise<Engram> {
  return Engram.open({
    dbPath: path.join(tempDir('engram-pglifecycle-'), 'memory.db'),
    store: postgres.url(),
    storeSchema: schema,
    sqlWasmPath: SQL_WASM_PATH,
    clock: clock.read,
    ...(lifecycleEveryMs === undefined ? {} : { lifecycleEveryMs }),
  });
}

async function runsOf(schema: string): Promise<number> {
  const { rows } = await admin.query<{ runs: string }>(
    `SELECT runs FROM ${schema}.engram_timed_runs WHERE name = 'lifecycle'`,
  );
  return Number(rows[0]?.runs ?? 0);
}

describe('the lifecycle timer on a PostgreSQL store', () => {
  it('runs once per period per store, not once per process, and its writes reach every process', async () => {
    const schema = `lifecycle_${process.pid}`;
    const clock = new TestClock(Date.now());
    // A working note, written without a timer; kept 31 minutes it has earned the episodic layer.
    const writer = await openEngine(schema, clock);
    const { memory } = await writer.call('remember', {
      content: 'Scratch: bisecting the upload regression between 1.4 and 1.5',
      layer: 'working',
      actor: { session: 's1' },
    });
    await writer.close();
    clock.advance(31 * MINUTE);
    const a = await openEngine(schema, clock, PERIOD_MS);
    const b = await openEngine(schema, clock, PERIOD_MS);
    const opened = Date.now();
    try {
      // Either process's first run promotes the note; the other process sees it.
      const deadline = Date.now() + 30_000;
      while ((await b.call('get', { id: memory.id })).memory.layer !== 'episodic') {
        if (Date.now() > deadline) assert.fail('no timed lifecycle run promoted the note in 30 s');
        await delay(50);
      }
      assert.equal((await a.call('get', { id: memory.id })).memory.layer, 'episodic');
      // Negative check: both first runs were due a tenth of the period after their opens.
      await delay(Math.max(0, opened + PERIOD_MS / 10 + 3000 - Date.now()));
      assert.equal(await runsOf(schema), 1, 'one run for the store, not one per process');
      const events = await a.call('events', { types: ['lifecycle'] });
      assert.equal(events.events.length, 1, JSON.stringify(events.events));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
