/**
 * Load time and throughput of the default embedder (USE-lite in its worker), on real conversation
 * turns (LoCoMo, ../shared/bench, benchmarking use; generated sentences without that file) and on
 * short generated sentences.
 * Run after a build: `node scripts/build.mjs && node --import tsx test/bench/embeddingBench.ts`.
 * Prints the report and writes it to bench-out/embedding.json. Wall-clock figures depend on what
 * else the machine runs: the report records the load average, and CPU time per sentence too.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { silentLogger } from '../../engine/host';
import { useLiteAssetsInDirectory } from '../../engine/embedding/useLiteAssets';
import { UseLiteEmbeddingProvider } from '../../engine/embedding/useLiteEmbeddingProvider';
import type { EmbeddingWorkerScript } from '../../engine/embedding/types';
import { machine, median, round } from './stats';

const root = path.join(__dirname, '..', '..');
const ASSETS = useLiteAssetsInDirectory(path.join(root, 'dist', 'use-lite'));
const BUNDLE: EmbeddingWorkerScript = { file: path.join(root, 'dist', 'embeddingWorker.js') };
const SOURCE: EmbeddingWorkerScript = {
  file: path.join(root, 'engine', 'embedding', 'embeddingWorker.ts'),
  execArgv: ['--require', 'tsx/cjs'],
};
const LOCOMO = path.join(root, '..', 'shared', 'bench', 'locomo', 'locomo-dev5.json');
const TEXT_COUNT = 512;

/** Real conversation turns when the benchmark data is there (it is not shipped). */
function conversationTurns(): string[] | undefined {
  if (!existsSync(LOCOMO)) return undefined;
  const conversations = JSON.parse(readFileSync(LOCOMO, 'utf8')) as Array<{
    conversation: Record<string, unknown>;
  }>;
  const turns = conversations.flatMap(({ conversation }) =>
    Object.entries(conversation)
      .filter(([key, value]) => /^session_\d+$/.test(key) && Array.isArray(value))
      .flatMap(([, value]) => (value as Array<{ text?: unknown }>).map((turn) => turn.text))
      .filter((text): text is string => typeof text === 'string'),
  );
  return turns.slice(0, TEXT_COUNT);
}

/** Short sentences of 6 to 12 words, like memory titles or search queries. */
function shortSentences(): string[] {
  const words =
    'memory engine stores facts about the project and recalls them when an agent asks later'.split(' ');
  return Array.from({ length: TEXT_COUNT }, (_, i) =>
    Array.from({ length: 6 + (i % 7) }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' '),
  );
}

const meanChars = (texts: string[]) => round(texts.reduce((sum, t) => sum + t.length, 0) / texts.length, 0);

async function loadTimes(worker: EmbeddingWorkerScript, runs: number) {
  const wall: number[] = [];
  const model: number[] = [];
  for (let run = 0; run < runs; run++) {
    const provider = new UseLiteEmbeddingProvider({ assets: ASSETS, logger: silentLogger, worker });
    const started = performance.now();
    await provider.init();
    wall.push(performance.now() - started);
    model.push(provider.loadMillis);
    await provider.dispose();
  }
  return { initMsMedian: round(median(wall), 0), modelLoadMsMedian: round(median(model), 0), runs };
}

async function throughput(texts: string[], batchSize: number) {
  const provider = new UseLiteEmbeddingProvider({
    assets: ASSETS,
    logger: silentLogger,
    worker: BUNDLE,
    batchSize,
  });
  await provider.embed(texts.slice(0, batchSize)); // warm-up: first batch compiles kernels
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await provider.embed(texts);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  delay.disable();
  await provider.dispose();
  return {
    batchSize,
    sentencesPerSecond: round(texts.length / seconds, 1),
    msPerSentence: round((seconds * 1000) / texts.length, 2),
    // CPU time of this process (the worker's, in effect): steadier than wall time on a shared machine.
    cpuMsPerSentence: round((cpu.user + cpu.system) / 1000 / texts.length, 2),
    callerEventLoopDelayP99Ms: round(delay.percentile(99) / 1e6, 1),
  };
}

/** 64 callers of 8 texts at once: what the queue makes of them. */
async function concurrent(texts: string[]) {
  const provider = new UseLiteEmbeddingProvider({ assets: ASSETS, logger: silentLogger, worker: BUNDLE });
  await provider.embed(texts.slice(0, 32));
  const before = provider.stats();
  const started = performance.now();
  await Promise.all(Array.from({ length: 64 }, (_, i) => provider.embed(texts.slice(i * 8, i * 8 + 8))));
  const seconds = (performance.now() - started) / 1000;
  const after = provider.stats();
  await provider.dispose();
  return {
    calls: after.calls - before.calls,
    batches: after.batches - before.batches,
    sentencesPerSecond: round(512 / seconds, 1),
  };
}

async function main(): Promise<void> {
  const turns = conversationTurns();
  const short = shortSentences();
  const texts = turns ?? short;
  const report = {
    date: new Date().toISOString(),
    machine: machine(),
    loadAverageBefore: os.loadavg().map((x) => round(x, 2)),
    texts: {
      source: turns ? 'LoCoMo turns' : 'short sentences',
      count: texts.length,
      meanChars: meanChars(texts),
    },
    load: { bundle: await loadTimes(BUNDLE, 3), source: await loadTimes(SOURCE, 3) },
    throughput: [] as Array<Awaited<ReturnType<typeof throughput>>>,
    shortSentences: { meanChars: meanChars(short), ...(await throughput(short, 32)) },
    concurrent: await concurrent(texts),
    loadAverageAfter: [] as number[],
  };
  for (const batchSize of [1, 8, 16, 32, 64]) report.throughput.push(await throughput(texts, batchSize));
  report.loadAverageAfter = os.loadavg().map((x) => round(x, 2));
  mkdirSync(path.join(root, 'bench-out'), { recursive: true });
  writeFileSync(path.join(root, 'bench-out', 'embedding.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report, null, 2));
}

void main();
