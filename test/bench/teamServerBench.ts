/**
 * The team server's cost per call over HTTP, against the same calls in this process on a database
 * of the same size (the reference, measured in the same run). Loopback, sequential, bounded:
 * `node --import tsx test/bench/teamServerBench.ts [memories] [calls]` after a build.
 */
import os from 'node:os';
import path from 'node:path';
import { Engram } from '../../engine/engram';
import { addToken, rpc, startTeamServer } from '../teamServer/teamServerProcess';
import { SQL_WASM_PATH, tempDir } from '../support/temp';
import { machine, median, ms, percentile, round } from './stats';

const MEMORIES = Number(process.argv[2] ?? 2000);
const CALLS = Number(process.argv[3] ?? 200);
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
  `${name.padEnd(28)} median ${round(median(times))} ms, p95 ${round(percentile(times, 95))} ms`;

async function main(): Promise<void> {
  const dir = tempDir('engram-team-bench-', { afterTest: false });
  const db = path.join(dir, 'team.db');
  const token = addToken(db, 'bench', 'memory:read,memory:write');
  const server = await startTeamServer(db, ['--port', '0', '--rate', '1000000']);
  const local = await Engram.open({
    dbPath: path.join(dir, 'local', 'memory.db'),
    sqlWasmPath: SQL_WASM_PATH,
  });
  try {
    for (let from = 0; from < MEMORIES; from += BATCH) {
      const memories = Array.from({ length: Math.min(BATCH, MEMORIES - from) }, (_, i) => ({
        content: text(from + i),
      }));
      const answer = await rpc(server.url, token, {
        id: `seed-batch-${from}`,
        method: 'rememberMany',
        params: { memories },
      });
      if (answer.status !== 200) throw new Error(`seeding failed: ${JSON.stringify(answer.body)}`);
      await local.call('rememberMany', { memories });
    }
    let id = 0;
    const overHttp = (method: string, params: unknown) => async () => {
      const answer = await rpc(server.url, token, { id: `bench-call-${++id}`, method, params });
      if (answer.status !== 200) throw new Error(`${method}: ${answer.status}`);
    };
    const results = {
      httpRecall: await timed((n) => overHttp('recall', { query: query(n), k: 10 })()),
      localRecall: await timed((n) => local.call('recall', { query: query(n), k: 10 })),
      httpRemember: await timed((n) => overHttp('remember', { content: `bench note ${n} ${text(n)}` })()),
      localRemember: await timed((n) => local.call('remember', { content: `bench note ${n} ${text(n)}` })),
    };
    console.log(`team server bench: ${MEMORIES} memories, ${CALLS} sequential calls each; ${machine()}`);
    console.log(
      `load average ${os
        .loadavg()
        .map((l) => round(l))
        .join(', ')}`,
    );
    console.log(line('recall over HTTP /rpc', results.httpRecall));
    console.log(line('recall in process (ref)', results.localRecall));
    console.log(line('remember over HTTP /rpc', results.httpRemember));
    console.log(line('remember in process (ref)', results.localRemember));
  } finally {
    await local.close();
    await server.stop();
  }
}

void main();
