/**
 * Consolidation throughput (issue 21, section 6): a synthetic memory (consolidationCorpus.ts:
 * generated text, topics of five episodes sharing a file, four in five read twice) of 10k and
 * 100k memories consolidated by the background runner (consolidationRun.ts), while the event loop
 * is watched with perf_hooks.monitorEventLoopDelay; the host is configured as the extension's and
 * the MCP bridge's are (checkpoints, and so the plan, in a worker). Reported per size: clusters created, CPU
 * seconds of the process (all threads, workers included), wall seconds, the longest event-loop
 * block, slices, and the load average. The reference, measured in the same run at 10k: main's
 * blocking call (planConsolidation then applyConsolidation, each one synchronous block). Then, per
 * size, writes through two checkpoints and their journal compactions with the event loop watched
 * (checkpointWrites.ts); `--writes-only` measures only that.
 *
 * Usage: npm run bench:consolidate [-- --sizes 10000,100000] [--cache DIR] [--writes-only] [--json]
 * The corpora are built once into --cache (default: the OS temp dir); building 100k takes minutes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EngineDispatcher } from '../../engine/api/engineDispatcher';
import { applyConsolidation, planConsolidation } from '../../engine/lifecycle/consolidation';
import { runConsolidation } from '../../engine/lifecycle/consolidationRun';
import { writesThroughCheckpoints } from './checkpointWrites';
import type { CheckpointWrites } from './checkpointWrites';
import { benchHostOptions, consolidationCorpus, corpusNow } from './consolidationCorpus';
import { watchEventLoop } from './loopProbe';
import type { LoopBlocks } from './loopProbe';
import { round, runStamp } from './stats';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};
const sizes = (flag('--sizes') ?? '10000,100000').split(',').map(Number);
const cacheDir = flag('--cache') ?? os.tmpdir();

/** The event loop while the run went on: LoopBlocks. */
interface Background extends LoopBlocks {
  memories: number;
  created: number;
  touched: number;
  slices: number;
  plannedIn: string;
  cpuSeconds: number;
  wallSeconds: number;
  /** The runner's own longest stretch of work: the plan or one slice (ms). */
  longestWorkMs: number;
  /** The plan's part on this thread (ms). */
  planMs: number;
  /** The process's RSS once the run is over, the store still open (MB). */
  rssMb: number;
  /** The process's peak RSS so far (MB): the runs before this one included. */
  maxRssMb: number;
  load: string;
}

interface Blocking {
  memories: number;
  created: number;
  planMs: number;
  applyMs: number;
  cpuSeconds: number;
  load: string;
}

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
};

async function background(count: number, root: string): Promise<Background> {
  const dbPath = await consolidationCorpus(count, cacheDir, path.join(root, `background-${count}`));
  const host = await EngineDispatcher.open(benchHostOptions(dbPath, () => corpusNow(count)));
  try {
    const probe = watchEventLoop();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const cpu = process.cpuUsage();
    const started = performance.now();
    const run = await runConsolidation(host.store, {
      dryRun: false,
      force: true,
      plan: host.engine.planConsolidation,
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const blocks = probe.stop();
    return {
      memories: count,
      created: run.created.length,
      touched: run.touched,
      slices: run.slices,
      plannedIn: run.plannedIn,
      cpuSeconds: round(cpuSeconds(cpu), 1),
      wallSeconds: round((performance.now() - started) / 1000, 1),
      ...blocks,
      longestWorkMs: round(run.longestMs, 1),
      planMs: round(run.planMs, 1),
      rssMb: Math.round(process.memoryUsage().rss / 2 ** 20),
      maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      load: load(),
    };
  } finally {
    await host.close();
  }
}

/** Main's `consolidate`: the plan and its application, each one call on this thread. */
async function blocking(count: number, root: string): Promise<Blocking> {
  const dbPath = await consolidationCorpus(count, cacheDir, path.join(root, `blocking-${count}`));
  const host = await EngineDispatcher.open(benchHostOptions(dbPath, () => corpusNow(count)));
  try {
    const cpu = process.cpuUsage();
    let started = performance.now();
    const clusters = host.store.read((r) => planConsolidation(r, corpusNow(count)));
    const planMs = performance.now() - started;
    started = performance.now();
    const created = applyConsolidation(host.store, clusters);
    return {
      memories: count,
      created: created.length,
      planMs: Math.round(planMs),
      applyMs: Math.round(performance.now() - started),
      cpuSeconds: round(cpuSeconds(cpu), 1),
      load: load(),
    };
  } finally {
    await host.close();
  }
}

async function main(): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'engram-consolidation-bench-'));
  try {
    // Built first, so building never overlaps a measurement.
    for (const count of sizes) await consolidationCorpus(count, cacheDir, path.join(root, 'warm'));
    const writesOnly = args.includes('--writes-only');
    const reference = writesOnly ? undefined : await blocking(Math.min(...sizes), root);
    const runs: Background[] = [];
    if (!writesOnly) for (const count of sizes) runs.push(await background(count, root));
    const writes: CheckpointWrites[] = [];
    for (const count of sizes) writes.push(await writesThroughCheckpoints(count, cacheDir, root));
    const summary = {
      ...runStamp(),
      corpus: 'synthetic (consolidationCorpus.ts)',
      reference,
      runs,
      writes,
    };
    if (args.includes('--json')) {
      process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      return;
    }
    process.stdout.write(`${summary.date} ${summary.machine}, load at start ${summary.load}\n`);
    if (reference)
      process.stdout.write(
        `reference (main's blocking consolidate) at ${reference.memories}: plan ${reference.planMs} ms + apply ${reference.applyMs} ms on the thread, ${reference.created} created, CPU ${reference.cpuSeconds} s, load ${reference.load}\n`,
      );
    for (const r of runs)
      process.stdout.write(
        `background at ${r.memories}: ${r.created} created (${r.touched} superseded) in ${r.slices} slices, planned in a ${r.plannedIn}, CPU ${r.cpuSeconds} s, wall ${r.wallSeconds} s, longest event-loop block ${r.longestBlockMs} ms (runner's longest work ${r.longestWorkMs} ms, plan on this thread ${r.planMs} ms, p99 delay ${r.p99DelayMs} ms, ${r.blocksOver50} blocks over 50 ms, ${r.blocksOver50WithGc} of them with a garbage-collection pause; longest collection ${r.longestGcMs} ms, ${r.longestGcKind}), RSS ${r.rssMb} MB (peak so far ${r.maxRssMb} MB), load ${r.load}\n`,
      );
    for (const w of writes)
      process.stdout.write(
        `writes through checkpoints at ${w.memories}: ${w.calls} calls of rememberMany (${w.remembered} memories), ${w.compactions} journal compactions (the last kept ${w.journalKeptMb} of ${w.journalBeforeMb} MB), CPU ${w.cpuSeconds} s, wall ${w.wallSeconds} s, longest event-loop block ${w.longestBlockMs} ms (p99 delay ${w.p99DelayMs} ms, ${w.blocksOver50} blocks over 50 ms, ${w.blocksOver50WithGc} of them with a garbage-collection pause; longest collection ${w.longestGcMs} ms, ${w.longestGcKind}), load ${w.load}\n`,
      );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `consolidationBench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
