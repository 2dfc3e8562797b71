// A process that ingests one Claude Code file in small batches and says "committed <seq>" after
// each batch, so a test can SIGKILL it in the middle of an ingest. Args: dbPath file root [bulk]:
// with `bulk`, it says `bulk from <seq>` (the last snapshot's) and the ingest runs as a capture
// run's does (store.db.bulk), with a 4 KiB journal limit.
import { EngineDispatcher } from '../../engine/api/engineDispatcher';
import { ingestSource } from '../../engine/capture/ingest';
import { silentLogger } from '../../engine/host';

async function main(): Promise<void> {
  const [dbPath, file, root, mode] = process.argv.slice(2) as [string, string, string, string?];
  const bulk = mode === 'bulk';
  const host = await EngineDispatcher.open({
    dbPath,
    sqlWasmPath: require.resolve('sql.js/dist/sql-wasm.wasm'),
    logger: silentLogger,
    clock: Date.now,
    embedding: null,
    ...(bulk ? { snapshot: { maxJournalBytes: 4096 } } : {}),
  });
  const store = host.store;
  const write = store.write.bind(store);
  store.write = (fn, options) => {
    const result = write(fn, options);
    process.stdout.write(`committed ${store.db.lastSeq}\n`);
    return result;
  };
  const ingest = () => ingestSource(store, { agent: 'claude-code', path: file }, { root, batchRecords: 7 });
  if (bulk) {
    // The migrations may pass 4 KiB: their snapshot is settled before the bulk begins.
    await store.db.snapshot();
    process.stdout.write(`bulk from ${store.db.stats().snapshotSeq}\n`);
  }
  await (bulk ? store.db.bulk(ingest) : ingest());
  await host.close();
  process.stdout.write('done\n');
}

void main();
