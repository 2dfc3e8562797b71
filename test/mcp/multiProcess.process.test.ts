import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callTool, startBridge, tempWorkspace } from './bridgeProcess';
import type { ConnectedBridge } from './bridgeProcess';

const BRIDGES = 4;
const WRITES = 250;
const KILL_AFTER = 100;

interface Writer {
  index: number;
  bridge: ConnectedBridge;
  acknowledged: Set<string>;
}

const content = (bridge: number, n: number) => `bridge ${bridge} write ${n}: a fact worth keeping`;

/** Writes until `stopAt`; a write in flight when the bridge dies is not acknowledged (and may or may not be stored). */
async function write(writer: Writer, from: number, stopAt: number): Promise<number> {
  for (let n = from; n < stopAt; n++) {
    try {
      await callTool(writer.bridge.client, 'memory_remember', { content: content(writer.index, n) });
      writer.acknowledged.add(content(writer.index, n));
    } catch {
      return n;
    }
  }
  return stopAt;
}

test('4 bridges write 250 memories each while the host is killed and restarted: every acknowledged write is there once', async () => {
  const workspace = tempWorkspace();
  const writers: Writer[] = [];
  for (let index = 0; index < BRIDGES; index++) {
    writers.push({
      index,
      bridge: await startBridge(workspace, { name: `agent-${index}` }),
      acknowledged: new Set(),
    });
  }
  // The first bridge to open the database hosts it: kill that one, so the others must take over.
  const roles = await Promise.all(
    writers.map(async (w) => {
      await callTool(w.bridge.client, 'memory_remember', { content: `bridge ${w.index} is here` });
      return (await callTool<{ bridge: { role: string } }>(w.bridge.client, 'memory_stats')).bridge.role;
    }),
  );
  const victim = writers[roles.indexOf('host')];
  assert.ok(victim, `one bridge hosts the database: ${roles.join(', ')}`);

  const runs = writers.map(async (writer) => {
    if (writer !== victim) return write(writer, 0, WRITES);
    const stoppedAt = await write(writer, 0, KILL_AFTER);
    process.kill(writer.bridge.pid!, 'SIGKILL');
    await writer.bridge.close().catch(() => undefined);
    writer.bridge = await startBridge(workspace, { name: `agent-${writer.index}` });
    return write(writer, stoppedAt, WRITES);
  });
  const finished = await Promise.all(runs);
  assert.deepEqual(
    finished,
    writers.map(() => WRITES),
  );

  const reader = writers.find((w) => w !== victim)!.bridge;
  const stored: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await callTool<{ memories: Array<{ content: string }>; nextCursor: string | null }>(
      reader.client,
      'memory_list',
      {
        limit: 500,
        budget: 50_000,
        ...(cursor ? { cursor } : {}),
      },
    );
    stored.push(...page.memories.map((m) => m.content));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  const counts = new Map<string, number>();
  for (const text of stored) counts.set(text, (counts.get(text) ?? 0) + 1);
  for (const writer of writers) {
    for (const text of writer.acknowledged) assert.equal(counts.get(text), 1, `acknowledged once: ${text}`);
  }
  assert.deepEqual(
    [...counts.values()].filter((n) => n !== 1),
    [],
    'no memory is stored twice',
  );
  assert.equal(stored.length, BRIDGES * WRITES + BRIDGES);
  for (const writer of writers) await writer.bridge.close();
});
