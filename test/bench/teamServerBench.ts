/**
 * The team server's cost per call over HTTP, against the same calls in this process on a database
 * of the same size (the reference, measured in the same run). Loopback, sequential, bounded:
 * `node --import tsx test/bench/teamServerBench.ts [memories] [calls] [--store postgres] [--load S]
 * [--faults] [--settle S]` after a build. The stores are loaded by `rememberMany` batches; the
 * first 20 recalls after the load are timed apart, then the bench idles `--settle` seconds
 * (default 30 from 20,000 memories) while the servers build their in-memory lexical copies.
 * `--load S` adds S seconds of 20 concurrent clients on each store. `--store
 * postgres` adds two server processes on one PostgreSQL store (a server the bench starts,
 * test/support/postgresServer.ts), called in turn, beside the sql.js server. `--faults` (with
 * both): on PostgreSQL the clients re-send under the same id until answered, one server is
 * SIGKILLed and restarted at S/4, PostgreSQL crashed (immediate shutdown) and started at S/2 and
 * restarted (fast shutdown) at 3S/4, and the run's writes are checked afterwards (exit 1 on a
 * lost or duplicated write, or a call that failed for good).
 *
 * Each timed phase also reports its CPU per call, read from /proc before and after it: the server
 * processes' (node) and, on PostgreSQL, the postmaster's and its backends'; in process, this
 * process's own. `--embedding MODEL` (e.g. use-lite) gives every store that model: writes embed
 * in their call, recall has its dense channel. `--no-reference` measures the PostgreSQL store
 * only (no sql.js server, no in-process store): loading with a model costs its embedding per store.
 */
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Engram } from '../../engine/engram';
import { resolveDefaultModelAssets } from '../../engine/embedding/useLiteAssets';
import { startPostgres } from '../support/postgresServer';
import type { PostgresServer } from '../support/postgresServer';
import { addToken, rpc, startTeamServer } from '../teamServer/teamServerProcess';
import type { TeamServerProcess } from '../teamServer/teamServerProcess';
import { SQL_WASM_PATH, tempDir } from '../support/temp';
import { processCpuMs } from './processUsage';
import { machine, median, ms, percentile, round } from './stats';
import { checkWrites, faultLines, faultLoad } from './teamFaultLoad';
import { loadLine, mixedLoad } from './teamLoad';

const args = process.argv.slice(2);
const storeAt = args.indexOf('--store');
const store = storeAt >= 0 ? args.splice(storeAt, 2)[1] : undefined;
if (store !== undefined && store !== 'postgres') throw new Error(`--store takes postgres; got ${store}`);
const loadAt = args.indexOf('--load');
/** Seconds of 20 concurrent clients mixing recall and remember (teamLoad.ts); 0: none. */
const LOAD_SECONDS = loadAt >= 0 ? Number(args.splice(loadAt, 2)[1]) : 0;
const faultsAt = args.indexOf('--faults');
const FAULTS = faultsAt >= 0 && args.splice(faultsAt, 1).length > 0;
if (FAULTS && (store === undefined || LOAD_SECONDS <= 0))
  throw new Error('--faults needs --store postgres and --load S');
const embeddingAt = args.indexOf('--embedding');
/** The model every store embeds with (the servers' --embedding); absent: none, as the servers default. */
const EMBEDDING = embeddingAt >= 0 ? args.splice(embeddingAt, 2)[1] : undefined;
if (EMBEDDING !== undefined && EMBEDDING !== 'use-lite')
  throw new Error(`--embedding takes use-lite (the shipped model); got ${EMBEDDING}`);
const noReferenceAt = args.indexOf('--no-reference');
const REFERENCE = !(noReferenceAt >= 0 && args.splice(noReferenceAt, 1).length > 0);
if (!REFERENCE && (store === undefined || LOAD_SECONDS > 0))
  throw new Error('--no-reference needs --store postgres and no --load');
const settleAt = args.indexOf('--settle');
const settle = settleAt >= 0 ? Number(args.splice(settleAt, 2)[1]) : undefined;
const MEMORIES = Number(args[0] ?? 2000);
const CALLS = Number(args[1] ?? 200);
const BATCH = 500;
/** Seconds idle after the bulk load, so the servers' lexical copies are built. @default 30 from 20,000 memories */
const SETTLE_SECONDS = settle ?? (MEMORIES >= 20_000 ? 30 : 0);

const text = (n: number) =>
  `Decision ${n}: the ${['loader', 'cache', 'router', 'queue', 'parser'][n % 5]} of service ${n % 97} reads its settings from config ${n % 13}`;
const query = (n: number) =>
  `${['loader', 'cache', 'router', 'queue', 'parser'][n % 5]} settings service ${n % 97}`;

/** Where a phase's CPU is spent: processes read from /proc (with their children), or this one. */
interface CpuMeters {
  node: number[] | 'self';
  postgres?: number;
}

/** A phase's times (sorted) and CPU per call in ms: the node processes', and PostgreSQL's. */
interface Timed {
  times: number[];
  nodeCpu: number;
  postgresCpu?: number;
}

function cpuNow(meters: CpuMeters): { node: number; postgres?: number } {
  const node =
    meters.node === 'self'
      ? (process.cpuUsage().user + process.cpuUsage().system) / 1000
      : meters.node.reduce((sum, pid) => sum + processCpuMs(pid), 0);
  return meters.postgres === undefined ? { node } : { node, postgres: processCpuMs(meters.postgres) };
}

async function timed(run: (n: number) => Promise<unknown>, meters: CpuMeters, calls = CALLS): Promise<Timed> {
  const times: number[] = [];
  const before = cpuNow(meters);
  for (let n = 0; n < calls; n++) {
    const start = process.hrtime.bigint();
    await run(n);
    times.push(ms(start));
  }
  const after = cpuNow(meters);
  return {
    times: times.sort((a, b) => a - b),
    nodeCpu: (after.node - before.node) / calls,
    ...(after.postgres === undefined ? {} : { postgresCpu: (after.postgres - before.postgres!) / calls }),
  };
}

/** Loads MEMORIES memories through `rememberMany` batches (the bulk path); the milliseconds it took. */
async function bulkLoad(
  rememberMany: (memories: Array<{ content: string }>) => Promise<unknown>,
): Promise<number> {
  const start = process.hrtime.bigint();
  for (let from = 0; from < MEMORIES; from += BATCH)
    await rememberMany(
      Array.from({ length: Math.min(BATCH, MEMORIES - from) }, (_, i) => ({ content: text(from + i) })),
    );
  return ms(start);
}

const line = (name: string, { times, nodeCpu, postgresCpu }: Timed) =>
  `${name.padEnd(56)} median ${round(median(times))} ms, p95 ${round(percentile(times, 95))} ms; ` +
  `CPU per call ${round(nodeCpu)} ms node` +
  (postgresCpu === undefined ? '' : ` + ${round(postgresCpu)} ms PostgreSQL`);

const NO_PHASE: Timed = { times: [], nodeCpu: 0 };

async function main(): Promise<void> {
  const dir = tempDir('engram-team-bench-', { afterTest: false });
  const db = path.join(dir, 'team.db');
  const token = addToken(db, 'bench', 'memory:read,memory:write');
  const model = EMBEDDING ? ['--embedding', EMBEDDING] : [];
  const server = REFERENCE
    ? await startTeamServer(db, ['--port', '0', '--rate', '1000000', ...model])
    : undefined;
  // fsync on, as the sql.js server's journal: each acknowledged remember is on disk in both.
  const postgres = store ? await startPostgres({ durable: true }) : undefined;
  const replicas: TeamServerProcess[] = [];
  if (postgres)
    for (let i = 0; i < 2; i++)
      replicas.push(
        await startTeamServer(db, ['--port', '0', '--rate', '1000000', '--store', postgres.url(), ...model]),
      );
  const local = REFERENCE
    ? await Engram.open({
        dbPath: path.join(dir, 'local', 'memory.db'),
        sqlWasmPath: SQL_WASM_PATH,
        ...(EMBEDDING
          ? { embedding: { kind: 'use-lite', assets: resolveDefaultModelAssets(require.resolve) } }
          : {}),
      })
    : undefined;
  let id = 0;
  const overHttp = (urls: string[], method: string, params: unknown) => async (n: number) => {
    const answer = await rpc(urls[n % urls.length]!, token, { id: `bench-call-${++id}`, method, params });
    if (answer.status !== 200) throw new Error(`${method}: ${answer.status} ${JSON.stringify(answer.body)}`);
  };
  const pgUrls = replicas.map((r) => r.url);
  const meters = {
    http: { node: server ? [server.child.pid!] : [] },
    pg: { node: replicas.map((r) => r.child.pid!), postgres: postgres?.pid() },
    local: { node: 'self' as const },
  };
  const recallOn = (urls: string[]) => (n: number) => overHttp(urls, 'recall', { query: query(n), k: 10 })(n);
  const rememberOn = (urls: string[]) => (n: number) =>
    overHttp(urls, 'remember', { content: `bench note ${n} ${text(n)}` })(n);
  const loading = { server: 0, postgres: 0, local: 0 };
  try {
    // One store after the other: the in-process one blocks this thread for a whole batch (and its
    // snapshots), long enough for a server to close an idle keep-alive connection under a request.
    if (server)
      loading.server = await bulkLoad((memories) => overHttp([server.url], 'rememberMany', { memories })(0));
    if (pgUrls.length)
      loading.postgres = await bulkLoad((memories) =>
        overHttp(pgUrls.slice(0, 1), 'rememberMany', { memories })(0),
      );
    if (local) loading.local = await bulkLoad((memories) => local.call('rememberMany', { memories }));
    // Just after a bulk load each process answers recall in SQL while it builds its in-memory
    // lexical copy (engine/lexical/liveLexicalIndex.ts; the first recall starts the build).
    const cold = {
      http: server ? await timed(recallOn([server.url]), meters.http, 20) : NO_PHASE,
      pg: pgUrls.length ? await timed(recallOn(pgUrls), meters.pg, 20) : NO_PHASE,
      local: local
        ? await timed((n) => local.call('recall', { query: query(n), k: 10 }), meters.local, 20)
        : NO_PHASE,
    };
    await delay(SETTLE_SECONDS * 1000);
    const results = {
      httpRecall: server ? await timed(recallOn([server.url]), meters.http) : NO_PHASE,
      pgRecall: replicas.length ? await timed(recallOn(pgUrls), meters.pg) : NO_PHASE,
      localRecall: local
        ? await timed((n) => local.call('recall', { query: query(n), k: 10 }), meters.local)
        : NO_PHASE,
      httpRemember: server ? await timed(rememberOn([server.url]), meters.http) : NO_PHASE,
      pgRemember: replicas.length ? await timed(rememberOn(pgUrls), meters.pg) : NO_PHASE,
      localRemember: local
        ? await timed((n) => local.call('remember', { content: `bench note ${n} ${text(n)}` }), meters.local)
        : NO_PHASE,
    };
    console.log(
      `team server bench: ${MEMORIES} memories, ${CALLS} sequential calls each` +
        `${EMBEDDING ? `, model ${EMBEDDING}` : ''}; ${machine()}`,
    );
    console.log(
      `load average ${os
        .loadavg()
        .map((l) => round(l))
        .join(', ')}`,
    );
    const seconds = (total: number) => `${round(total / 1000, 1)} s`;
    console.log(
      'loaded by rememberMany of ' +
        [
          `${BATCH}:`,
          server ? `sql.js server ${seconds(loading.server)}` : '',
          replicas.length ? `PostgreSQL ${seconds(loading.postgres)}` : '',
          local ? `in process ${seconds(loading.local)}` : '',
        ]
          .filter(Boolean)
          .join(' '),
    );
    const pg = 'PostgreSQL, 2 servers in turn';
    if (server) console.log(line('first 20 recalls after the load, HTTP', cold.http));
    if (replicas.length) console.log(line(`first 20 recalls after the load, ${pg}`, cold.pg));
    if (local) console.log(line('first 20 recalls after the load, in process', cold.local));
    if (SETTLE_SECONDS > 0) console.log(`then ${SETTLE_SECONDS} s idle:`);
    if (server) console.log(line('recall over HTTP /rpc', results.httpRecall));
    if (replicas.length) console.log(line(`recall, ${pg}`, results.pgRecall));
    if (local) console.log(line('recall in process (ref)', results.localRecall));
    if (server) console.log(line('remember over HTTP /rpc', results.httpRemember));
    if (replicas.length) console.log(line(`remember, ${pg}`, results.pgRemember));
    if (local) console.log(line('remember in process (ref)', results.localRemember));
    if (LOAD_SECONDS > 0 && server) {
      console.log(`20 concurrent clients for ${LOAD_SECONDS} s each, half recall, half remember:`);
      console.log(loadLine('sql.js server', await mixedLoad([server.url], token, 20, LOAD_SECONDS, query)));
      if (replicas.length && !FAULTS)
        console.log(
          loadLine('PostgreSQL, 2 servers', await mixedLoad(pgUrls, token, 20, LOAD_SECONDS, query)),
        );
      if (FAULTS) process.exitCode = await withFaults(db, token, replicas, postgres!);
      console.log(
        `load average after: ${os
          .loadavg()
          .map((l) => round(l))
          .join(', ')}`,
      );
    }
  } catch (error) {
    // A server that failed says why on its stderr: show its last lines with the client's error.
    for (const s of [...(server ? [server] : []), ...replicas])
      console.error(
        `server ${s.url} (exit ${s.child.exitCode ?? s.child.signalCode}): ${s.stderr().slice(-2000)}`,
      );
    throw error;
  } finally {
    await local?.close();
    await Promise.all([...(server ? [server] : []), ...replicas].map((s) => s.stop()));
    await postgres?.stop();
  }
}

/**
 * The PostgreSQL load with a server SIGKILLed, PostgreSQL crashed and restarted; 1 when a write
 * was lost or duplicated, a call failed for good, or the two servers disagree.
 */
async function withFaults(
  db: string,
  token: string,
  replicas: TeamServerProcess[],
  postgres: PostgresServer,
): Promise<number> {
  const args = (url: string) => ['--port', new URL(url).port, '--rate', '1000000', '--store', postgres.url()];
  const tag = 'fault-load';
  const restart = async (mode: 'fast' | 'immediate') => {
    await postgres.stop(mode);
    await postgres.start();
  };
  const load = await faultLoad({
    urls: replicas.map((r) => r.url),
    token,
    clients: 20,
    seconds: LOAD_SECONDS,
    query,
    tag,
    faults: [
      {
        at: LOAD_SECONDS / 4,
        name: 'SIGKILL server 1, restart it on its port',
        run: async () => {
          const killed = replicas[0]!;
          killed.child.kill('SIGKILL');
          await killed.stop();
          replicas[0] = await startTeamServer(db, args(killed.url));
        },
      },
      {
        at: LOAD_SECONDS / 2,
        name: 'crash PostgreSQL (immediate), start it',
        run: () => restart('immediate'),
      },
      { at: (3 * LOAD_SECONDS) / 4, name: 'restart PostgreSQL (fast)', run: () => restart('fast') },
    ],
  });
  const checks = [];
  for (const replica of replicas) checks.push(await checkWrites(replica.url, token, tag, load.acknowledged));
  for (const line of faultLines('PostgreSQL, 2 servers, faults', load, checks[0]!)) console.log(line);
  const agree = JSON.stringify(checks[0]) === JSON.stringify(checks[1]);
  if (!agree) console.log(`  the two servers disagree: ${JSON.stringify(checks[1]).slice(0, 500)}`);
  const bad = checks.some((c) => c.lost.length + c.duplicated.length > 0) || load.failures.length > 0;
  return bad || !agree ? 1 : 0;
}

void main();
