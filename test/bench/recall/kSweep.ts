import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { EngineDispatcher } from '../../../engine/api/engineDispatcher';
import type { HostOptions } from '../../../engine/api/engineDispatcher';
import { silentLogger } from '../../../engine/host';
import { percentile, round } from '../stats';
import { syntheticMemories } from '../syntheticMemories';

/**
 * Recall latency by `k` (issue 17: returning k memories should cost a small fixed part and a cheap
 * part per result): the same synthetic store and queries at each k, every channel but the dense
 * one. With `against` (another build's dist/engine.js, e.g. main's) both builds answer on copies
 * of one database in this process, alternating query by query, so load and warm-up fall on both
 * alike; then this build is this checkout's dist/engine.js too (`npm run build` first), so both
 * run bundled code.
 */
export interface KSweepOptions {
  memories: number;
  ks: number[];
  /** Another build's dist/engine.js to measure beside this one. */
  against?: string;
  queries?: number;
  /** Rounds of the first recall after open (each build, each pause, a fresh copy). @default 3 */
  firstRecalls?: number;
}

/**
 * A query whose entity (reached through an alias, not its words) seeds the PageRank channel on the
 * synthetic corpus: its first recall after open needs the entity graph as well as the lexical index.
 */
const ENTITY_QUERY = '`npm run lint` before pushing; eslint config';
/**
 * Pauses between open and the first recall: at once, after a client's handshake or so, and once
 * the host's background work (its lexical copy; with this change its entity graph) is done.
 */
const FIRST_RECALL_PAUSES = ['0ms', '500ms', 'Idle'] as const;

type Opener = (options: HostOptions) => Promise<EngineDispatcher>;

const load = createRequire(__filename);
const sqlWasmPath = load.resolve('sql.js/dist/sql-wasm.wasm');
const NO_DENSE = ['lexical', 'graph', 'ppr', 'neighbours'];
const WARM_UP = 20;

function openerOf(enginePath: string): Opener {
  const bundle = load(path.resolve(enginePath)) as { EngineDispatcher?: typeof EngineDispatcher };
  if (!bundle.EngineDispatcher) throw new Error(`${enginePath} exports no EngineDispatcher`);
  const Dispatcher = bundle.EngineDispatcher;
  return (options) => Dispatcher.open(options);
}

/**
 * `lexicalCopy`: the sweep's hosts build their lexical copy on the first search, as a host open a
 * while has it (a background build of 100k rows was not done after the warm-up, and searches
 * that do not yield never let it go on); the first recalls after open use the hosts' default.
 */
function hostOptions(dbPath: string, lexicalCopy?: HostOptions['lexicalCopy']): HostOptions {
  return {
    lexicalCopy,
    dbPath,
    sqlWasmPath,
    logger: silentLogger,
    clock: Date.now,
    snapshot: { idleMs: 3_600_000, maxJournalBytes: 1 << 30 },
    embedding: null,
  };
}

export async function kSweep(options: KSweepOptions): Promise<Record<string, Record<string, number>>> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'engram-bench-ksweep-'));
  const here = path.resolve(__dirname, '../../../dist/engine.js');
  const builds: Array<[string, Opener]> = options.against
    ? [
        ['this', openerOf(here)],
        ['against', openerOf(options.against)],
      ]
    : [['this', (o) => EngineDispatcher.open(o)]];
  try {
    const first = path.join(root, 'this.db');
    const loader = await builds[0]![1](hostOptions(first));
    const texts = syntheticMemories(options.memories, 7);
    for (let i = 0; i < texts.length; i += 500)
      await loader.dispatch(
        'rememberMany',
        {
          memories: texts.slice(i, i + 500).map((content) => ({ content, layer: 'semantic', kind: 'fact' })),
        },
        { requestId: `ksweep-load-${i}`, client: 'bench' },
      );
    await loader.close();
    const hosts: Array<[string, EngineDispatcher]> = [];
    for (const [label, open] of builds) {
      const dbPath = path.join(root, `${label}.db`);
      if (dbPath !== first)
        for (const suffix of ['', '.journal'])
          if (existsSync(first + suffix)) copyFileSync(first + suffix, dbPath + suffix);
      hosts.push([label, await open(hostOptions(dbPath, 'on-first-search'))]);
    }
    const queries = syntheticMemories(WARM_UP + (options.queries ?? 200), 99).map((t) =>
      t.split(' ').slice(2, 9).join(' '),
    );
    const recall = (host: EngineDispatcher, query: string, k: number, id: string) =>
      host.dispatch('recall', { query, k, channels: NO_DENSE }, { requestId: id, client: 'bench' });
    // Warm-up: caches, the JIT, and the lexical copy each host builds in the background from open.
    for (const [label, host] of hosts)
      for (const [i, query] of queries.slice(0, WARM_UP).entries())
        await recall(host, query, 10, `w-${label}-${i}`);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const wall = new Map<string, number[]>();
    const cpu = new Map<string, number[]>();
    for (const [i, query] of queries.slice(WARM_UP).entries())
      for (const k of options.ks) {
        const order = i % 2 === 0 ? hosts : [...hosts].reverse();
        for (const [label, host] of order) {
          const t = process.hrtime.bigint();
          const c = process.cpuUsage();
          await recall(host, query, k, `q-${label}-${k}-${i}`);
          const used = process.cpuUsage(c);
          push(wall, `${label}:${k}`, Number(process.hrtime.bigint() - t) / 1e6);
          push(cpu, `${label}:${k}`, (used.user + used.system) / 1000);
        }
      }
    for (const [, host] of hosts) await host.close();
    const firstMs = await firstRecalls(builds, first, path.join(root, 'first'), options.firstRecalls ?? 3);
    const out: Record<string, Record<string, number>> = {};
    for (const [label] of hosts) {
      const row: Record<string, number> = {};
      for (const k of options.ks) {
        const w = [...wall.get(`${label}:${k}`)!].sort((a, b) => a - b);
        const c = [...cpu.get(`${label}:${k}`)!].sort((a, b) => a - b);
        row[`k${k}P50Ms`] = round(percentile(w, 50));
        row[`k${k}P95Ms`] = round(percentile(w, 95));
        row[`k${k}CpuP50Ms`] = round(percentile(c, 50));
      }
      const [low, high] = [Math.min(...options.ks), Math.max(...options.ks)];
      row[`p50 k${high} / k${low}`] = round(row[`k${high}P50Ms`]! / row[`k${low}P50Ms`]!, 1);
      row[`cpu k${high} / k${low}`] = round(row[`k${high}CpuP50Ms`]! / row[`k${low}CpuP50Ms`]!, 1);
      for (const pause of FIRST_RECALL_PAUSES) {
        const times = [...firstMs.get(`${label}:${pause}`)!].sort((a, b) => a - b);
        row[`firstRecallAfter${pause}MedianMs`] = round(percentile(times, 50));
        row[`firstRecallAfter${pause}MaxMs`] = round(times[times.length - 1]!);
      }
      out[label] = row;
    }
    return out;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * The first recall after open, of a query that needs the lexical index and the entity graph: each
 * build on a fresh copy of the database per round and pause, the builds alternating.
 */
async function firstRecalls(
  builds: Array<[string, Opener]>,
  database: string,
  prefix: string,
  rounds: number,
): Promise<Map<string, number[]>> {
  const times = new Map<string, number[]>();
  let copies = 0;
  for (let round = 0; round < rounds; round++)
    for (const pause of FIRST_RECALL_PAUSES)
      for (const [label, open] of round % 2 === 0 ? builds : [...builds].reverse()) {
        const dbPath = `${prefix}-${++copies}.db`;
        for (const suffix of ['', '.journal'])
          if (existsSync(database + suffix)) copyFileSync(database + suffix, dbPath + suffix);
        const host = await open(hostOptions(dbPath));
        if (pause === 'Idle') await idle();
        else await new Promise((resolve) => setTimeout(resolve, Number.parseInt(pause)));
        const t = process.hrtime.bigint();
        await host.dispatch(
          'recall',
          { query: ENTITY_QUERY, k: 10, channels: NO_DENSE },
          { requestId: `first-${copies}`, client: 'bench' },
        );
        push(times, `${label}:${pause}`, Number(process.hrtime.bigint() - t) / 1e6);
        await host.close();
        for (const suffix of ['', '.journal', '.sum', '.prev']) rmSync(dbPath + suffix, { force: true });
      }
  return times;
}

/**
 * Resolves once the event loop has turned 20 times in a row with nothing to do (< 2 ms a turn):
 * background slices run one per turn, so their work is then done. Works for any build's bundle.
 */
async function idle(): Promise<void> {
  for (let quiet = 0; quiet < 20;) {
    const t = performance.now();
    await new Promise((resolve) => setImmediate(resolve));
    quiet = performance.now() - t < 2 ? quiet + 1 : 0;
  }
}

function push(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
