/**
 * Vector index benchmark: exact vs HNSW query time by size (the crossover), worker build speed,
 * query latency and recall through the public API, filtered search, and the saved file's size.
 * Data: seeded clustered unit vectors (test/vectors/syntheticVectors.ts), queries drawn from the
 * same clusters but not in the index. A benchmark, not a test: it prints figures.
 *
 * Usage: node --import tsx test/bench/vectorBench.ts [--json] [--crossover-only] [--max N]
 *   --max N  largest index for the build/latency part (default 100000; the 100k build takes minutes)
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '../../engine/host';
import type { Logger } from '../../engine/host';
import { ExactStore } from '../../engine/vectors/exactStore';
import { HnswGraph } from '../../engine/vectors/hnswGraph';
import { loadBundledHnswlib } from '../../engine/vectors/hnswlib';
import { DEFAULT_HNSW_PARAMS } from '../../engine/vectors/hnswParams';
import { openVectorIndex } from '../../engine/vectors';
import type { VectorHit } from '../../engine/vectors/types';
import { clusteredVectors, recall } from '../vectors/syntheticVectors';
import { machine, ms, percentile, round } from './stats';

const args = process.argv.slice(2);
const json = args.includes('--json');
const crossoverOnly = args.includes('--crossover-only');
const maxArg = args.indexOf('--max');
const MAX = maxArg >= 0 ? Number(args[maxArg + 1]) : 100_000;
const QUERIES = 200;
const WARMUP = 20;
const K = 10;
const CROSSOVER_SIZES = [250, 500, 1000, 1500, 2000, 3000, 5000, 10_000, 20_000];
/** HNSW must be at least this many times faster (p50) to take over. */
const MARGIN = 2;

const out: Record<string, unknown> = {
  date: new Date().toISOString().slice(0, 10),
  machine: machine(),
  // Other work on the machine skews latency: the 1-minute load average when the run started.
  loadAverage: round(os.loadavg()[0] ?? 0, 1),
};
const say = (line: string) => {
  if (!json) process.stdout.write(`${line}\n`);
};

interface Latency {
  p50: number;
  p95: number;
}

/** Times `search` over the queries after a warm-up; returns latency and the results. */
function timeQueries(
  queries: Float32Array[],
  search: (q: Float32Array) => VectorHit[],
): Latency & { hits: VectorHit[][] } {
  for (const q of queries.slice(0, WARMUP)) search(q);
  const times: number[] = [];
  const hits = queries.map((q) => {
    const start = process.hrtime.bigint();
    const result = search(q);
    times.push(ms(start));
    return result;
  });
  times.sort((a, b) => a - b);
  return { p50: round(percentile(times, 50), 3), p95: round(percentile(times, 95), 3), hits };
}

async function timeAsyncQueries(
  queries: Float32Array[],
  search: (q: Float32Array) => Promise<VectorHit[]>,
): Promise<Latency & { hits: VectorHit[][] }> {
  for (const q of queries.slice(0, WARMUP)) await search(q);
  const times: number[] = [];
  const hits: VectorHit[][] = [];
  for (const q of queries) {
    const start = process.hrtime.bigint();
    hits.push(await search(q));
    times.push(ms(start));
  }
  times.sort((a, b) => a - b);
  return { p50: round(percentile(times, 50), 3), p95: round(percentile(times, 95), 3), hits };
}

function meanRecall(found: VectorHit[][], truth: VectorHit[][]): number {
  return round(found.reduce((sum, hits, i) => sum + recall(hits, truth[i]!), 0) / found.length, 3);
}

/**
 * Grows one exact store and one HNSW graph (on this thread, same code as the index) through
 * CROSSOVER_SIZES and times top-10 queries at each size.
 */
async function crossover(dimension: number) {
  const lib = await loadBundledHnswlib(silentLogger);
  const data = clusteredVectors({ seed: dimension, dimension, clusters: 256 });
  const queries = Array.from({ length: QUERIES }, () => data.next());
  const exact = new ExactStore(dimension);
  const graph = HnswGraph.create(lib, silentLogger, dimension, DEFAULT_HNSW_PARAMS, {
    mirror: false,
    headroom: CROSSOVER_SIZES.at(-1),
  });
  const rows = [];
  let size = 0;
  for (const target of CROSSOVER_SIZES) {
    const items = data.items(target - size, size);
    for (const { label, vector } of items) exact.upsert(label, vector);
    graph.upsert(items);
    size = target;
    const e = timeQueries(queries, (q) => exact.search(q, K));
    const h = timeQueries(queries, (q) => graph.search(q, K));
    rows.push({
      n: size,
      exactP50: e.p50,
      exactP95: e.p95,
      hnswP50: h.p50,
      hnswP95: h.p95,
      speedup: round(e.p50 / h.p50, 2),
      recall10: meanRecall(h.hits, e.hits),
    });
  }
  graph.dispose();
  return rows;
}

/**
 * The longest the event loop went without running a 1 ms timer while `work` ran: how long a
 * search arriving meanwhile could have waited.
 */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  try {
    const result = await work();
    longest = Math.max(longest, performance.now() - last);
    return { result, stallMs: round(longest, 0) };
  } finally {
    clearInterval(timer);
  }
}

/** A logger that keeps the swap timings the index logs at info level. */
function recordingLogger(): Logger & { swaps: Array<Record<string, unknown>> } {
  const swaps: Array<Record<string, unknown>> = [];
  return {
    ...silentLogger,
    swaps,
    info: (message, data) => {
      if (message.includes('swapped in') && data) swaps.push(data);
    },
    error: (message, data) => process.stderr.write(`${message} ${JSON.stringify(data)}\n`),
  };
}

/** Builds through the public API (worker), then times queries, filters, save and reload. */
async function endToEnd(size: number, dimension: number, dir: string) {
  const data = clusteredVectors({ seed: size + dimension, dimension, clusters: 256 });
  const items = data.items(size);
  const queries = Array.from({ length: QUERIES }, () => data.next());
  const logger = recordingLogger();
  const exactIndex = await openVectorIndex({
    dimension,
    modelId: 'bench',
    logger,
    crossover: Number.MAX_SAFE_INTEGER,
  });
  await exactIndex.add(items);
  const hnswIndex = await openVectorIndex({ dimension, modelId: 'bench', logger, crossover: 1 });

  const buildStart = process.hrtime.bigint();
  const adding = await longestStall(() => hnswIndex.add(items));
  const addMs = ms(buildStart);
  const building = await longestStall(() => hnswIndex.whenBuilt());
  const buildMs = ms(buildStart);
  const swap = logger.swaps.at(-1) ?? {};

  // A small batch goes straight into the graph on this thread: what each such vector costs.
  const small = data.items(100, size);
  const smallStart = process.hrtime.bigint();
  await hnswIndex.add(small);
  const smallAddMs = ms(smallStart) / small.length;
  await hnswIndex.remove(small.map((item) => item.label));

  const e = await timeAsyncQueries(queries, (q) => exactIndex.search(q, K));
  const h = await timeAsyncQueries(queries, (q) => hnswIndex.search(q, K));
  const filters = {
    half: (label: number) => label % 2 === 0,
    tenth: (label: number) => label % 10 === 0,
    hundredth: (label: number) => label % 100 === 0,
  };
  const exactFiltered: Record<string, Awaited<ReturnType<typeof timeAsyncQueries>>> = {};
  const filtered: Record<string, Record<string, number>> = {};
  for (const [name, filter] of Object.entries(filters)) {
    exactFiltered[name] = await timeAsyncQueries(queries, (q) => exactIndex.search(q, K, filter));
    const native = await timeAsyncQueries(queries, (q) => hnswIndex.search(q, K, filter));
    filtered[name] = {
      exactP50: exactFiltered[name].p50,
      nativeFilterP50: native.p50,
      nativeFilterRecall10: meanRecall(native.hits, exactFiltered[name].hits),
    };
  }

  const file = path.join(dir, `index-${size}.bin`);
  const saveStart = process.hrtime.bigint();
  const saving = await longestStall(() => hnswIndex.save(file));
  const saveMs = ms(saveStart);
  await hnswIndex.close();
  const openStart = process.hrtime.bigint();
  const opening = await longestStall(() =>
    openVectorIndex({ dimension, modelId: 'bench', logger, file, expectedCount: size, crossover: 1 }),
  );
  const reopened = opening.result;
  const openMs = ms(openStart);
  const again = await timeAsyncQueries(queries.slice(0, 50), (q) => reopened.search(q, K));
  const sameAfterReload = again.hits.every((hits, i) => JSON.stringify(hits) === JSON.stringify(h.hits[i]));
  await reopened.close();
  // With the default crossover, filtered searches follow the index's exact-or-graph rule.
  const withDefaults = await openVectorIndex({ dimension, modelId: 'bench', logger, file });
  for (const [name, filter] of Object.entries(filters)) {
    const chosen = await timeAsyncQueries(queries, (q) => withDefaults.search(q, K, filter));
    filtered[name] = {
      ...filtered[name],
      indexP50: chosen.p50,
      indexP95: chosen.p95,
      indexRecall10: meanRecall(chosen.hits, exactFiltered[name]!.hits),
    };
  }
  await withDefaults.close();
  await exactIndex.close();

  return {
    n: size,
    dimension,
    addCallMs: round(addMs, 1),
    buildSeconds: round(buildMs / 1000, 1),
    vectorsPerSecond: round(size / (buildMs / 1000), 0),
    workerMs: swap['workerMillis'],
    loadGraphMs: swap['loadMillis'],
    smallAddMsPerVector: round(smallAddMs, 2),
    exact: { p50: e.p50, p95: e.p95 },
    hnsw: { p50: h.p50, p95: h.p95 },
    recall10: meanRecall(h.hits, e.hits),
    filtered,
    fileMB: round(statSync(file).size / 2 ** 20, 1),
    saveMs: round(saveMs, 0),
    openMs: round(openMs, 0),
    // Longest event-loop stall (ms) during each step: what a concurrent search would wait.
    stallMs: {
      add: adding.stallMs,
      buildAndSwap: building.stallMs,
      save: saving.stallMs,
      open: opening.stallMs,
    },
    sameAfterReload,
  };
}

function pickCrossover(tables: Record<string, Array<{ n: number; speedup: number }>>): number | null {
  const sizes = CROSSOVER_SIZES.filter((n) =>
    Object.values(tables).every((rows) => rows.filter((r) => r.n >= n).every((r) => r.speedup >= MARGIN)),
  );
  return sizes[0] ?? null;
}

async function main(): Promise<void> {
  say(`${String(out['date'])}, ${String(out['machine'])}, load average ${String(out['loadAverage'])}`);
  const tables: Record<string, Awaited<ReturnType<typeof crossover>>> = {};
  for (const dimension of [384, 512]) {
    tables[`${dimension}d`] = await crossover(dimension);
    say(`\ncrossover, ${dimension}-d, top-${K}, ${QUERIES} queries (ms)`);
    say('n        exact p50  exact p95  hnsw p50  hnsw p95  speedup  recall@10');
    for (const r of tables[`${dimension}d`]!) {
      say(
        `${String(r.n).padEnd(8)} ${String(r.exactP50).padStart(9)} ${String(r.exactP95).padStart(10)} ` +
          `${String(r.hnswP50).padStart(9)} ${String(r.hnswP95).padStart(9)} ${String(r.speedup).padStart(8)} ` +
          `${String(r.recall10).padStart(10)}`,
      );
    }
  }
  out['crossover'] = tables;
  out['suggestedCrossover'] = pickCrossover(tables);
  say(
    `\nsmallest n from which HNSW p50 is >= ${MARGIN}x faster at both dimensions: ${String(out['suggestedCrossover'])}`,
  );

  if (!crossoverOnly) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'engram-bench-vectors-'));
    const runs = [];
    for (const size of [1000, 10_000, 100_000].filter((n) => n <= MAX)) {
      const run = await endToEnd(size, 512, dir);
      runs.push(run);
      say(`\n${size} x 512-d through openVectorIndex (worker build, crossover 1 vs exact)`);
      say(JSON.stringify(run, null, 1).replace(/\n\s*/g, ' '));
    }
    out['endToEnd'] = runs;
    rmSync(dir, { recursive: true, force: true });
  }
  if (json) process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

void main();
