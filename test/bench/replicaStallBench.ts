/**
 * What the replica of the team scope costs the thread of the host that keeps it (the VS Code
 * extension host): the longest event-loop stall (the longest gap between two turns of a 1 ms
 * timer, which monitorEventLoopDelay's histogram reports too but misses a stretch at the end of
 * the window) and the CPU time of that thread alone during a first copy and during
 * offline reads, on the host's thread (teamReplica.ts's syncReplica, opening the store per call)
 * against the worker thread that owns it (ReplicaThread, the built dist/replicaWorker.js).
 * `node --import tsx test/bench/replicaStallBench.ts [memories] [--rounds N] [--base FILE]` after a
 * build; `--base FILE`: a module exporting main's `syncReplica(target, directory, open, now)`,
 * measured on the host's thread as main ran it.
 */
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { silentLogger } from '../../engine/host';
import { workerScriptsIn } from '../../engine/process/workerScripts';
import { HeldReplica } from '../../engine/teamClient/heldReplica';
import { ReplicaThread } from '../../engine/teamClient/replicaThread';
import { replicaDatabase, replicaDirectory, syncReplica } from '../../engine/teamClient/teamReplica';
import { SQL_WASM_PATH, tempDir } from '../support/temp';
import { loadedServer, openReplica, takeOption } from './replicaBenchStore';
import type { Sync } from './replicaBenchStore';
import { machine, median, round } from './stats';

const args = process.argv.slice(2);
const option = (name: string) => takeOption(args, name);
const ROUNDS = Number(option('--rounds') ?? 3);
const BASE = option('--base');
const MEMORIES = Number(args[0] ?? 10_000);
const READS = 20;
const DIST = path.join(__dirname, '..', '..', 'dist');

interface ThreadCost {
  wallMs: number;
  /** The longest the host's event loop waited past its turn. */
  maxStallMs: number;
  /** CPU time of the host's thread alone (its /proc task, in 10 ms ticks), not the worker's. */
  cpuMs: number;
}

async function onThread(run: () => Promise<unknown>): Promise<ThreadCost> {
  // The gaps between turns of a 1 ms timer: a stretch of work on the thread shows as a late turn.
  let last = performance.now();
  let maxGap = 0;
  let ticking = true;
  const tick = () => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
    if (ticking) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  const cpu = mainThreadCpuMs();
  const start = performance.now();
  const outcome = (await run()) as { kind?: string; reason?: string } | undefined;
  const wallMs = performance.now() - start;
  const cpuMs = mainThreadCpuMs() - cpu;
  // One more turn, so a stretch that ran up to the end is counted.
  await new Promise((resolve) => setTimeout(resolve, 2));
  ticking = false;
  if (outcome?.kind === 'failed') throw new Error(`sync failed: ${outcome.reason}`);
  return { wallMs, maxStallMs: maxGap, cpuMs };
}

/**
 * User + system CPU of this process's main thread (its task id is the pid): process.cpuUsage
 * counts every thread, the worker's included (Node 20 has no threadCpuUsage).
 */
function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function row(name: string, costs: ThreadCost[]): string {
  const of = (pick: (c: ThreadCost) => number) => round(median(costs.map(pick)), 1);
  const worst = round(Math.max(...costs.map((c) => c.maxStallMs)), 1);
  return `${name.padEnd(58)} longest stall ${of((c) => c.maxStallMs)} ms (worst ${worst}), host thread CPU ${of((c) => c.cpuMs)} ms, wall ${of((c) => c.wallMs)} ms (medians of ${costs.length})`;
}

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  const dir = tempDir('engram-replica-stall-', { afterTest: false });
  console.log(`${machine()}; load average ${load()} before`);
  const { server, target } = await loadedServer(dir, MEMORIES, 'replica-stall');
  const thread = (directory: string) =>
    new ReplicaThread({
      directory,
      sqlWasmPath: SQL_WASM_PATH,
      clientName: 'replica-stall-bench',
      script: workerScriptsIn(DIST).replica,
      logger: silentLogger,
    });
  try {
    const fresh = (name: string, r: number) => replicaDirectory(path.join(dir, `${name}-${r}`, 'memory.db'));
    const base = BASE ? ((await import(path.resolve(BASE))) as { syncReplica: Sync }).syncReplica : undefined;
    const copies: Record<string, ThreadCost[]> = { base: [], here: [], worker: [] };
    // Untimed: the first copy in a process also compiles sql.js's wasm and warms the JIT.
    await syncReplica(target, fresh('warm', 0), openReplica, Date.now());
    for (let r = 0; r < ROUNDS; r++) {
      if (base) {
        const replica = fresh('base', r);
        copies['base']!.push(await onThread(() => base(target, replica, openReplica, Date.now())));
        rmSync(path.dirname(replica), { recursive: true, force: true });
      }
      const here = fresh('here', r);
      copies['here']!.push(await onThread(() => syncReplica(target, here, openReplica, Date.now())));
      rmSync(path.dirname(here), { recursive: true, force: true });
      const inWorker = thread(fresh('worker', r));
      // The worker's start (loading the engine bundle) is part of what the first copy costs.
      copies['worker']!.push(await onThread(() => inWorker.sync(target, Date.now())));
      await inWorker.close();
      rmSync(path.dirname(inWorker.directory), { recursive: true, force: true });
    }
    // What the machine alone does to a timer's turns over a second (other jobs, the collector).
    const idle = await onThread(() => new Promise((resolve) => setTimeout(resolve, 1000)));
    console.log(row('nothing running, 1 s (the floor)', [idle]));
    if (base) console.log(row(`first copy of ${MEMORIES}, host thread (--base)`, copies['base']!));
    console.log(row(`first copy of ${MEMORIES}, host thread (syncReplica)`, copies['here']!));
    console.log(row(`first copy of ${MEMORIES}, worker thread (ReplicaThread)`, copies['worker']!));

    // Offline reads: a recall answered from the replica, the store opened per read against held.
    const replica = fresh('reads', 0);
    await syncReplica(target, replica, openReplica, Date.now());
    const recall = (i: number) => ({ query: `settings of service ${i % 97}`, limit: 10 });
    const perRead = await onThread(async () => {
      for (let i = 0; i < READS; i++) {
        const engram = await openReplica(replicaDatabase(replica));
        await engram.call('recall', recall(i));
        await engram.close();
      }
    });
    // Held stores are opened by a first recall (which builds the in-memory lexical copy), untimed.
    const heldHere = new HeldReplica(replica, openReplica);
    await heldHere.read(target, 'recall', recall(0));
    const held = await onThread(async () => {
      for (let i = 0; i < READS; i++) await heldHere.read(target, 'recall', recall(i));
    });
    await heldHere.close();
    const inWorker = thread(replica);
    await inWorker.read(target, 'recall', recall(0));
    const worker = await onThread(async () => {
      for (let i = 0; i < READS; i++) await inWorker.read(target, 'recall', recall(i));
    });
    await inWorker.close();
    console.log(row(`${READS} offline recalls, store opened per read (main)`, [perRead]));
    console.log(row(`${READS} offline recalls, store held (HeldReplica)`, [held]));
    console.log(row(`${READS} offline recalls, store held in the worker`, [worker]));
    console.log(`load average ${load()} after`);
  } finally {
    await server.stop();
  }
}

void main();
