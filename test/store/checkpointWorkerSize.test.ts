import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { EngineDispatcher } from '../../engine/api/engineDispatcher';
import { silentLogger } from '../../engine/host';
import { SQL_WASM_PATH, tempDir } from '../support/temp';

// A host that snapshots in a worker exports databases below checkpointWorkerMinBytes on its own
// thread: the compat bridge's worker left ~30 MB in its malloc arena (engine/mcp/compatFootprint.ts),
// so it uses one only for databases whose export would block it too long.

const threads = () => readdirSync('/proc/self/task').length;

async function snapshotThreads(minBytes: number | undefined): Promise<number> {
  const dbPath = path.join(tempDir(), 'memory.db');
  const host = await EngineDispatcher.open({
    dbPath,
    sqlWasmPath: SQL_WASM_PATH,
    logger: silentLogger,
    clock: Date.now,
    snapshot: { idleMs: 200 },
    embedding: null,
    checkpointInWorker: true,
    checkpointWorkerMinBytes: minBytes,
  });
  try {
    let id = 0;
    const write = async (count: number) => {
      const entities = Array.from({ length: count }, () => ({
        name: `entity-${id}`,
        entityType: 'service',
        observations: [0, 1].map(
          (n) => `Observation ${n} of entity ${id++}: the service was reviewed in sprint 3.`,
        ),
      }));
      await host.dispatch('graphCreateEntities', { entities }, { requestId: `w-${id}`, client: 'test' });
    };
    // Past the 4 MiB at which a snapshot goes to the worker by default.
    for (let i = 0; i < 16; i++) await write(500);
    const waitForSnapshot = async () => {
      const before = statSync(dbPath).mtimeMs;
      for (let waited = 0; statSync(dbPath).mtimeMs === before; waited += 20) {
        assert.ok(waited < 60_000, 'no snapshot within 60 s');
        await sleep(20);
      }
    };
    await waitForSnapshot();
    assert.ok(statSync(dbPath).size > 4 * 1024 * 1024, `database of ${statSync(dbPath).size} bytes`);
    await sleep(300);
    const idle = threads();
    let most = idle;
    const timer = setInterval(() => (most = Math.max(most, threads())), 2);
    try {
      await write(10);
      await waitForSnapshot();
    } finally {
      clearInterval(timer);
    }
    return most - idle;
  } finally {
    await host.close();
  }
}

test(
  'a host snapshots a 5 MB database on its own thread below checkpointWorkerMinBytes, in a worker past it',
  { skip: process.platform !== 'linux' && 'reads /proc', timeout: 180_000 },
  async () => {
    assert.equal(await snapshotThreads(64 * 1024 * 1024), 0, 'a thread started below the minimum');
    assert.ok((await snapshotThreads(undefined)) >= 1, 'no worker thread at the 4 MiB default');
  },
);
