import { silentLogger } from '../../engine/host';
import { DurableDatabase } from '../../engine/store/durableDatabase';
import type { DurableDatabaseOptions } from '../../engine/store/durableDatabase';
import type { Migration } from '../../engine/store/migrate';
import { loadSqlJs } from '../../engine/store/sqlite';
import { SQL_WASM_PATH } from './temp';

/** A durable database on real sql.js at `file`: a quiet logger, the wall clock, idle snapshots after a minute. */
export async function openDurable(
  file: string,
  migrations: Migration[],
  extra: Partial<DurableDatabaseOptions> = {},
): Promise<DurableDatabase> {
  return DurableDatabase.open({
    path: file,
    sql: await loadSqlJs(SQL_WASM_PATH),
    logger: silentLogger,
    clock: Date.now,
    migrations,
    snapshot: { idleMs: 60_000 },
    ...extra,
  });
}
