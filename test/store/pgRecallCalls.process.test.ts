import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import type { QueryConfig } from 'pg';
import { Engram } from '../../engine/engram';
import { journalChannel } from '../../engine/pgStore/journalPosition';
import { startPostgres, testPool } from '../support/postgresServer';
import type { PostgresServer } from '../support/postgresServer';
import { SQL_WASM_PATH, tempDir } from '../support/temp';

/**
 * What a recall costs the team server in PostgreSQL, and that it still reads the caller's own
 * writes: the journal's position is heard from PostgreSQL's notifications
 * (engine/pgStore/journalPosition.ts) and checked in recall's own statement, not asked per call.
 * Two engines on one store, each with its own connections, as two server processes have (the
 * HTTP servers are in test/teamServer/teamPostgres.process.test.ts). A real PostgreSQL 15.
 */
let postgres: PostgresServer;
let admin: pg.Pool;
let schemas = 0;
before(async () => {
  postgres = await startPostgres();
  admin = testPool(postgres.url());
});
after(async () => {
  await admin.end();
  await postgres.stop();
});

function openEngine(schema: string): Promise<Engram> {
  return Engram.open({
    dbPath: path.join(tempDir('engram-pgcalls-'), 'memory.db'),
    store: postgres.url(),
    storeSchema: schema,
    sqlWasmPath: SQL_WASM_PATH,
  });
}

interface Store {
  schema: string;
  a: Engram;
  b: Engram;
}

async function twoEngines(): Promise<Store> {
  const schema = `calls_${process.pid}_${++schemas}`;
  const a = await openEngine(schema);
  return { schema, a, b: await openEngine(schema) };
}

/** A word of letters only, one per `i` (the tokenizer splits digits off). */
const letters = (i: number): string => String.fromCharCode(97 + (i % 26), 97 + Math.floor(i / 26));

/** The store's listening connections (the listener's last statement is its LISTEN). */
const LISTENERS = 'FROM pg_stat_activity WHERE query = $1';

/** Every statement a pg client of this process sends while `fn` runs (the engine's own driver). */
async function statementsDuring(fn: () => Promise<unknown>): Promise<Array<{ text: string; name?: string }>> {
  const sent: Array<{ text: string; name?: string }> = [];
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  prototype.query = function (this: unknown, ...args: unknown[]) {
    const [first] = args;
    if (typeof first === 'string') sent.push({ text: first });
    else if (first && typeof first === 'object' && 'text' in first) {
      const config = first as QueryConfig;
      sent.push({ text: config.text, ...(config.name ? { name: config.name } : {}) });
    }
    return original.apply(this, args);
  };
  try {
    await fn();
  } finally {
    prototype.query = original;
  }
  return sent;
}

/** Waits until both engines listen for the store's notifications (each starts at its first read). */
async function listening({ schema, a, b }: Store): Promise<void> {
  const listen = `LISTEN "${journalChannel(schema)}"`;
  for (let i = 0; i < 200; i++) {
    await Promise.all([a.call('stats', {}), b.call('stats', {})]);
    const { rows } = await admin.query<{ n: number }>(`SELECT count(*)::int AS n ${LISTENERS}`, [listen]);
    if (rows[0]!.n === 2) return;
    await delay(25);
  }
  throw new Error('the engines never listened');
}

describe('recall on PostgreSQL: statements per call', () => {
  it('a recall costs two prepared statements once the replica listens: no journal query of its own', async () => {
    const store = await twoEngines();
    const { a, b } = store;
    try {
      for (let i = 0; i < 20; i++)
        await a.call('remember', { content: `Service ${i} reads its settings from the vault` });
      await listening(store);
      // Prepared on the connection by the first recalls; the next ones only bind and execute.
      for (let i = 0; i < 3; i++) await b.call('recall', { query: 'vault settings', channels: ['lexical'] });
      const sent = await statementsDuring(() =>
        b.call('recall', { query: 'settings service', channels: ['lexical'] }),
      );
      assert.equal(sent.length, 2, JSON.stringify(sent));
      assert.ok(
        sent.every((s) => s.name !== undefined),
        'both are named prepared statements',
      );
      assert.ok(!sent.some((s) => /max\(seq\) AS seq/.test(s.text)), 'no position query per recall');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('a recall through one engine right after a write through the other finds it, every time', async () => {
    const store = await twoEngines();
    const { a, b } = store;
    try {
      await listening(store);
      for (let i = 0; i < 30; i++) {
        const [writer, reader] = i % 2 === 0 ? [a, b] : [b, a];
        const word = `quokka${letters(i)}`;
        const { memory } = await writer.call('remember', { content: `The ${word} job rotates the keys` });
        const found = await reader.call('recall', { query: word, channels: ['lexical'] });
        assert.deepEqual(
          found.hits.map((h) => h.memory.id),
          [memory.id],
          `write ${i}: the other engine's recall must see it`,
        );
        // Not only recall: a read that makes no PostgreSQL query of its own sees it too.
        assert.equal((await reader.call('get', { id: memory.id })).memory.id, memory.id);
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('with its notifications cut, a replica asks where the journal is and still reads every write', async () => {
    const store = await twoEngines();
    const { a, b } = store;
    try {
      await listening(store);
      const listen = `LISTEN "${journalChannel(store.schema)}"`;
      const cut = await admin.query(`SELECT pg_terminate_backend(pid) ${LISTENERS}`, [listen]);
      assert.equal(cut.rowCount, 2);
      for (let i = 0; i < 5; i++) {
        const word = `wombat${letters(i)}`;
        const { memory } = await a.call('remember', { content: `The ${word} queue drains nightly` });
        const found = await b.call('recall', { query: word, channels: ['lexical'] });
        assert.deepEqual(
          found.hits.map((h) => h.memory.id),
          [memory.id],
        );
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
