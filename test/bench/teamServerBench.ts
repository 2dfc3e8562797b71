/**
 * The team server's cost per call over HTTP, against the same calls in this process on a database
 * of the same size (the reference, measured in the same run). Loopback, sequential, bounded:
 * `node --import tsx test/bench/teamServerBench.ts [memories] [calls] [--store postgres] [--load S]`
 * after a build; `--load S` adds S seconds of 20 concurrent clients on each store. `--store postgres` adds two server processes on one PostgreSQL store (a server the bench
 * starts, test/support/postgresServer.ts), called in turn, beside the sql.js server.
 */
import os from 'node:os';
import path from 'node:path';
import { Engram } from '../../engine/engram';
import { startPostgres } from '../support/postgresServer';
import { addToken, rpc, startTeamServer } from '../teamServer/teamServerProcess';
import type { TeamServerProcess } from '../teamServer/teamServerProcess';
import { SQL_WASM_PATH, tempDir } from '../support/temp';
import { machine, median, ms, percentile, round } from './stats';
import { loadLine, mixedLoad } from './teamLoad';

const args = process.argv.slice(2);
const storeAt = args.indexOf('--store');
const store = storeAt >= 0 ? args.splice(storeAt, 2)[1] : undefined;
if (store !== undefined && store !== 'postgres') throw new Error(`--store takes postgres; got ${store}`);
const loadAt = args.indexOf('--load');
/** Seconds of 20 concurrent clients mixing recall and remember (teamLoad.ts); 0: none. */
const LOAD_SECONDS = loadAt >= 0 ? Number(args.splice(loadAt, 2)[1]) : 0;
const MEMORIES = Number(args[0] ?? 2000);
const CALLS = Number(args[1] ?? 200);
const BATCH = 500;

const text = (n: number) =>
  `Decision ${n}: the ${['loader', 'cache', 'router', 'queue', 'parser'][n % 5]} of service ${n % 97} reads its settings from config ${n % 13}`;
const query = (n: number) =>
  `${['loader', 'cache', 'router', 'queue', 'parser'][n % 5]} settings service ${n % 97}`;

async function timed(run: (n: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let n = 0; n < CALLS; n++) {
    const start = process.hrtime.bigint();
    await run(n);
    times.push(ms(start));
  }
  return times.sort((a, b) => a - b);
}

const line = (name: string, times: number[]) =>
  `${name.padEnd(40)} median ${round(median(times))} ms, p95 ${round(percentile(times, 95))} ms`;

async function main(): Promise<void> {
  const dir = tempDir('engram-team-bench-', { afterTest: false });
  const db = path.join(dir, 'team.db');
  const token = addToken(db, 'bench', 'memory:read,memory:write');
  const server = await startTeamServer(db, ['--port', '0', '--rate', '1000000']);
  // fsync on, as the sql.js server's journal: each acknowledged remember is on disk in both.
  const postgres = store ? await startPostgres({ durable: true }) : undefined;
  const replicas: TeamServerProcess[] = [];
  if (postgres)
    for (let i = 0; i < 2; i++)
      replicas.push(
        await startTeamServer(db, ['--port', '0', '--rate', '1000000', '--store', postgres.url()]),
      );
  const local = await Engram.open({
    dbPath: path.join(dir, 'local', 'memory.db'),
    sqlWasmPath: SQL_WASM_PATH,
  });
  let id = 0;
  const overHttp = (urls: string[], method: string, params: unknown) => async (n: number) => {
    const answer = await rpc(urls[n % urls.length]!, token, { id: `bench-call-${++id}`, method, params });
    if (answer.status !== 200) throw new Error(`${method}: ${answer.status} ${JSON.stringify(answer.body)}`);
  };
  const pgUrls = replicas.map((r) => r.url);
  try {
    for (let from = 0; from < MEMORIES; from += BATCH) {
      const memories = Array.from({ length: Math.min(BATCH, MEMORIES - from) }, (_, i) => ({
        content: text(from + i),
      }));
      for (const url of [server.url, ...pgUrls.slice(0, 1)])
        await overHttp([url], 'rememberMany', { memories })(0);
      await local.call('rememberMany', { memories });
    }
    const results = {
      httpRecall: await timed((n) => overHttp([server.url], 'recall', { query: query(n), k: 10 })(n)),
      pgRecall: replicas.length
        ? await timed((n) => overHttp(pgUrls, 'recall', { query: query(n), k: 10 })(n))
        : [],
      localRecall: await timed((n) => local.call('recall', { query: query(n), k: 10 })),
      httpRemember: await timed((n) =>
        overHttp([server.url], 'remember', { content: `bench note ${n} ${text(n)}` })(n),
      ),
      pgRemember: replicas.length
        ? await timed((n) => overHttp(pgUrls, 'remember', { content: `bench note ${n} ${text(n)}` })(n))
        : [],
      localRemember: await timed((n) => local.call('remember', { content: `bench note ${n} ${text(n)}` })),
    };
    console.log(`team server bench: ${MEMORIES} memories, ${CALLS} sequential calls each; ${machine()}`);
    console.log(
      `load average ${os
        .loadavg()
        .map((l) => round(l))
        .join(', ')}`,
    );
    const pg = 'PostgreSQL, 2 servers in turn';
    console.log(line('recall over HTTP /rpc', results.httpRecall));
    if (replicas.length) console.log(line(`recall, ${pg}`, results.pgRecall));
    console.log(line('recall in process (ref)', results.localRecall));
    console.log(line('remember over HTTP /rpc', results.httpRemember));
    if (replicas.length) console.log(line(`remember, ${pg}`, results.pgRemember));
    console.log(line('remember in process (ref)', results.localRemember));
    if (LOAD_SECONDS > 0) {
      console.log(`20 concurrent clients for ${LOAD_SECONDS} s each, half recall, half remember:`);
      console.log(loadLine('sql.js server', await mixedLoad([server.url], token, 20, LOAD_SECONDS, query)));
      if (replicas.length)
        console.log(
          loadLine('PostgreSQL, 2 servers', await mixedLoad(pgUrls, token, 20, LOAD_SECONDS, query)),
        );
      console.log(
        `load average after: ${os
          .loadavg()
          .map((l) => round(l))
          .join(', ')}`,
      );
    }
  } finally {
    await local.close();
    await Promise.all([server, ...replicas].map((s) => s.stop()));
    await postgres?.stop();
  }
}

void main();
