/**
 * npm run bench:store — write throughput, durable write latency, open and snapshot cost of the
 * store on a real sql.js database in a temp directory. A benchmark, not a test: it prints figures.
 * Baselines, in the same process: texts inserted into a bare sql.js table in one transaction; the
 * rows 10k batched remembers stored, inserted again with the same schema (sameRowsFloor.ts); and
 * beside each single durable remember, an fsync'd append of the bytes it journaled. Single
 * remembers are sent back to back, then with 5 ms of idle time before each (300 of them).
 * Usage: node --import tsx test/bench/storeBench.ts [--json] [--large N] [--singles]
 */
import { closeSync, mkdtempSync, openSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';
import { EngineDispatcher } from '../../engine/api/engineDispatcher';
import { silentLogger } from '../../engine/host';
import { loadSqlJs } from '../../engine/store/sqlite';
import { machine, median, ms, percentile, round } from './stats';
import { syntheticMemories } from './syntheticMemories';
import { writtenOrReported } from './batchRejections';
import { sameRowsInsert, timedAppend } from './sameRowsFloor';
import { storeFiles } from '../../engine/store/storeFiles';
import type { RememberManyResult } from '../../engine/memory/types';

const sqlWasmPath = createRequire(__filename).resolve('sql.js/dist/sql-wasm.wasm');
const json = process.argv.includes('--json');
const largeArg = process.argv.indexOf('--large');
const LARGE = largeArg > 0 ? Number(process.argv[largeArg + 1]) : 100_000;
/** Only the write-latency figures: single durable remembers at 1k and concurrent callers. */
const singlesOnly = process.argv.includes('--singles');
const root = mkdtempSync(path.join(os.tmpdir(), 'engram-bench-store-'));
let requestSeq = 0;

async function openHost(dbPath: string, checkpointInWorker = false): Promise<EngineDispatcher> {
  return EngineDispatcher.open({
    dbPath,
    sqlWasmPath,
    logger: silentLogger,
    clock: Date.now,
    snapshot: { idleMs: 3_600_000, maxJournalBytes: 256 * 1024 * 1024 },
    checkpointInWorker,
  });
}

/**
 * A snapshot written by the checkpoint worker (as the extension and the MCP bridge do) after 1,000
 * more memories, beside the in-thread export measured by openAndSnapshot: its wall time and the
 * longest the host's event loop was blocked meanwhile (the export blocks it for all of its time).
 */
async function workerSnapshot(dbPath: string, texts: string[]) {
  const host = await openHost(dbPath, true);
  const written = await call(host, 'rememberMany', { memories: texts.map((content) => ({ content })) });
  writtenOrReported(written as RememberManyResult[], 'worker snapshot batch');
  const delay = monitorEventLoopDelay({ resolution: 2 });
  delay.enable();
  const start = process.hrtime.bigint();
  await host.store.db.snapshot();
  const wallMs = ms(start);
  delay.disable();
  await host.close();
  return { wallMs: round(wallMs, 0), longestMainThreadBlockMs: round(delay.max / 1e6, 1) };
}

function call(host: EngineDispatcher, method: string, params: unknown): Promise<unknown> {
  return host.dispatch(method, params, { requestId: `bench-${++requestSeq}`, client: 'bench' });
}

async function batched(count: number, batchSize: number, texts: string[]) {
  const dbPath = path.join(root, `batched-${count}.db`);
  const host = await openHost(dbPath);
  const start = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  for (let i = 0; i < count; i += batchSize) {
    const results = await call(host, 'rememberMany', {
      memories: texts.slice(i, i + batchSize).map((content) => ({ content })),
    });
    // A rejected memory would flatter the rate: each is said.
    writtenOrReported(results as RememberManyResult[], `batched ${count}`);
  }
  const elapsed = ms(start);
  // CPU time per memory depends far less on what else the shared machine runs than wall time:
  // 1e6 / it is the rate one idle core would reach.
  const cpu = process.cpuUsage(cpuStart);
  return {
    host,
    dbPath,
    writesPerSecond: round(count / (elapsed / 1000), 0),
    seconds: round(elapsed / 1000),
    cpuMicrosecondsPerMemory: round((cpu.user + cpu.system) / count, 0),
  };
}

/**
 * Single durable remembers, each followed by the floor: an fsync'd append of the bytes that
 * remember added to the journal, to a file in the same directory (issue 18: p50 <= 2x the floor).
 * Interleaved, so both see the same load.
 */
async function singles(host: EngineDispatcher, dbPath: string, texts: string[], idleMs = 0) {
  const latencies: number[] = [];
  const floor: number[] = [];
  const journal = storeFiles(dbPath).journal;
  const fd = openSync(path.join(path.dirname(dbPath), 'floor.append'), 'a', 0o600);
  let elapsed = 0;
  let cpuMicroseconds = 0;
  for (const content of texts) {
    // A caller that leaves the thread idle between writes (derived rows are written meanwhile).
    if (idleMs > 0) await new Promise((resolve) => setTimeout(resolve, idleMs));
    const before = statSync(journal).size;
    const cpu = process.cpuUsage();
    const t = process.hrtime.bigint();
    await call(host, 'remember', { content });
    const took = ms(t);
    const used = process.cpuUsage(cpu);
    cpuMicroseconds += used.user + used.system;
    elapsed += took;
    latencies.push(took);
    floor.push(timedAppend(fd, Math.max(1, statSync(journal).size - before)));
  }
  closeSync(fd);
  latencies.sort((a, b) => a - b);
  floor.sort((a, b) => a - b);
  const p50 = percentile(latencies, 50);
  return {
    writesPerSecond: round(texts.length / (elapsed / 1000), 0),
    p50Ms: round(p50, 3),
    p95Ms: round(percentile(latencies, 95), 3),
    floorP50Ms: round(percentile(floor, 50), 3),
    floorP95Ms: round(percentile(floor, 95), 3),
    p50OverFloor: round(p50 / percentile(floor, 50), 2),
    // The engine's own work per write (its fdatasync's system time included): what the disk's load
    // does not move, unlike the two latencies above.
    cpuMicrosecondsPerWrite: round(cpuMicroseconds / texts.length, 0),
  };
}

/**
 * Group commit (issue 18): `callers` remembers sent at once, `rounds` times; each round waits for
 * all of its acknowledgements. Per write: wall time of its round and CPU, and how many journal
 * fdatasyncs the rounds cost (counted by the store; main's store syncs once per write, uncounted).
 */
async function concurrent(host: EngineDispatcher, texts: string[], callers: number) {
  const db = host.store.db as { journalSyncs?: number };
  const syncsBefore = db.journalSyncs;
  const rounds: number[] = [];
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i + callers <= texts.length; i += callers) {
    const t = process.hrtime.bigint();
    await Promise.all(texts.slice(i, i + callers).map((content) => call(host, 'remember', { content })));
    rounds.push(ms(t));
  }
  const elapsed = ms(start);
  const used = process.cpuUsage(cpu);
  const writes = rounds.length * callers;
  rounds.sort((a, b) => a - b);
  return {
    callers,
    writesPerSecond: round(writes / (elapsed / 1000), 0),
    roundP50Ms: round(percentile(rounds, 50), 3),
    cpuMicrosecondsPerWrite: round((used.user + used.system) / writes, 0),
    fdatasyncsPerWrite:
      syncsBefore === undefined
        ? 'one each (not counted)'
        : round((db.journalSyncs! - syncsBefore) / writes, 2),
  };
}

async function openAndSnapshot(host: EngineDispatcher, dbPath: string) {
  const snapshotStart = process.hrtime.bigint();
  await host.store.db.snapshot();
  const snapshotMs = ms(snapshotStart);
  const bytes = statSync(dbPath).size;
  await host.close();
  const opens: number[] = [];
  for (let i = 0; i < 3; i++) {
    const start = process.hrtime.bigint();
    const reopened = await openHost(dbPath);
    opens.push(ms(start));
    await reopened.close();
  }
  return {
    snapshotMs: round(snapshotMs, 0),
    fileMB: round(bytes / 2 ** 20, 1),
    openMs: round(median(opens), 0),
  };
}

async function baseline(texts: string[]) {
  const SQL = await loadSqlJs(sqlWasmPath);
  const db = new SQL.Database();
  db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, content TEXT)');
  const start = process.hrtime.bigint();
  db.exec('BEGIN');
  const statement = db.prepare('INSERT INTO t VALUES (?, ?)');
  texts.forEach((content, i) => statement.run([`id${i}`, content]));
  statement.free();
  db.exec('COMMIT');
  const elapsed = ms(start);
  db.close();
  return { rowsPerSecond: round(texts.length / (elapsed / 1000), 0) };
}

async function main(): Promise<void> {
  const texts = syntheticMemories(LARGE + 12_000);
  const results: Record<string, unknown> = {
    date: new Date().toISOString().slice(0, 10),
    machine: machine(),
  };

  results['baseline_bare_sqljs_insert'] = await baseline(texts.slice(0, LARGE));

  const small = await batched(1000, 500, texts);
  results['batched_1k'] = {
    writesPerSecond: small.writesPerSecond,
    cpuMicrosecondsPerMemory: small.cpuMicrosecondsPerMemory,
  };
  await small.host.close();

  const singleDb = await openHost(path.join(root, 'singles.db'));
  results['single_durable_1k'] = await singles(
    singleDb,
    path.join(root, 'singles.db'),
    texts.slice(0, 1000).map((t) => `${t} single`),
  );
  results['single_durable_5ms_idle'] = await singles(
    singleDb,
    path.join(root, 'singles.db'),
    texts.slice(2000, 2300).map((t) => `${t} idle`),
    5,
  );
  results['concurrent_8_callers_1k'] = await concurrent(
    singleDb,
    texts.slice(1000, 2000).map((t) => `${t} concurrent`),
    8,
  );
  await singleDb.close();
  if (singlesOnly) return report(results);

  const ten = await batched(10_000, 1000, texts);
  results['batched_10k'] = {
    writesPerSecond: ten.writesPerSecond,
    cpuMicrosecondsPerMemory: ten.cpuMicrosecondsPerMemory,
  };
  results['open_snapshot_10k'] = await openAndSnapshot(ten.host, ten.dbPath);
  // The rows those 10 batches stored, inserted again into a bare sql.js database, 10 transactions.
  const sameRows = sameRowsInsert(await loadSqlJs(sqlWasmPath), ten.dbPath, 10);
  results['same_rows_bare_sqljs_10k'] = {
    ...sameRows,
    memoriesPerSecond: round(10_000 / (sameRows.wallMs / 1000), 0),
    cpuMicrosecondsPerMemory: round((sameRows.cpuMs * 1000) / 10_000, 0),
    rememberCpuOverSameRows: round(ten.cpuMicrosecondsPerMemory / ((sameRows.cpuMs * 1000) / 10_000), 2),
  };

  const large = await batched(LARGE, 1000, texts);
  results[`batched_${LARGE / 1000}k`] = {
    writesPerSecond: large.writesPerSecond,
    seconds: large.seconds,
    cpuMicrosecondsPerMemory: large.cpuMicrosecondsPerMemory,
  };
  results[`single_durable_at_${LARGE / 1000}k`] = await singles(
    large.host,
    large.dbPath,
    texts.slice(LARGE, LARGE + 1000),
  );
  results[`open_snapshot_${LARGE / 1000}k`] = await openAndSnapshot(large.host, large.dbPath);
  results[`worker_snapshot_${LARGE / 1000}k`] = await workerSnapshot(
    large.dbPath,
    texts.slice(LARGE + 1000, LARGE + 2000).map((t) => `${t} late`),
  );

  report(results);
}

function report(results: Record<string, unknown>): void {
  rmSync(root, { recursive: true, force: true });
  if (json) {
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
    return;
  }
  for (const [name, value] of Object.entries(results))
    process.stdout.write(`${name.padEnd(28)} ${typeof value === 'string' ? value : JSON.stringify(value)}\n`);
}

void main();
