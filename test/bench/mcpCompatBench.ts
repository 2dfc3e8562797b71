// Engram's compat profile and the official @modelcontextprotocol/server-memory side by side over
// stdio, interleaved call by call (who goes first alternates), so machine load hits both alike.
// Each row: p50 with the middle half (p25-p75) of both, the ratio, CPU time of the calls, load.
// read_graph is timed twice: reads in a row, then each read right after a write.
// Part of `npm run bench:mcp`; sizes from BENCH_COMPAT_SIZES (default 1000,10000). BENCH_ENGRAM_DIST
// runs another build's dist/ (a copy of main's) against the official server, to compare in one session.
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { processUsage } from './processUsage';
import type { ProcessUsage } from './processUsage';
import { median, percentile, round } from './stats';

interface Server {
  name: 'engram' | 'official';
  client: Client;
  pid: number;
}

export interface CompatRow {
  size: number;
  operation: string;
  calls: number;
  engramP50: number;
  officialP50: number;
  /** engram / official: below 1 is Engram faster. */
  ratio: number;
  /**
   * The median of each call's own ratio (Engram's i-th call over the official server's i-th,
   * made one right after the other): a load spike falls on both calls of a pair, so this moves
   * less with the machine's load than the ratio of the two p50s.
   */
  pairedRatio: number;
  /** The share of pairs in which Engram's call was the faster. */
  engramFasterShare: number;
  /** The middle half of each server's times (p25-p75, ms): how far a p50 can be trusted. */
  engramSpread: [number, number];
  officialSpread: [number, number];
  /** CPU time each server spent on these calls (s), and the machine's 1-minute load after them. */
  engramCpuSeconds: number;
  officialCpuSeconds: number;
  loadAverage: number;
}

export interface CompatCheckpoint {
  size: number;
  /** Right after the last whole-graph read. */
  engram: ProcessUsage;
  official: ProcessUsage;
  /** One second later, both idle: what a user's process monitor shows between calls (MB). */
  settledRssMb: { engram: number; official: number };
  loadAverage: number[];
}

/** How long both servers sit idle before the settled RSS is read. */
const SETTLE_MS = 1000;

const TYPES = ['person', 'service', 'library', 'decision', 'incident'];
const SEARCHES = 100;
const OPENS = 100;
const ADDS = 200;
/**
 * Whole-graph reads: enough for a stable p50 (with 10 and 5 the ratio ranged 0.85-1.82 between
 * runs of one build; with 15 at 10k, 0.68-1.34 at load 4-14), fewer at 10k, where each read
 * serialises a few MB in both servers (~0.3 s a pair).
 */
const READ_GRAPHS = (size: number) => (size >= 10_000 ? 40 : 60);
/**
 * Whole-graph reads each right after a write: at 1k a read takes ~8 ms and with 30 the ratio
 * swung 0.9-1.46 between runs of one build at load 6-15; 150 (~5 s for both servers) narrow it.
 * At 10k a pair with its writes takes ~0.7 s.
 */
const READS_AFTER_WRITES = (size: number) => (size >= 10_000 ? 40 : 150);

/** A token only entity `i` has, so a search for it is selective (1 match) in both servers. */
const marker = (i: number) => `k${i}q`;
const observation = (i: number, n: number) =>
  `Observation ${n} of entity ${i}: the ${TYPES[i % TYPES.length]} ${marker(i)} was reviewed in sprint ${i % 40}.`;

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 4_294_967_296;
  };
}

async function start(
  name: Server['name'],
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<Server> {
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) base[k] = v;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env: { ...base, ...env },
    cwd,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'mcp-compat-bench', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools();
  return { name, client, pid: transport.pid! };
}

interface Timed {
  times: Record<Server['name'], number[]>;
  cpuSeconds: Record<Server['name'], number>;
}

type Call = (client: Client, i: number) => Promise<unknown>;

async function checked(server: Server, i: number, call: Call): Promise<void> {
  const result = (await call(server.client, i)) as { isError?: boolean; content?: unknown };
  if (result.isError) throw new Error(`${server.name} call ${i} failed: ${JSON.stringify(result.content)}`);
}

/**
 * Runs `count` calls on both servers, alternating which goes first; returns each one's times and
 * CPU. With `before`, each server makes that call first, untimed, right before its timed one (a
 * write before a read: what a read costs when nothing of the last one can be reused).
 */
async function interleaved(
  servers: readonly [Server, Server],
  count: number,
  call: Call,
  before?: Call,
): Promise<Timed> {
  const times: Record<Server['name'], number[]> = { engram: [], official: [] };
  const cpuBefore = servers.map((server) => processUsage(server.pid).cpuSeconds);
  for (let i = 0; i < count; i++) {
    const order = i % 2 === 0 ? servers : ([servers[1], servers[0]] as const);
    for (const server of order) {
      if (before) await checked(server, i, before);
      const began = performance.now();
      await checked(server, i, call);
      times[server.name].push(performance.now() - began);
    }
  }
  const cpuSeconds = { engram: 0, official: 0 };
  servers.forEach((server, i) => {
    cpuSeconds[server.name] = round(processUsage(server.pid).cpuSeconds - cpuBefore[i]!, 1);
  });
  return { times, cpuSeconds };
}

/** p25 and p75 of a list of times. */
function middleHalf(values: number[]): [number, number] {
  const sorted = [...values].sort((a, b) => a - b);
  return [round(percentile(sorted, 25)), round(percentile(sorted, 75))];
}

export async function compatPart(
  root: string,
  workspace: string,
  sizes: readonly number[],
  embedding: string,
): Promise<{ rows: CompatRow[]; checkpoints: CompatCheckpoint[] }> {
  mkdirSync(workspace, { recursive: true });
  const engram = await start(
    'engram',
    [
      path.join(process.env['BENCH_ENGRAM_DIST'] ?? path.join(root, 'dist'), 'mcp.js'),
      '--workspace',
      workspace,
      '--profile',
      'compat',
    ],
    { ENGRAM_EMBEDDING: embedding },
    workspace,
  );
  const official = await start(
    'official',
    [path.join(root, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js')],
    { MEMORY_FILE_PATH: path.join(workspace, 'server-memory.jsonl') },
    workspace,
  );
  const servers = [engram, official] as const;
  const rows: CompatRow[] = [];
  const checkpoints: CompatCheckpoint[] = [];
  const next = random(42);
  const pick = (size: number) => Math.floor(next() * size);
  const row = (size: number, operation: string, { times, cpuSeconds }: Timed) => {
    const engramP50 = round(median(times.engram));
    const officialP50 = round(median(times.official));
    const out: CompatRow = {
      size,
      operation,
      calls: times.engram.length,
      engramP50,
      officialP50,
      ratio: round(engramP50 / officialP50),
      pairedRatio: round(median(times.engram.map((t, i) => t / times.official[i]!))),
      engramFasterShare: round(
        times.engram.filter((t, i) => t < times.official[i]!).length / times.engram.length,
      ),
      engramSpread: middleHalf(times.engram),
      officialSpread: middleHalf(times.official),
      engramCpuSeconds: cpuSeconds.engram,
      officialCpuSeconds: cpuSeconds.official,
      loadAverage: round(os.loadavg()[0]!),
    };
    rows.push(out);
    const spread = ([low, high]: [number, number]) => `${low.toFixed(1)}-${high.toFixed(1)}`;
    console.log(
      `@${String(size).padEnd(6)} ${operation.padEnd(34)} n=${String(out.calls).padStart(5)}  engram ${engramP50.toFixed(2).padStart(8)} ms (${spread(out.engramSpread)})  official ${officialP50.toFixed(2).padStart(8)} ms (${spread(out.officialSpread)})  ratio ${out.ratio.toFixed(2)} (paired ${out.pairedRatio.toFixed(2)}, faster in ${Math.round(out.engramFasterShare * 100)}%)  CPU ${out.engramCpuSeconds} / ${out.officialCpuSeconds} s  load ${out.loadAverage}`,
    );
  };

  let created = 0;
  try {
    for (const size of sizes) {
      const from = created;
      row(
        size,
        `create_entities (${from} -> ${size})`,
        await interleaved(servers, size - from, (client, i) =>
          client.callTool({
            name: 'create_entities',
            arguments: {
              entities: [
                {
                  name: `entity-${from + i}`,
                  entityType: TYPES[(from + i) % TYPES.length]!,
                  observations: [observation(from + i, 0), observation(from + i, 1)],
                },
              ],
            },
          }),
        ),
      );
      created = size;
      const targets = Array.from({ length: ADDS }, () => pick(size));
      row(
        size,
        'add_observations (1 to 1 entity)',
        await interleaved(servers, ADDS, (client, i) =>
          client.callTool({
            name: 'add_observations',
            arguments: {
              observations: [
                { entityName: `entity-${targets[i]!}`, contents: [observation(targets[i]!, 100 + i)] },
              ],
            },
          }),
        ),
      );
      const searched = Array.from({ length: SEARCHES }, () => pick(size));
      row(
        size,
        'search_nodes (selective, 1 match)',
        await interleaved(servers, SEARCHES, (client, i) =>
          client.callTool({ name: 'search_nodes', arguments: { query: marker(searched[i]!) } }),
        ),
      );
      const opened = Array.from({ length: OPENS }, () =>
        Array.from({ length: 5 }, () => `entity-${pick(size)}`),
      );
      row(
        size,
        'open_nodes (5 names)',
        await interleaved(servers, OPENS, (client, i) =>
          client.callTool({ name: 'open_nodes', arguments: { names: opened[i]! } }),
        ),
      );
      row(
        size,
        'read_graph',
        await interleaved(servers, READ_GRAPHS(size), (client) =>
          client.callTool({ name: 'read_graph', arguments: {} }),
        ),
      );
      // Each read right after a write to a random entity, as an agent would call them.
      const written = Array.from({ length: READS_AFTER_WRITES(size) }, () => pick(size));
      row(
        size,
        'read_graph after add_observations',
        await interleaved(
          servers,
          READS_AFTER_WRITES(size),
          (client) => client.callTool({ name: 'read_graph', arguments: {} }),
          (client, i) =>
            client.callTool({
              name: 'add_observations',
              arguments: {
                observations: [
                  {
                    entityName: `entity-${written[i]!}`,
                    contents: [observation(written[i]!, 1000 + i)],
                  },
                ],
              },
            }),
        ),
      );
      const usage = { engram: processUsage(engram.pid), official: processUsage(official.pid) };
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      const checkpoint: CompatCheckpoint = {
        size,
        ...usage,
        settledRssMb: { engram: processUsage(engram.pid).rssMb, official: processUsage(official.pid).rssMb },
        loadAverage: os.loadavg().map((l) => round(l)),
      };
      checkpoints.push(checkpoint);
      console.log(
        `@${String(size).padEnd(6)} RSS engram ${checkpoint.engram.rssMb} MB, official ${checkpoint.official.rssMb} MB (${SETTLE_MS / 1000} s idle later: ${checkpoint.settledRssMb.engram} / ${checkpoint.settledRssMb.official} MB); CPU so far engram ${checkpoint.engram.cpuSeconds} s, official ${checkpoint.official.cpuSeconds} s; load ${checkpoint.loadAverage.join(' ')}`,
      );
    }
  } finally {
    await engram.client.close();
    await official.client.close();
  }
  return { rows, checkpoints };
}
