// Per-call latency through the MCP bridge over stdio. First Engram's compat profile against the
// official @modelcontextprotocol/server-memory, interleaved call by call at 1k and 10k entities
// (mcpCompatBench.ts: create, add, selective search, open, read_graph, RSS, CPU time, load); then
// Engram's own remember and recall at 10k memories, as host and as a client of the host.
// Usage: npm run bench:mcp  (env BENCH_COMPAT_SIZES, BENCH_MEMORIES, BENCH_QUERIES, BENCH_EMBEDDING;
// default 1000,10000 / 10000 / 300 / off; BENCH_MEMORIES=0 skips the second part)
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { compatPart } from './mcpCompatBench';
import { machine } from './stats';

const root = path.resolve(import.meta.dirname, '../..');
const MEMORIES = Number(process.env['BENCH_MEMORIES'] ?? 10_000);
const QUERIES = Number(process.env['BENCH_QUERIES'] ?? 300);
const CLIENT_WRITES = 1000;
const EMBEDDING = process.env['BENCH_EMBEDDING'] ?? 'off';
const COMPAT_SIZES = (process.env['BENCH_COMPAT_SIZES'] ?? '1000,10000').split(',').map(Number);

const WORDS = (
  'auth login session token cache redis postgres migration schema webview timeline graph scanner ' +
  'grammar parser symbol import export drift commit branch release build bundle esbuild test runner fixture ' +
  'config setting command palette status memory recall context budget vector embedding index queue worker ' +
  'socket lock journal snapshot recovery retry timeout logging metrics billing invoice payment webhook'
).split(' ');

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 4_294_967_296;
  };
}
const next = random(42);
const word = () => WORDS[Math.floor(next() * WORDS.length)]!;
const sentence = (i: number) =>
  `The ${word()} ${word()} module uses ${word()} for ${word()} and ${word()}; decided in review ${i} after the ${word()} incident.`;
const query = () => `${word()} ${word()} ${word()}`;

function env(extra: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) out[k] = v;
  return { ...out, ...extra };
}

async function connect(
  command: string,
  args: string[],
  extraEnv: Record<string, string>,
  cwd: string,
): Promise<Client> {
  const client = new Client({ name: 'mcp-bench', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command, args, env: env(extraEnv), cwd, stderr: 'ignore' }),
  );
  await client.listTools();
  return client;
}

async function timeCalls(count: number, call: (i: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const result = (await call(i)) as { isError?: boolean; content?: unknown };
    times.push(performance.now() - start);
    if (result.isError) throw new Error(`call ${i} failed: ${JSON.stringify(result.content)}`);
  }
  return times;
}

function percentile(times: number[], p: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const rows: Array<{ server: string; operation: string; calls: number; p50: number; p95: number }> = [];
function record(server: string, operation: string, times: number[]): void {
  const row = {
    server,
    operation,
    calls: times.length,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
  };
  rows.push(row);
  console.log(
    `${server.padEnd(34)} ${operation.padEnd(30)} n=${String(row.calls).padStart(5)}  p50 ${row.p50.toFixed(2)} ms  p95 ${row.p95.toFixed(2)} ms`,
  );
}

const workspace = mkdtempSync(path.join(os.tmpdir(), 'engram-mcp-bench-'));
const bridgeArgs = [path.join(root, 'dist/mcp.js'), '--workspace', workspace];
const engramEnv = { ENGRAM_EMBEDDING: EMBEDDING };
const texts = Array.from({ length: MEMORIES }, (_, i) => sentence(i));
const queries = Array.from({ length: QUERIES }, query);

/** Engram's own tools: remember and recall as host, and as a second bridge that is its client. */
async function memoryPart(): Promise<void> {
  const host = await connect(process.execPath, bridgeArgs, engramEnv, workspace);
  record(
    'engram bridge (host)',
    `remember (0 -> ${MEMORIES})`,
    await timeCalls(MEMORIES, (i) =>
      host.callTool({ name: 'memory_remember', arguments: { content: texts[i]! } }),
    ),
  );
  // Warm the recall path once (tokenizer tables, graph cache), as a long-lived bridge is.
  await host.callTool({ name: 'memory_recall', arguments: { query: queries[0]! } });
  record(
    'engram bridge (host)',
    `recall k=10 @${MEMORIES}`,
    await timeCalls(QUERIES, (i) =>
      host.callTool({ name: 'memory_recall', arguments: { query: queries[i]! } }),
    ),
  );

  const joined = await connect(process.execPath, bridgeArgs, engramEnv, workspace);
  await joined.callTool({ name: 'memory_recall', arguments: { query: queries[0]! } });
  record(
    'engram bridge (client of host)',
    `recall k=10 @${MEMORIES}`,
    await timeCalls(QUERIES, (i) =>
      joined.callTool({ name: 'memory_recall', arguments: { query: queries[i]! } }),
    ),
  );
  record(
    'engram bridge (client of host)',
    `remember (+${CLIENT_WRITES})`,
    await timeCalls(CLIENT_WRITES, (i) =>
      joined.callTool({
        name: 'memory_remember',
        arguments: { content: `client ${sentence(MEMORIES + i)}` },
      }),
    ),
  );
  record(
    'engram bridge (host)',
    `remember (+${CLIENT_WRITES})`,
    await timeCalls(CLIENT_WRITES, (i) =>
      host.callTool({ name: 'memory_remember', arguments: { content: `host ${sentence(MEMORIES + i)}` } }),
    ),
  );
  await joined.close();
  await host.close();
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg().map((l) => Math.round(l * 100) / 100);
  const compat = await compatPart(root, path.join(workspace, 'compat'), COMPAT_SIZES, EMBEDDING);
  if (MEMORIES > 0) await memoryPart();
  const out = path.join(root, 'bench-out');
  mkdirSync(out, { recursive: true });
  const report = {
    date: new Date().toISOString(),
    machine: machine(),
    loadAverage: { before: loadBefore, after: os.loadavg().map((l) => Math.round(l * 100) / 100) },
    memories: MEMORIES,
    embedding: EMBEDDING,
    compat,
    rows,
  };
  writeFileSync(path.join(out, 'mcp-bench.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(
    `\n${report.machine}; load ${report.loadAverage.before.join(' ')} -> ${report.loadAverage.after.join(' ')}; written to bench-out/mcp-bench.json`,
  );
}

void main();
