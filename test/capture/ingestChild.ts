// A process that ingests one Claude Code file in small batches and says "committed" after each
// batch, so a test can SIGKILL it in the middle of an ingest. Args: dbPath file root.
import { EngineDispatcher } from '../../engine/api/engineDispatcher';
import { ingestSource } from '../../engine/capture/ingest';
import { silentLogger } from '../../engine/host';

async function main(): Promise<void> {
  const [dbPath, file, root] = process.argv.slice(2) as [string, string, string];
  const host = await EngineDispatcher.open({
    dbPath,
    sqlWasmPath: require.resolve('sql.js/dist/sql-wasm.wasm'),
    logger: silentLogger,
    clock: Date.now,
    embedding: null,
  });
  const store = host.store;
  const write = store.write.bind(store);
  store.write = (fn, options) => {
    const result = write(fn, options);
    process.stdout.write('committed\n');
    return result;
  };
  await ingestSource(store, { agent: 'claude-code', path: file }, { root, batchRecords: 7 });
  await host.close();
  process.stdout.write('done\n');
}

void main();
