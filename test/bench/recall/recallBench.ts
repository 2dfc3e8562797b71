/**
 * npm run bench:recall — retrieval quality on real data, through the real engine API, side by side
 * with a plain BM25 baseline computed in the same run; then recall latency at 1k/10k/100k.
 * Usage: node --import tsx test/bench/recall/recallBench.ts [--locomo FILE] [--longmemeval FILE]
 *        [--cosqa QUERIES CORPUS] [--split tuning|reporting] [--latency] [--json]
 *        [--locomo-conversations 0-2]
 * `--record` writes the figures and the run's provenance to docs/figures/recall.json with `--no-dense`,
 * docs/figures/recall-model.json with the default embedding model (then `npm run figures` renders
 * them into docs/benchmarks.md).
 * `--k-sweep [10,100,1000]` times recall at each k on 10k synthetic memories (`--k-sweep-memories N`),
 * beside another build with `--against OTHER/dist/engine.js` (kSweep.ts).
 * `--locomo-conversations` keeps some of the file's conversations (0-based, `0-2` or `3,4`): tune on
 * some, check on the others (a held-out split).
 * `--split tuning|reporting` keeps one half of the LongMemEval questions (questionSplit.ts; the
 * corpus stays whole): tune on the tuning half, report both.
 * `--misses CATEGORY[,CATEGORY]` (or `all`) prints on stderr, for engram-hybrid, each question of
 * those categories (bare: all) whose gold is not all in the top 5, with what ranked above it
 * (missReport.ts; rank `-` is below the 10 the bench asks for).
 * `--haystack [N]` also scores LongMemEval as its authors run it, each question over its own history:
 * its evidence and N (default 40) other sessions of the pool chosen by a fixed rule (haystack.ts);
 * both regimes are printed (`longmemeval`, the pooled corpus, and `longmemeval-haystack`).
 * LoCoMo and LongMemEval queries are also scored per half of their fixed splits (scoreGroups.ts).
 * CoSQA's scores come per half of its fixed split (cosqaSplit.ts); `--split tuning` runs only
 * the tuning half's queries there too.
 * With no dataset flags it runs the files in ../shared/bench/ and the latency runs.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { EngineDispatcher } from '../../../engine/api/engineDispatcher';
import { silentLogger } from '../../../engine/host';
import type { RememberManyResult } from '../../../engine/memory/types';
import { lexicalBuildMs, lexicalCopyReady } from '../../../engine/lexical/liveLexicalIndex';
import type { RecallResult } from '../../../engine/retrieval/recall';
import { machine, percentile, round } from '../stats';
import { writtenOrReported } from '../batchRejections';
import { syntheticMemories } from '../syntheticMemories';
import { loadCosqa, loadLocomo, loadLongMemEval, memoryInputs } from './datasets';
import { parseCosqaHalf } from './cosqaSplit';
import type { BenchCorpus, BenchQuery } from './datasets';
import { scoreGroups } from './scoreGroups';
import type { ScoredQuery, Scores } from './scoreGroups';
import { hitAt, ndcgAt, recallAllAt, recallAt, reciprocalRank } from './metrics';
import { PlainBm25 } from './plainBm25';
import { useLiteProvider } from '../../support/host';
import { startRun, writeRecord } from '../figures/benchRecord';
import { RECALL_MODEL_BENCH } from '../figures/recallFigures';
import { kSweep } from './kSweep';
import { parseHalf, questionHalf } from './questionSplit';
import { missLines } from './missReport';
import { haystacks, withinHaystack } from './haystack';
import { MAX_RECALL_K } from '../../../engine/retrieval/recall';

const sqlWasmPath = createRequire(__filename).resolve('sql.js/dist/sql-wasm.wasm');
const args = process.argv.slice(2);
const json = args.includes('--json');
/** A flag's values; [] when it is given bare (no value, or another flag follows it). */
const flag = (name: string, count = 1) => {
  const i = args.indexOf(name);
  if (i === -1) return undefined;
  const values = args.slice(i + 1, i + 1 + count);
  return values.length === count && values.every((v) => !v.startsWith('--')) ? values : [];
};
const shared = path.resolve(__dirname, '../../../../shared/bench');
const explicit = args.some((a) =>
  ['--locomo', '--longmemeval', '--cosqa', '--latency', '--k-sweep'].includes(a),
);
/** A dataset's files: the flag's values, the shared copy when the flag is bare or nothing was asked. */
const dataset = (name: string, defaults: string[], count = 1): string[] | undefined => {
  const given = flag(name, count);
  if (given === undefined) return explicit ? undefined : defaults;
  return given.length === count ? given : defaults;
};
const root = mkdtempSync(path.join(os.tmpdir(), 'engram-bench-recall-'));
let requestSeq = 0;

type System = string;
/** `--systems lexical,lexical+graph,...` adds channel subsets (an ablation) to the standard three. */
const ENGRAM_SYSTEMS: Array<[System, string[] | undefined]> = [
  ['engram-lexical', ['lexical']],
  ['engram-dense', ['dense']],
  ['engram-hybrid', undefined],
  ...(flag('--systems')?.[0]?.split(',') ?? []).map((combo): [System, string[]] => [
    `engram-${combo}`,
    combo.split('+'),
  ]),
];

/** `--no-dense`: lexical and graph only (no embedding model is loaded; the dense system is skipped). */
const withDense = !args.includes('--no-dense');
/** `--misses`: the categories whose misses are printed (see the usage above); bare, all of them. */
const missFlag = flag('--misses');
const missCategories = missFlag && (missFlag[0]?.split(',') ?? ['all']);

interface Loaded {
  host: EngineDispatcher;
  dbPath: string;
  docOf: Map<string, string[]>;
  /** Seconds spent in rememberMany, embedding included. */
  loadSeconds: number;
}

function openHost(dbPath: string, dense = withDense): Promise<EngineDispatcher> {
  return EngineDispatcher.open({
    dbPath,
    sqlWasmPath,
    logger: silentLogger,
    clock: Date.now,
    limits: { maxContentChars: 1_000_000, maxContextChars: 4_000_000 },
    snapshot: { idleMs: 3_600_000, maxJournalBytes: 1 << 30 },
    embedding: dense ? useLiteProvider() : null,
  });
}

/**
 * A copy of a loaded database for one system: recalls feed the memory bias, so systems must not
 * share a database, and embedding the corpus once per system would triple the run.
 */
async function copyOf(loaded: Loaded, system: string): Promise<Loaded> {
  const dbPath = `${loaded.dbPath}-${system}.db`;
  for (const suffix of ['', '.journal', '.vectors'])
    if (existsSync(loaded.dbPath + suffix)) copyFileSync(loaded.dbPath + suffix, dbPath + suffix);
  return { ...loaded, dbPath, host: await openHost(dbPath) };
}

async function load(corpus: BenchCorpus, layer: string, kind: string, dense = withDense): Promise<Loaded> {
  const dbPath = path.join(root, `${corpus.name}-${++requestSeq}.db`);
  const host = await openHost(dbPath, dense);
  const started = performance.now();
  const docOf = new Map<string, string[]>();
  for (let i = 0; i < corpus.docs.length; i += 500) {
    const batch = corpus.docs.slice(i, i + 500);
    const results = (await host.dispatch(
      'rememberMany',
      { memories: memoryInputs(batch, layer, kind) },
      { requestId: `load-${++requestSeq}`, client: 'bench' },
    )) as RememberManyResult[];
    writtenOrReported(results, `${corpus.name} load`).forEach((result, j) => {
      if (!result) return;
      const ids = docOf.get(result.memory.id) ?? [];
      ids.push(batch[j]!.id);
      docOf.set(result.memory.id, ids);
    });
  }
  return { host, dbPath, docOf, loadSeconds: (performance.now() - started) / 1000 };
}

async function rankWithEngram(
  loaded: Loaded,
  query: BenchQuery,
  channels: string[] | undefined,
  depth: number,
): Promise<string[]> {
  const result = (await loaded.host.dispatch(
    'recall',
    { query: query.text, k: depth, channels },
    { requestId: `q-${++requestSeq}`, client: 'bench' },
  )) as RecallResult;
  const ranked: string[] = [];
  for (const hit of result.hits)
    for (const id of loaded.docOf.get(hit.memory.id) ?? []) if (!ranked.includes(id)) ranked.push(id);
  return ranked;
}

/** Corpus load times (rememberMany with embedding in the write path): the embedding throughput figure. */
const loadTimes: Array<{ corpus: string; docs: number; seconds: number }> = [];

/**
 * One way of scoring the same queries: over the whole corpus, or with `restrict`, per query over
 * the documents it may rank (haystack.ts), the ranking over the corpus cut to them.
 */
interface Regime {
  name: string;
  restrict?: Map<string, Set<string>>;
}

const POOLED: Regime[] = [{ name: 'pooled' }];

/**
 * Runs every system over the corpora in each regime and averages `metrics` per group
 * (scoreGroups.ts). The corpus is loaded (and embedded) once; each regime and system answers from
 * its own copy of it, so no regime's recalls (which feed the memory bias) touch another's.
 */
async function evaluate(
  corpora: BenchCorpus[],
  layer: string,
  kind: string,
  metrics: Record<string, (ranked: string[], gold: string[]) => number>,
  regimes: Regime[] = POOLED,
): Promise<Record<string, Record<System, Scores>>> {
  const systems = ['bm25-plain', ...ENGRAM_SYSTEMS.map(([name]) => name)];
  const perQuery = new Map(
    regimes.map((r) => [r.name, new Map(systems.map((s) => [s, [] as ScoredQuery[]]))]),
  );
  for (const corpus of corpora) {
    const baseline = new PlainBm25(corpus.docs.map((d) => ({ id: d.id, text: d.text })));
    const base = await load(corpus, layer, kind);
    loadTimes.push({ corpus: corpus.name, docs: corpus.docs.length, seconds: round(base.loadSeconds, 1) });
    await base.host.close();
    const textOf = new Map(corpus.docs.map((d) => [d.id, d.text]));
    for (const { name, restrict } of regimes) {
      // Cut to a haystack, a ranking must reach past the pool's top 10 to fill the haystack's.
      const depth = restrict ? MAX_RECALL_K : 10;
      const cut = (query: BenchQuery, ranked: string[]) => {
        const haystack = restrict?.get(query.id);
        return haystack ? withinHaystack(ranked, haystack) : ranked;
      };
      const score = (system: System, query: BenchQuery, ranked: string[]) =>
        perQuery
          .get(name)!
          .get(system)!
          .push({
            category: query.category,
            half: query.half,
            values: Object.fromEntries(Object.entries(metrics).map(([m, fn]) => [m, fn(ranked, query.gold)])),
          });
      for (const query of corpus.queries)
        score(
          'bm25-plain',
          query,
          cut(query, baseline.search(query.text, restrict ? corpus.docs.length : 10)),
        );
      for (const [system, channels] of ENGRAM_SYSTEMS) {
        if (system === 'engram-dense' && !withDense) continue;
        const loaded = await copyOf(base, `${name}-${system}`);
        for (const query of corpus.queries) {
          const ranked = cut(query, await rankWithEngram(loaded, query, channels, depth));
          score(system, query, ranked);
          if (system === 'engram-hybrid' && missCategories?.some((c) => c === 'all' || c === query.category))
            for (const line of missLines(query, ranked, (id) => textOf.get(id), 5))
              process.stderr.write(`${line}\n`);
        }
        await loaded.host.close();
      }
    }
  }
  return Object.fromEntries(
    [...perQuery].map(([regime, bySystem]) => [
      regime,
      Object.fromEntries(
        [...bySystem].filter(([, rows]) => rows.length > 0).map(([s, rows]) => [s, scoreGroups(rows)]),
      ),
    ]),
  );
}

/**
 * Recall latency by store size: all channels with the dense one (its time includes embedding the
 * query in the worker: the queries are distinct, so the query cache never helps) and without it,
 * alternating on the same database. Embedding a corpus costs ~10 ms a text on 2 cores, so sizes
 * above `--dense-max` (default 10000) are measured without the dense channel.
 */
async function latency(sizes: number[]): Promise<Record<string, Record<string, number>>> {
  const out: Record<string, Record<string, number>> = {};
  const denseMax = Number(flag('--dense-max')?.[0] ?? 10_000);
  const texts = syntheticMemories(Math.max(...sizes), 7);
  const queries = syntheticMemories(220, 99).map((t) => t.split(' ').slice(2, 9).join(' '));
  const noDense = ['lexical', 'graph', 'ppr', 'neighbours'];
  for (const size of sizes) {
    const dense = withDense && size <= denseMax;
    const corpus: BenchCorpus = {
      name: `latency-${size}`,
      docs: texts.slice(0, size).map((text, i) => ({ id: String(i), text })),
      queries: [],
    };
    const loaded = await load(corpus, 'semantic', 'fact', dense);
    await loaded.host.engine.vectors?.whenIndexed(); // a background HNSW build is not what is timed
    const times: Record<string, number[]> = { hybrid: [], noDense: [] };
    const firstMs: Record<string, number> = {};
    const cpuTimes: Record<string, number[]> = { hybrid: [], noDense: [] };
    for (const [i, query] of queries.entries()) {
      // The times below are of the in-memory copy, as a host that has been open a moment has it.
      if (i === 20) await lexicalCopyReady(loaded.host.store.db);
      for (const [name, channels] of dense
        ? ([
            ['hybrid', undefined],
            ['noDense', noDense],
          ] as const)
        : ([['noDense', noDense]] as const)) {
        const t = process.hrtime.bigint();
        const cpu = process.cpuUsage();
        await loaded.host.dispatch(
          'recall',
          { query, k: 10, channels },
          { requestId: `lat-${size}-${i}-${name}`, client: 'bench' },
        );
        const ms = Number(process.hrtime.bigint() - t) / 1e6;
        // The first recall after the load: the lexical copy is still building in the background
        // (answered in SQL), the graph's in-memory indexes are built by it.
        if (i === 0) firstMs[name] = ms;
        if (i >= 20) {
          // the first 20 warm caches
          times[name]!.push(ms);
          // CPU time of this process (the machine is shared: wall time includes waiting for a core)
          const used = process.cpuUsage(cpu);
          cpuTimes[name]!.push((used.user + used.system) / 1000);
        }
      }
    }
    const row: Record<string, number> = {
      loadPerSecond: round(size / loaded.loadSeconds, 0),
      embedded: dense ? 1 : 0,
      lexicalBuildMs: round(lexicalBuildMs(loaded.host.store.db)),
      ...Object.fromEntries(Object.entries(firstMs).map(([name, ms]) => [`${name}FirstMs`, round(ms)])),
      heapUsedMB: round(heapUsedMB()),
    };
    for (const [name, values] of Object.entries(times)) {
      if (values.length === 0) continue;
      values.sort((a, b) => a - b);
      row[`${name}P50Ms`] = round(percentile(values, 50));
      row[`${name}P95Ms`] = round(percentile(values, 95));
      const cpu = [...cpuTimes[name]!].sort((a, b) => a - b);
      row[`${name}CpuP50Ms`] = round(percentile(cpu, 50));
    }
    out[`${size}`] = row;
    await loaded.host.close();
  }
  return out;
}

/** Heap in use, after a full collection when node runs with --expose-gc. */
function heapUsedMB(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

async function main(): Promise<void> {
  const run = args.includes('--record') ? startRun('test/bench/recall/recallBench.ts', args) : undefined;
  const results: Record<string, unknown> = {
    date: new Date().toISOString().slice(0, 10),
    machine: machine(),
  };
  const locomo = dataset('--locomo', [path.join(shared, 'locomo/locomo-dev5.json')])?.[0];
  if (locomo) {
    const picked = pickConversations(loadLocomo(locomo), flag('--locomo-conversations')?.[0]);
    const scored = await evaluate(picked, 'episodic', 'interaction', {
      'recall@5': (r, g) => recallAt(r, g, 5),
      'recall@10': (r, g) => recallAt(r, g, 10),
      'hit@10': (r, g) => hitAt(r, g, 10),
    });
    results['locomo'] = scored['pooled'];
  }
  const lme = dataset('--longmemeval', [path.join(shared, 'longmemeval/longmemeval_oracle.json.gz')])?.[0];
  if (lme) {
    const corpus = loadLongMemEval(lme);
    const split = flag('--split');
    if (split !== undefined) {
      const half = parseHalf(split[0]);
      corpus.queries = corpus.queries.filter((q) => questionHalf(q.id) === half);
      results['split'] = half;
    }
    const lmeMetrics = {
      'recall_any@5': (r: string[], g: string[]) => hitAt(r, g, 5),
      'recall_all@5': (r: string[], g: string[]) => recallAllAt(r, g, 5),
      'ndcg@10': (r: string[], g: string[]) => ndcgAt(r, g, 10),
    };
    // `--haystack N` scores both regimes from one load: the pooled corpus and each question's own history.
    const haystackSize = flag('--haystack');
    const regimes: Regime[] = [{ name: 'longmemeval' }];
    if (haystackSize !== undefined) {
      const size = Number(haystackSize[0] ?? 40);
      if (!Number.isInteger(size) || size < 1)
        throw new Error(`--haystack: expected a number of sessions; got "${haystackSize[0] ?? ''}"`);
      regimes.push({ name: 'longmemeval-haystack', restrict: haystacks(corpus, size) });
      results['haystack'] = size;
    }
    Object.assign(results, await evaluate([corpus], 'episodic', 'interaction', lmeMetrics, regimes));
  }
  const cosqa = dataset(
    '--cosqa',
    [path.join(shared, 'cosqa/cosqa-retrieval-dev-500.json'), path.join(shared, 'cosqa/code_idx_map.txt')],
    2,
  );
  if (cosqa && cosqa.length === 2) {
    const split = flag('--split');
    const half = split && parseCosqaHalf(split[0] ?? '');
    const scored = await evaluate([loadCosqa(cosqa[0]!, cosqa[1]!, half)], 'codebase', 'code-symbol', {
      mrr: (r, g) => reciprocalRank(r, g),
      'recall@10': (r, g) => recallAt(r, g, 10),
    });
    results['cosqa'] = scored['pooled'];
  }
  if (args.includes('--latency') || !explicit) {
    const sizes = (flag('--sizes')?.[0] ?? '1000,10000,100000').split(',').map(Number);
    results['latency'] = await latency(sizes);
  }
  const sweep = flag('--k-sweep');
  if (sweep) {
    results['kSweep'] = await kSweep({
      memories: Number(flag('--k-sweep-memories')?.[0] ?? 10_000),
      ks: (sweep[0] ?? '10,100,1000').split(',').map(Number),
      against: flag('--against')?.[0],
    });
  }
  results['load'] = { withDense, corpora: loadTimes };
  rmSync(root, { recursive: true, force: true });
  if (run) {
    const { date: _date, machine: _machine, ...figures } = results;
    const record = withDense ? RECALL_MODEL_BENCH : 'recall';
    process.stderr.write(`recorded ${writeRecord(record, run, figures)}; now: npm run figures\n`);
  }
  if (json) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  else printTable(results);
}

/** The conversations `spec` names (`0-2`, `3,4`, `1`; 0-based); all of them without a spec. */
function pickConversations(corpora: BenchCorpus[], spec: string | undefined): BenchCorpus[] {
  if (spec === undefined) return corpora;
  const wanted = new Set<number>();
  for (const part of spec.split(',')) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!range) throw new Error(`--locomo-conversations: expected e.g. 0-2 or 3,4; got "${spec}"`);
    for (let i = Number(range[1]); i <= Number(range[2] ?? range[1]); i++) wanted.add(i);
  }
  const outside = [...wanted].filter((i) => i >= corpora.length);
  if (outside.length > 0)
    throw new Error(`--locomo-conversations: the file has ${corpora.length} conversations; got ${spec}`);
  return corpora.filter((_, i) => wanted.has(i));
}

function printTable(results: Record<string, unknown>): void {
  for (const [bench, value] of Object.entries(results)) {
    if (typeof value !== 'object' || value === null) {
      process.stdout.write(`${bench}: ${String(value)}\n`);
      continue;
    }
    process.stdout.write(`\n== ${bench}\n`);
    for (const [system, scores] of Object.entries(value as Record<string, unknown>)) {
      process.stdout.write(`${system}\n`);
      for (const [group, metrics] of Object.entries(scores as Record<string, unknown>)) {
        process.stdout.write(`  ${group.padEnd(28)} ${JSON.stringify(metrics)}\n`);
      }
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`recallBench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
