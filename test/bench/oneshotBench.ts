// One-shot answers at 10k memories (issue 18): `engram recall` as a new process, and an MCP
// bridge from spawn to its first recall, each beside references run in the same rounds, in a new
// random order each round: `node -e 0`, a bare sql.js FTS4 query script, and the official
// @modelcontextprotocol/server-memory from spawn to its first search_nodes on 10k entities.
// Every run gets a fresh copy of one settled store (snapshotted twice, a short journal), so no
// run replays what an earlier one wrote.
// Usage: npm run build && node --import tsx test/bench/oneshotBench.ts [--rounds N] [--against DIST]
// [--no-extra-ca] (DIST: another build's dist/ directory, e.g. main's, measured beside this
// checkout's dist/). Every Node process loads the certificates NODE_EXTRA_CA_CERTS names at start
// (~35 ms of CPU per process on the machine of docs/benchmarks.md, which sets it; a user's machine
// usually does not): --no-extra-ca runs every subject without it, and the first line says which.
// A server's CPU is given twice: the whole process's (/usr/bin/time, to its exit, which includes
// what a bridge does after answering: its background index builds, closing) and to the answer
// (every thread's schedstat read when the answer arrives, Linux only).
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { EngineDispatcher } from '../../engine/api/engineDispatcher';
import { silentLogger } from '../../engine/host';
import { median, round, runStamp } from './stats';
import { syntheticMemories } from './syntheticMemories';

const root = path.resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '7' },
    against: { type: 'string' },
    'no-extra-ca': { type: 'boolean', default: false },
  },
});
/** The environment every subject runs in. */
const childEnv: Record<string, string> = {};
for (const [k, v] of Object.entries(process.env)) if (v !== undefined) childEnv[k] = v;
if (values['no-extra-ca']) delete childEnv['NODE_EXTRA_CA_CERTS'];
const extraCa = childEnv['NODE_EXTRA_CA_CERTS'] ? 'NODE_EXTRA_CA_CERTS set' : 'no NODE_EXTRA_CA_CERTS';
const ROUNDS = Number(values.rounds);
const MEMORIES = 10_000;
const QUERY = 'redis retry session';
const work = mkdtempSync(path.join(os.tmpdir(), 'engram-oneshot-'));
const fixture = path.join(work, 'fixture');

/** 10k synthetic memories, then two snapshots: the journal holds one recall, as a settled store's does. */
async function buildFixture(): Promise<void> {
  const dbPath = path.join(fixture, '.engram', 'memory.db');
  mkdirSync(path.dirname(dbPath), { recursive: true });
  const options = {
    dbPath,
    sqlWasmPath: path.join(root, 'dist', 'sql-wasm.wasm'),
    logger: silentLogger,
    clock: Date.now,
    embedding: null,
  };
  const loader = await EngineDispatcher.open({ ...options, snapshot: { idleMs: 3_600_000 } });
  const texts = syntheticMemories(MEMORIES, 7);
  for (let i = 0; i < texts.length; i += 500)
    await loader.dispatch(
      'rememberMany',
      { memories: texts.slice(i, i + 500).map((content) => ({ content, layer: 'semantic', kind: 'fact' })) },
      { requestId: `load-${i}`, client: 'bench' },
    );
  await loader.close();
  const settle = await EngineDispatcher.open({
    ...options,
    snapshot: { idleMs: 3_600_000, closeJournalBytes: 0 },
  });
  await settle.dispatch('recall', { query: QUERY, k: 10 }, { requestId: 'settle', client: 'bench' });
  await settle.close();
  // The official server's store: one entity per memory, its text the observation.
  const lines = texts.map((text, i) =>
    JSON.stringify({ type: 'entity', name: `memory-${i}`, entityType: 'note', observations: [text] }),
  );
  writeFileSync(path.join(fixture, 'server-memory.jsonl'), `${lines.join('\n')}\n`);
  // The floor of a one-shot lexical answer: load sql.js, open the snapshot, one FTS4 query.
  writeFileSync(
    path.join(work, 'ftsFloor.cjs'),
    `const fs = require('node:fs');
require(${JSON.stringify(path.join(root, 'node_modules/sql.js'))})({ locateFile: () => ${JSON.stringify(path.join(root, 'dist/sql-wasm.wasm'))} }).then((SQL) => {
  const db = new SQL.Database(fs.readFileSync('.engram/memory.db'));
  const rows = db.exec("SELECT content FROM memory_fts WHERE memory_fts MATCH 'redis OR retry OR session' LIMIT 10");
  process.stdout.write(JSON.stringify(rows).slice(0, 200) + '\\n');
});
`,
  );
}

/** A fresh workspace with the fixture's files. */
function freshWorkspace(): string {
  const dir = mkdtempSync(path.join(work, 'run-'));
  mkdirSync(path.join(dir, '.engram'));
  for (const name of readdirSync(path.join(fixture, '.engram')))
    copyFileSync(path.join(fixture, '.engram', name), path.join(dir, '.engram', name));
  copyFileSync(path.join(fixture, 'server-memory.jsonl'), path.join(dir, 'server-memory.jsonl'));
  return dir;
}

interface Sample {
  wallMs: number;
  cpuMs: number;
  /** A server's CPU from spawn to its first answer (the rest of cpuMs is after it, to exit). */
  answerCpuMs?: number;
}

/**
 * CPU time a running process has used, every thread's, in ms (Linux's schedstat: nanoseconds, where
 * /usr/bin/time's figures are in 10 ms steps); NaN where /proc cannot tell.
 */
function cpuSoFar(pid: number): number {
  try {
    let ns = 0;
    for (const thread of readdirSync(`/proc/${pid}/task`))
      ns += Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, 'utf8').split(' ')[0]);
    return ns / 1e6;
  } catch {
    return NaN;
  }
}

/** The process /usr/bin/time `timePid` runs (its one child). */
function timedChild(timePid: number | null): number {
  try {
    return Number(readFileSync(`/proc/${timePid}/task/${timePid}/children`, 'utf8').trim().split(' ')[0]);
  } catch {
    return NaN;
  }
}

/** Runs a command to its end under /usr/bin/time, for its CPU time beside the wall time. */
function timedProcess(args: string[], cwd: string): Sample {
  const usage = path.join(cwd, 'usage.txt');
  const start = process.hrtime.bigint();
  execFileSync('/usr/bin/time', ['-f', '%U %S', '-o', usage, process.execPath, ...args], {
    cwd,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...childEnv, ENGRAM_EMBEDDING: 'off' },
  });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  return { wallMs, cpuMs: cpuOf(usage) };
}

function cpuOf(usageFile: string): number {
  const [user, system] = readFileSync(usageFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  return ((user ?? NaN) + (system ?? NaN)) * 1000;
}

/** Spawn to the first answer of an MCP server (initialize, then one tool call); then it is closed. */
async function firstAnswer(args: string[], cwd: string, tool: string, query: string): Promise<Sample> {
  const usage = path.join(cwd, 'usage.txt');
  const client = new Client({ name: 'oneshot-bench', version: '1.0.0' });
  const start = process.hrtime.bigint();
  const transport = new StdioClientTransport({
    command: '/usr/bin/time',
    args: ['-f', '%U %S', '-o', usage, process.execPath, ...args],
    env: { ...childEnv, ENGRAM_EMBEDDING: 'off', MEMORY_FILE_PATH: path.join(cwd, 'server-memory.jsonl') },
    cwd,
    stderr: 'ignore',
  });
  await client.connect(transport);
  const result = (await client.callTool({ name: tool, arguments: { query } })) as { isError?: boolean };
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  const answerCpuMs = cpuSoFar(timedChild(transport.pid));
  if (result.isError) throw new Error(`${tool} failed: ${JSON.stringify(result)}`);
  await client.close();
  await new Promise((resolve) => setTimeout(resolve, 100));
  return { wallMs, cpuMs: cpuOf(usage), answerCpuMs };
}

type Subject = [string, (cwd: string) => Sample | Promise<Sample>];

function subjects(): Subject[] {
  const builds: Array<[string, string]> = [['this', path.join(root, 'dist')]];
  if (values.against) builds.push(['against', path.resolve(values.against)]);
  const list: Subject[] = [
    ['node -e 0', (cwd) => timedProcess(['-e', '0'], cwd)],
    ['sql.js FTS4 script', (cwd) => timedProcess([path.join(work, 'ftsFloor.cjs')], cwd)],
    [
      'official server: first search_nodes',
      (cwd) =>
        firstAnswer(
          [path.join(root, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js')],
          cwd,
          'search_nodes',
          'redis',
        ),
    ],
  ];
  for (const [label, dist] of builds) {
    list.push([
      `${label}: engram recall`,
      (cwd) => timedProcess([path.join(dist, 'cli.js'), 'recall', QUERY], cwd),
    ]);
    list.push([
      `${label}: bridge first recall`,
      (cwd) => firstAnswer([path.join(dist, 'mcp.js'), '--workspace', cwd], cwd, 'memory_recall', QUERY),
    ]);
  }
  return list;
}

async function main(): Promise<void> {
  const before = runStamp();
  await buildFixture();
  const list = subjects();
  const samples = new Map<string, Sample[]>(list.map(([name]) => [name, []]));
  // One unmeasured round: code caches written, files in the page cache.
  for (const [, run] of list) await run(freshWorkspace());
  for (let round = 0; round < ROUNDS; round++) {
    const order = [...list].sort(() => Math.random() - 0.5);
    for (const [name, run] of order) {
      const cwd = freshWorkspace();
      samples.get(name)!.push(await run(cwd));
      rmSync(cwd, { recursive: true, force: true });
    }
  }
  const after = runStamp();
  console.log(
    `${before.machine}; ${ROUNDS} rounds; load ${before.load} -> ${after.load}; ${before.date}; ${extraCa}`,
  );
  for (const [name, list] of samples) {
    const answerCpu = list.map((s) => s.answerCpuMs ?? NaN).filter((ms) => !Number.isNaN(ms));
    console.log(
      `${name.padEnd(40)} wall median ${round(median(list.map((s) => s.wallMs)), 1)
        .toString()
        .padStart(
          7,
        )} ms (${round(Math.min(...list.map((s) => s.wallMs)), 1)}-${round(Math.max(...list.map((s) => s.wallMs)), 1)})  CPU median ${round(median(list.map((s) => s.cpuMs)), 0)} ms${
        answerCpu.length > 0 ? `, to the answer ${round(median(answerCpu), 0)} ms` : ''
      }`,
    );
  }
  rmSync(work, { recursive: true, force: true });
}

void main();
