import assert from 'node:assert/strict';
import { copyFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { GraphLinkRead } from '../../engine/retrieval/graphLinks';
import type { GraphLink } from '../../engine/retrieval/graphLinks';
import { MemoryGraph } from '../../engine/retrieval/memoryGraph';
import type { SqlReader } from '../../engine/store/sqlAccess';
import { syntheticMemories } from '../bench/syntheticMemories';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';
import { written } from '../support/written';

/** A query naming entities of the synthetic corpus; with the PageRank channel alone it seeds them. */
const PPR_ONLY = { query: 'Caroline and Nate moved redis to docker', k: 10, channels: ['ppr'] };

/** A database of synthetic memories (people, tools, files: every entity links several memories). */
async function storeWithEntities(count = 120): Promise<string> {
  const t = await openTestHost({ lexicalCopy: 'never' });
  written(
    await t.call('rememberMany', {
      memories: syntheticMemories(count, 5).map((content) => ({ content, layer: 'semantic' })),
    }),
  );
  await t.host.close();
  return t.dbPath;
}

/** A copy of a closed database's files (snapshot, journal, checksum) beside it. */
function copyOf(dbPath: string): string {
  const copy = `${dbPath}-copy.db`;
  const name = path.basename(dbPath);
  for (const file of readdirSync(path.dirname(dbPath)))
    if (file.startsWith(name))
      copyFileSync(path.join(path.dirname(dbPath), file), copy + file.slice(name.length));
  return copy;
}

function sliced(reader: SqlReader, seq: number, limit: number): MemoryGraph {
  const read = new GraphLinkRead();
  while (!read.done) read.step(reader, limit);
  return MemoryGraph.fromLinks(read.links(), seq);
}

/** The graph as it was read before (main, 7099a10): one join in the order of the entity index. */
function joined(reader: SqlReader, seq: number): MemoryGraph {
  const links = reader.all<GraphLink>(
    `SELECT me.memory_id AS memoryId, me.entity_id AS entityId, me.weight AS weight
     FROM memory_entities me JOIN memories m ON m.id = me.memory_id AND m.superseded_at IS NULL
     WHERE m.status = 'active' ORDER BY me.entity_id`,
  );
  return MemoryGraph.fromLinks(links, seq);
}

function assertSameGraph(actual: MemoryGraph, expected: MemoryGraph): void {
  assert.ok(expected.entityMemories.length > 0, 'the corpus links memories to entities');
  for (const field of [
    'entityIds',
    'memoryIds',
    'entityStart',
    'entityMemories',
    'entityWeights',
    'memoryStart',
    'memoryEntities',
    'memoryWeights',
  ] as const)
    assert.deepEqual(actual[field], expected[field], field);
}

function currentGraph(t: TestHost): MemoryGraph {
  return t.host.store.read((r) => MemoryGraph.load(r, t.host.store.db.lastSeq));
}

describe('entity graph built in slices', () => {
  it('reads, at once or in slices, the links the join in entity order read', async () => {
    const dbPath = await storeWithEntities();
    const t = await openTestHost({ dbPath, lexicalCopy: 'never' });
    // Links of memories that are no longer current or active are left out.
    const [first, second] = written(
      await t.call('rememberMany', {
        memories: [
          { content: 'Caroline moved redis to docker', layer: 'semantic' },
          { content: 'Nate keeps redis on docker', layer: 'semantic' },
        ],
      }),
    );
    await t.call('forget', { id: first!.memory.id });
    await t.call('edit', {
      id: second!.memory.id,
      changes: { content: 'Nate keeps redis on docker and postgres' },
    });
    const reference = t.host.store.read((r) => joined(r, 1));
    const degrees = Array.from(
      { length: reference.entityCount },
      (_, e) => reference.entityStart[e + 1]! - reference.entityStart[e]!,
    );
    assert.ok(Math.max(...degrees) > 7, 'an entity links several memories, with weights to order');
    assert.ok(!reference.memoryIndex.has(first!.memory.id));
    assertSameGraph(
      t.host.store.read((r) => MemoryGraph.load(r, 1)),
      reference,
    );
    for (const limit of [1, 7, 50])
      assertSameGraph(
        t.host.store.read((r) => sliced(r, 1, limit)),
        reference,
      );
    await t.host.close();
  });

  it('a host builds it from open: the first recall that runs PageRank does not', async () => {
    const t = await openTestHost({ dbPath: await storeWithEntities() });
    await t.host.engine.graph.ready();
    const result = await t.call('recall', PPR_ONLY);
    assert.ok(result.hits.length > 0, 'the query seeds PageRank');
    assert.equal(t.host.engine.graph.loadsOnRecall, 0);
    await t.host.close();
  });

  it('a recall before the build is done finishes it, with the graph one read builds', async () => {
    const dbPath = await storeWithEntities();
    const later = await openTestHost({ dbPath: copyOf(dbPath) });
    const t = await openTestHost({ dbPath });
    const early = await t.call('recall', PPR_ONLY);
    assert.equal(t.host.engine.graph.loadsOnRecall, 1);
    await t.host.engine.graph.ready();
    const graph = t.host.store.read((r) => t.host.engine.graph.get(r, t.host.store.db.lastSeq, Date.now()));
    assertSameGraph(graph, currentGraph(t));
    // The same ranking as a host whose graph was built before the recall.
    await later.host.engine.graph.ready();
    const ids = (r: typeof early) => r.hits.map((hit) => [hit.memory.id, hit.score]);
    assert.deepEqual(ids(await later.call('recall', PPR_ONLY)), ids(early));
    await Promise.all([t.host.close(), later.host.close()]);
  });

  it('a write during the background build is in the graph it ends with', async () => {
    const t = await openTestHost({ dbPath: await storeWithEntities() });
    const added = written(
      await t.call('rememberMany', { memories: [{ content: 'Caroline moved redis to docker on Friday' }] }),
    );
    await t.host.engine.graph.ready();
    const graph = t.host.store.read((r) => t.host.engine.graph.get(r, t.host.store.db.lastSeq, Date.now()));
    assert.equal(t.host.engine.graph.loadsOnRecall, 0);
    assert.ok(graph.memoryIndex.has(added[0]!.memory.id));
    assertSameGraph(graph, currentGraph(t));
    await t.host.close();
  });
});
