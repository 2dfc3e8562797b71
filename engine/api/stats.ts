import type { MemoryVectors } from '../vectors/memoryVectors';
import type { SqlReader } from '../store/sqlAccess';
import { schemaVersion } from '../store/migrate';
import type { EngineContext } from './engineContext';

export interface StoreStats {
  memories: number;
  versions: number;
  byLayer: Record<string, number>;
  byStatus: Record<string, number>;
  byKind: Record<string, number>;
  entities: number;
  relations: number;
  events: number;
  annotations: number;
  schemaVersion: number;
  /** Stored vectors per embedding model, and the loaded model's background progress if loaded. */
  vectors: {
    byModel: Record<string, number>;
    loaded: ReturnType<MemoryVectors['status']> | null;
  };
  database: {
    path: string;
    journalBytes: number;
    journalRecords: number;
    lastSeq: number;
    snapshotSeq: number;
  };
}

function grouped(reader: SqlReader, column: string, where: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const row of reader.all<{ k: string; n: number }>(
    `SELECT ${column} AS k, count(*) AS n FROM memories m WHERE m.superseded_at IS NULL ${where} GROUP BY ${column} ORDER BY n DESC`,
  )) {
    out[row.k] = row.n;
  }
  return out;
}

export function collectStats(reader: SqlReader, { store, vectors }: EngineContext): StoreStats {
  const count = (sql: string) => reader.value<number>(sql) ?? 0;
  const db = store.db.stats();
  return {
    memories: count("SELECT count(*) FROM memories WHERE superseded_at IS NULL AND status = 'active'"),
    versions: count('SELECT count(*) FROM memories'),
    byLayer: grouped(reader, 'm.layer', "AND m.status = 'active'"),
    byStatus: grouped(reader, 'm.status', ''),
    byKind: grouped(reader, 'm.kind', "AND m.status = 'active'"),
    entities: count('SELECT count(*) FROM entities WHERE merged_into IS NULL'),
    relations: count('SELECT count(*) FROM relations'),
    events: count('SELECT count(*) FROM events'),
    annotations: count('SELECT count(*) FROM annotations'),
    schemaVersion: schemaVersion(reader),
    vectors: {
      byModel: Object.fromEntries(
        reader
          .all<{ model: string; n: number }>('SELECT model, count(*) AS n FROM memory_vectors GROUP BY model')
          .map((row) => [row.model, row.n]),
      ),
      loaded: vectors?.status() ?? null,
    },
    database: {
      path: store.db.path,
      journalBytes: db.journalBytes,
      journalRecords: db.journalRecords,
      lastSeq: db.seq,
      snapshotSeq: db.snapshotSeq,
    },
  };
}
