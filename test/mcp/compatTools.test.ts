import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { callTool, startBridge, tempWorkspace } from './bridgeProcess';
import type { ConnectedBridge } from './bridgeProcess';

interface Graph {
  entities: Array<{ name: string; entityType: string; observations: string[] }>;
  relations: Array<{ from: string; to: string; relationType: string }>;
  nextCursor?: string | null;
}

let bridge: ConnectedBridge;
before(async () => {
  bridge = await startBridge(tempWorkspace(), { args: ['--profile', 'compat'], name: 'cline' });
});
after(() => bridge.close());

const call = <T = Record<string, unknown>>(name: string, args: Record<string, unknown> = {}) =>
  callTool<T>(bridge.client, name, args);

test('the nine official memory tools work unchanged over Engram', async () => {
  const created = await call<{ entities: Graph['entities'] }>('create_entities', {
    entities: [
      { name: 'Alice', entityType: 'person', observations: ['Alice maintains the billing service'] },
      { name: 'billing-service', entityType: 'service', observations: ['billing-service is written in Go'] },
    ],
  });
  assert.equal(created.entities.length, 2);
  const again = await call<{ entities: Graph['entities'] }>('create_entities', {
    entities: [{ name: 'Alice', entityType: 'person', observations: [] }],
  });
  assert.deepEqual(again.entities, [], 'existing entities are not created twice');

  const relations = await call<{ relations: Graph['relations'] }>('create_relations', {
    relations: [{ from: 'Alice', to: 'billing-service', relationType: 'maintains' }],
  });
  assert.equal(relations.relations.length, 1);

  const added = await call<{ results: Array<{ addedObservations: string[] }> }>('add_observations', {
    observations: [
      {
        entityName: 'Alice',
        contents: ['Alice prefers small pull requests', 'Alice maintains the billing service'],
      },
    ],
  });
  assert.deepEqual(added.results[0]?.addedObservations, ['Alice prefers small pull requests']);

  const opened = await call<Graph>('open_nodes', { names: ['Alice', 'billing-service'] });
  assert.deepEqual(opened.entities.find((e) => e.name === 'Alice')?.observations.sort(), [
    'Alice maintains the billing service',
    'Alice prefers small pull requests',
  ]);
  assert.deepEqual(opened.relations, [{ from: 'Alice', to: 'billing-service', relationType: 'maintains' }]);

  const found = await call<Graph>('search_nodes', { query: 'written in go' });
  // Engram also extracted "Go" from the observation, so that entity matches too.
  assert.ok(found.entities.some((e) => e.name === 'billing-service'));
  assert.ok(!found.entities.some((e) => e.name === 'Alice'));

  await call('delete_observations', {
    deletions: [{ entityName: 'Alice', observations: ['Alice prefers small pull requests'] }],
  });
  await call('delete_relations', {
    relations: [{ from: 'Alice', to: 'billing-service', relationType: 'maintains' }],
  });
  const afterDeletes = await call<Graph>('open_nodes', { names: ['Alice'] });
  assert.deepEqual(afterDeletes.entities[0]?.observations, ['Alice maintains the billing service']);
  assert.deepEqual(afterDeletes.relations, []);

  await call('delete_entities', { entityNames: ['billing-service'] });
  const graph = await call<Graph>('read_graph');
  assert.ok(graph.entities.some((e) => e.name === 'Alice'));
  assert.ok(!graph.entities.some((e) => e.name === 'billing-service'));
});

test('add_observations to an unknown entity fails naming it and writes nothing', async () => {
  const result = await bridge.client.callTool({
    name: 'add_observations',
    arguments: {
      observations: [
        { entityName: 'Alice', contents: ['written first?'] },
        { entityName: 'Nobody', contents: ['x'] },
      ],
    },
  });
  assert.equal(result.isError, true);
  assert.match(JSON.stringify(result.content), /observations\[1\]\.entityName: no entity named \\"Nobody\\"/);
  const alice = await call<Graph>('open_nodes', { names: ['Alice'] });
  assert.ok(!alice.entities[0]?.observations.includes('written first?'));
});

test('read_graph of a big graph comes in budgeted pages with a cursor', async () => {
  const entities = Array.from({ length: 120 }, (_, i) => ({
    name: `module-${i}`,
    entityType: 'module',
    observations: [`module-${i} handles part ${i} of the request pipeline with some detail to cost tokens`],
  }));
  await call('create_entities', { entities });
  const names = new Set<string>();
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await call<Graph>('read_graph', cursor ? { cursor } : {});
    for (const e of page.entities) names.add(e.name);
    cursor = page.nextCursor ?? undefined;
    pages++;
  } while (cursor);
  assert.ok(pages > 1);
  for (let i = 0; i < 120; i++) assert.ok(names.has(`module-${i}`), `module-${i}`);
});
