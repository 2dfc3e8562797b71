import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { FAKE_SECRETS } from '../support/fakeSecrets';
import { callTool, tempWorkspace } from './bridgeProcess';
import { connectBridge } from './inProcessBridge';
import type { InProcessBridge } from './inProcessBridge';

/**
 * The compat profile's knowledge graph (the official memory server's tools): the defects the
 * parity suite (compatParity.process.test.ts) found, named one by one, and what only Engram adds
 * (redaction of secrets, Engram's own entity graph kept out).
 */
interface Graph {
  entities: Array<{ name: string; entityType: string; observations: string[] }>;
  relations: Array<{ from: string; to: string; relationType: string }>;
}

let bridge: InProcessBridge;
before(async () => {
  bridge = await connectBridge(tempWorkspace(), { args: ['--profile', 'full'], name: 'cline' });
});
after(() => bridge.close());

const call = <T = Record<string, unknown>>(name: string, args: Record<string, unknown> = {}) =>
  callTool<T>(bridge.client, name, args);

beforeEach(async () => {
  const graph = await call<Graph>('read_graph');
  await call('delete_relations', { relations: graph.relations });
  await call('delete_entities', { entityNames: graph.entities.map((e) => e.name) });
});

test('deleting a shared observation from one entity, or the entity, keeps the other copy', async () => {
  await call('create_entities', {
    entities: [
      { name: 'Alice', entityType: 'person', observations: ['works at Acme Corp'] },
      { name: 'Bob', entityType: 'person', observations: ['works at Acme Corp'] },
      { name: 'Carol', entityType: 'person', observations: ['works at Acme Corp'] },
    ],
  });
  await call('delete_observations', {
    deletions: [{ entityName: 'Alice', observations: ['works at Acme Corp'] }],
  });
  await call('delete_entities', { entityNames: ['Carol'] });
  const graph = await call<Graph>('read_graph');
  assert.deepEqual(graph.entities, [
    { name: 'Alice', entityType: 'person', observations: [] },
    { name: 'Bob', entityType: 'person', observations: ['works at Acme Corp'] },
  ]);
});

test('entities are created with their observations after a relation or a text named them', async () => {
  await call('create_entities', {
    entities: [
      { name: 'Note', entityType: 'note', observations: ['we moved backups from S3 to Amazon S3 Glacier'] },
    ],
  });
  await call('create_relations', { relations: [{ from: 'Carol', to: 'S3', relationType: 'owns' }] });
  const created = await call<Graph>('create_entities', {
    entities: [
      { name: 'S3', entityType: 'service', observations: ['object storage'] },
      { name: 'Carol', entityType: 'person', observations: ['leads storage'] },
    ],
  });
  assert.equal(created.entities.length, 2);
  const opened = await call<Graph>('open_nodes', { names: ['S3'] });
  assert.deepEqual(opened.entities, [
    { name: 'S3', entityType: 'service', observations: ['object storage'] },
  ]);
  assert.deepEqual(opened.relations, [{ from: 'Carol', to: 'S3', relationType: 'owns' }]);
  const all = await call<Graph>('read_graph');
  assert.deepEqual(
    all.entities.map((e) => e.name),
    ['Note', 'S3', 'Carol'],
    'no entity invented from the note text',
  );
});

test('add_observations to an unknown entity is an isError result naming it, and writes nothing', async () => {
  await call('create_entities', { entities: [{ name: 'Alice', entityType: 'person', observations: [] }] });
  const result = (await bridge.client.callTool({
    name: 'add_observations',
    arguments: {
      observations: [
        { entityName: 'Alice', contents: ['written first?'] },
        { entityName: 'Nobody', contents: ['x'] },
      ],
    },
  })) as CallToolResult;
  assert.deepEqual(result, {
    content: [{ type: 'text', text: 'Entity with name Nobody not found' }],
    isError: true,
  });
  const alice = await call<Graph>('open_nodes', { names: ['Alice'] });
  assert.deepEqual(alice.entities[0]?.observations, []);
});

test('bad arguments are an isError result, not a JSON-RPC error', async () => {
  const result = (await bridge.client.callTool({
    name: 'create_entities',
    arguments: { entities: [{ entityType: 'person', observations: [] }] },
  })) as CallToolResult;
  assert.equal(result.isError, true);
  assert.match(
    JSON.stringify(result.content),
    /Invalid arguments for tool create_entities: .* at entities\[0\]\.name/,
  );
});

test('read_graph returns a graph of 1,200 entities whole, in creation order', async () => {
  const entities = Array.from({ length: 1200 }, (_, i) => ({
    name: `module-${i}`,
    entityType: 'module',
    observations: [`module-${i} handles part ${i} of the request pipeline`],
  }));
  await call('create_entities', { entities });
  const graph = await call<Graph>('read_graph');
  assert.deepEqual(graph, { entities, relations: [] });
});

test('secrets are redacted on write, and the client deletes an observation by the text it wrote', async () => {
  const secret = FAKE_SECRETS[0]!;
  const text = `deploys with ${secret.text}`;
  await call('create_entities', {
    entities: [{ name: 'Deployer', entityType: 'bot', observations: [text, 'kept'] }],
  });
  const stored = await call<Graph>('open_nodes', { names: ['Deployer'] });
  assert.ok(!JSON.stringify(stored).includes(secret.needle), 'the secret is not shown');
  assert.equal(stored.entities[0]?.observations.length, 2);
  const again = await call<{ results: Array<{ addedObservations: string[] }> }>('add_observations', {
    observations: [{ entityName: 'Deployer', contents: [text] }],
  });
  assert.deepEqual(again.results[0]?.addedObservations, [], 'the same text is recognised as already there');
  await call('delete_observations', { deletions: [{ entityName: 'Deployer', observations: [text] }] });
  const after = await call<Graph>('open_nodes', { names: ['Deployer'] });
  assert.deepEqual(after.entities[0]?.observations, ['kept']);
});

test("Engram's own memories and entities stay out of the compat graph", async () => {
  await call('memory_remember', { content: 'The billing service talks to Stripe through PaymentGateway' });
  const graph = await call<Graph>('read_graph');
  assert.deepEqual(graph, { entities: [], relations: [] });
});
