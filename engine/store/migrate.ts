import { EngramError } from '../errors';
import type { SqlReader, SqlWriter } from './sqlAccess';

/** One numbered schema change. Versions start at 1 and have no gaps. */
export interface Migration {
  version: number;
  name: string;
  up(tx: SqlWriter): void;
}

interface MigratableStore {
  read<T>(fn: (reader: SqlReader) => T): T;
  write<T>(fn: (writer: SqlWriter) => T): T;
}

export function schemaVersion(reader: SqlReader): number {
  return Number(reader.value<string>("SELECT value FROM engram_meta WHERE key = 'schema_version'") ?? 0);
}

/**
 * Brings the schema to the newest version, one transaction per migration: a crash in the middle
 * leaves the database at the last completed version, and the journal replays exactly those.
 */
export function runMigrations(store: MigratableStore, migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(`migration ${migration.name} is numbered ${migration.version}, expected ${index + 1}`);
    }
  });
  const current = store.read(schemaVersion);
  if (current > migrations.length) {
    throw new EngramError(
      'STORE',
      `the database has schema version ${current} but this Engram knows only ${migrations.length}: update Engram`,
    );
  }
  for (const migration of migrations.slice(current)) {
    store.write((tx) => {
      migration.up(tx);
      tx.run("INSERT OR REPLACE INTO engram_meta (key, value) VALUES ('schema_version', ?)", [
        String(migration.version),
      ]);
    });
  }
}
