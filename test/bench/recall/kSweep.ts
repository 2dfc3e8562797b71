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
}

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

function hostOptions(dbPath: string): HostOptions {
  return {
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
      hosts.push([label, await open(hostOptions(dbPath))]);
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
      out[label] = row;
    }
    return out;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function push(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
