import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callTool, startBridge, tempWorkspace } from './bridgeProcess';
import type { ConnectedBridge } from './bridgeProcess';

const BRIDGES = 3;
const WRITES = 80;
const KILL_AFTER = 30;

interface Writer {
  index: number;
  bridge: ConnectedBridge;
  acknowledged: string[];
}

const fact = (bridge: number, n: number) => `bridge ${bridge} observation ${n}`;
const compat = (index: number, workspace: string) =>
  startBridge(workspace, { args: ['--profile', 'compat'], name: `agent-${index}` });

/** Appends observations to the one shared entity until `stopAt`; a call in flight when the bridge dies is not acknowledged. */
async function observe(writer: Writer, from: number, stopAt: number): Promise<number> {
  for (let n = from; n < stopAt; n++) {
    try {
      await callTool(writer.bridge.client, 'add_observations', {
        observations: [{ entityName: 'Log', contents: [fact(writer.index, n)] }],
      });
      writer.acknowledged.push(fact(writer.index, n));
    } catch {
      return n;
    }
  }
  return stopAt;
}

test('3 compat bridges append to one entity while the host is killed: every acknowledged observation is there once, in order', async () => {
  const workspace = tempWorkspace();
  const writers: Writer[] = [];
  for (let index = 0; index < BRIDGES; index++)
    writers.push({ index, bridge: await compat(index, workspace), acknowledged: [] });
  await callTool(writers[0]!.bridge.client, 'create_entities', {
    entities: [{ name: 'Log', entityType: 'log', observations: [] }],
  });
  // The first bridge opened the database and hosts it: killing it makes the others take over.
  const victim = writers[0]!;
  const finished = await Promise.all(
    writers.map(async (writer) => {
      if (writer !== victim) return observe(writer, 0, WRITES);
      const stoppedAt = await observe(writer, 0, KILL_AFTER);
      process.kill(writer.bridge.pid!, 'SIGKILL');
      await writer.bridge.close().catch(() => undefined);
      writer.bridge = await compat(writer.index, workspace);
      return observe(writer, stoppedAt, WRITES);
    }),
  );
  assert.deepEqual(
    finished,
    writers.map(() => WRITES),
  );
  const graph = await callTool<{ entities: Array<{ observations: string[] }> }>(
    writers[1]!.bridge.client,
    'open_nodes',
    { names: ['Log'] },
  );
  const stored = graph.entities[0]?.observations ?? [];
  assert.equal(new Set(stored).size, stored.length, 'no observation stored twice');
  for (const writer of writers) {
    const own = stored.filter((text) => text.startsWith(`bridge ${writer.index} `));
    assert.deepEqual(own, writer.acknowledged, `bridge ${writer.index}: all its observations, in its order`);
  }
  for (const writer of writers) await writer.bridge.close();
});
