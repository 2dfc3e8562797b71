import { after, before } from 'node:test';
import { startPostgres } from '../support/postgresServer';
import type { PostgresServer } from '../support/postgresServer';
import { postgresStores } from './contractStores';
import { storeContract } from './storeContract';

/**
 * The store contract (storeContract.ts) on the PostgreSQL store (engine/pgStore): each store a
 * schema of a real PostgreSQL server the test starts, each engine a replica of it.
 */
let postgres: PostgresServer;
before(async () => {
  postgres = await startPostgres();
});
after(async () => {
  await postgres.stop();
});

storeContract(
  'PostgreSQL',
  postgresStores(() => postgres),
);
