import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { openTestHost } from '../support/host';
import { callTool, startBridge, tempWorkspace } from './bridgeProcess';

/** Resident memory of a process (MB), from /proc: the figure the target is about. */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}

// Issue 16: the compat bridge must be no larger than the official server (~100 MB at 1k entities);
// bench:mcp measures that against the official server in the same run. This test guards what cost
// tens of MB before: with TurboFan tiering sql.js's SQLite up, this bridge held ~145 MB after these
// calls; with the CLI, drift checker, code scanner, HTTP transport and the tokenizer and vector
// libraries evaluated at start (test/boundaries/engineStartup.test.ts guards those), ~12 MB more.
// Today it holds 91-95 MB on a quiet machine and up to 100 MB beside the rest of the suite (V8's
// young generation and its collection times move with the load), so the ceiling sits above that.
const CEILING_MB = 108;

test(
  'a compat bridge stays under 108 MB of RSS after 300 entities, searches and whole-graph reads',
  { skip: process.platform !== 'linux' && 'reads /proc' },
  async () => {
    const bridge = await startBridge(tempWorkspace(), { args: ['--profile', 'compat'] });
    try {
      for (let i = 0; i < 300; i++)
        await callTool(bridge.client, 'create_entities', {
          entities: [
            {
              name: `entity-${i}`,
              entityType: 'service',
              observations: [`entity ${i} marker k${i}q was reviewed`, `entity ${i} runs on port ${i}`],
            },
          ],
        });
      for (let i = 0; i < 50; i++) await callTool(bridge.client, 'search_nodes', { query: `k${i * 5}q` });
      const graph = await callTool<{ entities: unknown[] }>(bridge.client, 'read_graph');
      assert.equal(graph.entities.length, 300);
      const rss = rssMb(bridge.pid!);
      assert.ok(rss < CEILING_MB, `compat bridge RSS ${rss.toFixed(0)} MB, ceiling ${CEILING_MB} MB`);
    } finally {
      await bridge.close();
    }
  },
);

// Issue 16, between calls: what a process monitor shows once the bridge has gone quiet after
// whole-graph reads of 1k entities (a 0.5 MB reply each; the official server holds ~100-106 MB
// after the bench's). The bridge then collects and compacts (engine/process/idleCollector.ts):
// from 111-112 MB right after the reads to 99-104 MB a second later; without collecting, nothing
// is returned, and after replies of 1 MiB only, without compacting, it stayed at 109-110 MB. The
// drop is what the collector does; the ceiling leaves room for the load's few MB either way.
const IDLE_CEILING_MB = 112;
const IDLE_DROP_MB = 3;

test(
  'a compat bridge idle for a second after whole-graph reads of 1k entities returns its garbage, under 112 MB',
  { skip: process.platform !== 'linux' && 'reads /proc', timeout: 120_000 },
  async () => {
    const bridge = await startBridge(tempWorkspace(), { args: ['--profile', 'compat'] });
    try {
      // The bench's workload at 1k (test/bench/mcpCompatBench.ts), with fewer calls after the creates.
      const observation = (i: number, n: number) =>
        `Observation ${n} of entity ${i}: the service k${i}q was reviewed in sprint ${i % 40}.`;
      for (let i = 0; i < 1000; i++)
        await callTool(bridge.client, 'create_entities', {
          entities: [
            {
              name: `entity-${i}`,
              entityType: 'service',
              observations: [observation(i, 0), observation(i, 1)],
            },
          ],
        });
      for (let i = 0; i < 100; i++)
        await callTool(bridge.client, 'add_observations', {
          observations: [{ entityName: `entity-${(i * 37) % 1000}`, contents: [observation(i, 100 + i)] }],
        });
      for (let i = 0; i < 50; i++)
        await callTool(bridge.client, 'search_nodes', { query: `k${(i * 19) % 1000}q` });
      for (let i = 0; i < 20; i++) {
        const graph = await callTool<{ entities: unknown[] }>(bridge.client, 'read_graph');
        assert.equal(graph.entities.length, 1000);
      }
      const afterReads = rssMb(bridge.pid!);
      await sleep(1000);
      const rss = rssMb(bridge.pid!);
      assert.ok(
        afterReads - rss >= IDLE_DROP_MB,
        `compat bridge RSS ${afterReads.toFixed(0)} MB after the reads, ${rss.toFixed(0)} MB idle: nothing returned`,
      );
      assert.ok(
        rss < IDLE_CEILING_MB,
        `compat bridge RSS ${rss.toFixed(0)} MB idle, ceiling ${IDLE_CEILING_MB} MB`,
      );
    } finally {
      await bridge.close();
    }
  },
);

/** A database past the size at which a snapshot goes to the checkpoint worker (4 MiB): ~5 MB. */
async function largeGraph(dbPath: string, entities: number): Promise<void> {
  const graphHost = await openTestHost({ dbPath });
  try {
    for (let from = 0; from < entities; from += 500)
      await graphHost.call('graphCreateEntities', {
        entities: Array.from({ length: 500 }, (_, k) => ({
          name: `entity-${from + k}`,
          entityType: 'service',
          observations: [0, 1].map(
            (n) =>
              `Observation ${n} of entity ${from + k}: the service k${from + k}q was reviewed in sprint ${k % 40}.`,
          ),
        })),
      });
  } finally {
    await graphHost.host.close();
  }
}

/** The most threads a process had while `during` ran, sampled from /proc every few ms. */
async function mostThreads(pid: number, during: () => Promise<void>): Promise<number> {
  let most = 0;
  const sample = () => (most = Math.max(most, readdirSync(`/proc/${pid}/task`).length));
  const timer = setInterval(sample, 2);
  try {
    sample();
    await during();
  } finally {
    clearInterval(timer);
  }
  return most;
}

// Issue 16 at 10k entities. A snapshot of a database over 4 MiB went to a checkpoint worker
// thread, whose buffers stayed resident in its malloc arena after it ended (30-35 MB in
// bench:mcp at 10k), so a compat bridge snapshots databases below 16 MiB on its own thread
// (compatFootprint.ts): no thread starts for it. With the worker and a 32 MiB page cache this bridge held 117-125 MB after
// these calls, without the worker and with a 2 MiB cache 113-120 MB; the ceiling keeps it there.
const LARGE_CEILING_MB = 120;

test(
  'a compat bridge over a 5 MB graph snapshots without starting a thread, and settles under 120 MB',
  { skip: process.platform !== 'linux' && 'reads /proc', timeout: 180_000 },
  async () => {
    const workspace = tempWorkspace();
    const dbPath = path.join(workspace, 'memory.db');
    await largeGraph(dbPath, 6000);
    assert.ok(statSync(dbPath).size > 4 * 1024 * 1024, `database of ${statSync(dbPath).size} bytes`);
    const bridge = await startBridge(workspace, { args: ['--profile', 'compat', '--db', dbPath] });
    const pid = bridge.pid!;
    try {
      // Writes, then a snapshot after 5 s without writes; the first one also starts libuv's thread pool.
      const writeAndSnapshot = async (round: number) => {
        const snapshotAt = statSync(dbPath).mtimeMs;
        for (let i = 0; i < 20; i++)
          await callTool(bridge.client, 'add_observations', {
            observations: [{ entityName: `entity-${i * 250}`, contents: [`added ${round}.${i}`] }],
          });
        for (let waited = 0; statSync(dbPath).mtimeMs === snapshotAt; waited += 50) {
          assert.ok(waited < 60_000, 'no snapshot within 60 s of the last write');
          await sleep(50);
        }
      };
      await writeAndSnapshot(0);
      await sleep(500);
      const threads = readdirSync(`/proc/${pid}/task`).length;
      const most = await mostThreads(pid, async () => {
        await writeAndSnapshot(1);
        await writeAndSnapshot(2);
      });
      assert.equal(most, threads, `${most - threads} thread(s) started for a snapshot`);
      for (let i = 0; i < 3; i++) {
        const graph = await callTool<{ entities: unknown[] }>(bridge.client, 'read_graph');
        assert.equal(graph.entities.length, 6000);
      }
      // Read once the idle collection after the large replies has run (idleCollector.ts): right
      // after them RSS is wherever V8's collector stands (100-120 MB quiet, 137 in a loaded suite
      // run). Settled: 95-109 MB with read_graph's kept entities (graphCache.ts), quiet and
      // under two CPU burners; the thread arena this guards against added 30-35 MB.
      await sleep(1_500);
      const rss = rssMb(pid);
      assert.ok(
        rss < LARGE_CEILING_MB,
        `compat bridge RSS ${rss.toFixed(0)} MB, ceiling ${LARGE_CEILING_MB} MB`,
      );
    } finally {
      await bridge.close();
    }
  },
);
