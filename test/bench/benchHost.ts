import path from 'node:path';
import { EngineDispatcher } from '../../engine/api/engineDispatcher';
import { silentLogger } from '../../engine/host';

/** A fresh database in `dir` for a benchmark: no embedding model, no snapshot while it runs. */
export function openBenchHost(dir: string): Promise<EngineDispatcher> {
  return EngineDispatcher.open({
    dbPath: path.join(dir, 'db', 'memory.db'),
    sqlWasmPath: require.resolve('sql.js/dist/sql-wasm.wasm'),
    logger: silentLogger,
    clock: Date.now,
    embedding: null,
    snapshot: { idleMs: 600_000 },
  });
}
