import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { EngineDispatcher } from '../../engine/api/engineDispatcher';
import type { EngineActivity } from '../../engine/api/engineActivity';
import { silentLogger } from '../../engine/host';
import { EngramError } from '../../engine/errors';
import { openTestHost, TestClock } from '../support/host';
import { SQL_WASM_PATH, tempDir } from '../support/temp';

async function seeded() {
  const t = await openTestHost();
  const a = await t.call('remember', {
    content: 'The login flow lives in src/auth/login.ts and uses the jsonwebtoken package.',
  });
  const b = await t.call('remember', {
    content: 'src/auth/login.ts calls verifySession() on every request.',
  });
  const c = await t.call('remember', { content: 'Caroline works with Melanie on the billing service.' });
  const d = await t.call('remember', { content: 'Melanie maintains Kubernetes for the team.' });
  return { t, ids: [a, b, c, d].map((r) => (r as { memory: { id: string } }).memory.id) };
}

const labels = (nodes: Array<{ label: string }>) => nodes.map((n) => n.label).sort();

describe('graph methods on a real store', () => {
  it('graphNeighbourhood from an entity: one hop reaches its memories and co-occurring entities, two hops go further', async () => {
    const { t, ids } = await seeded();
    const one = await t.call('graphNeighbourhood', { seeds: [{ entity: 'Caroline' }], hops: 1 });
    const seed = one.nodes.find((n) => one.seeds.includes(n.id));
    assert.equal(seed?.label, 'Caroline');
    assert.ok(
      one.nodes.some((n) => n.kind === 'memory' && n.memoryId === ids[2]),
      labels(one.nodes).join(' | '),
    );
    assert.ok(one.nodes.some((n) => n.label === 'Melanie'));
    assert.ok(
      !one.nodes.some((n) => n.kind === 'memory' && n.memoryId === ids[3]),
      'the Kubernetes memory is two hops away',
    );
    const two = await t.call('graphNeighbourhood', { seeds: [{ entity: 'Caroline' }], hops: 2 });
    const far = two.nodes.find((n) => n.kind === 'memory' && n.memoryId === ids[3]);
    assert.equal(far?.hops, 2);
    // Every edge joins two nodes of the payload; mentions carry the link weight.
    const present = new Set(two.nodes.map((n) => n.id));
    assert.ok(two.edges.length > 0);
    for (const e of two.edges) assert.ok(present.has(e.source) && present.has(e.target), JSON.stringify(e));
    assert.ok(two.edges.some((e) => e.kind === 'relation' && e.strength > 0 && e.strength <= 1));
    assert.ok(two.edges.some((e) => e.kind === 'mention'));
    assert.equal(two.truncated, false);
  });

  it('seeds by memory id and by file path', async () => {
    const { t, ids } = await seeded();
    const fromMemory = await t.call('graphNeighbourhood', { seeds: [{ memory: ids[1] }] });
    assert.deepEqual(fromMemory.seeds, [`m:${ids[1]}`]);
    assert.ok(
      fromMemory.nodes.some(
        (n) => n.kind === 'entity' && n.type === 'file' && n.label === 'src/auth/login.ts',
      ),
    );
    const fromFile = await t.call('graphNeighbourhood', { seeds: [{ file: './src/auth/login.ts' }] });
    const memories = fromFile.nodes
      .filter((n) => n.kind === 'memory')
      .map((n) => (n.kind === 'memory' ? n.memoryId : ''));
    assert.deepEqual(memories.sort(), [ids[0], ids[1]].sort());
  });

  it('filters by entity type and layer, and cuts at the node limit', async () => {
    const { t } = await seeded();
    const people = await t.call('graphNeighbourhood', {
      seeds: [{ entity: 'Melanie' }],
      hops: 2,
      types: ['name'],
      layers: [],
    });
    assert.deepEqual(labels(people.nodes), ['Caroline', 'Melanie']);
    assert.ok(
      people.nodes.every((n) => n.kind === 'entity' && n.type === 'name'),
      labels(people.nodes).join(' | '),
    );
    const noEpisodic = await t.call('graphNeighbourhood', {
      seeds: [{ entity: 'Melanie' }],
      layers: ['episodic'],
    });
    assert.ok(
      noEpisodic.nodes.every((n) => n.kind === 'entity' || (n.kind === 'memory' && n.layer === 'episodic')),
    );
    const small = await t.call('graphNeighbourhood', {
      seeds: [{ entity: 'src/auth/login.ts' }],
      hops: 3,
      limit: 3,
    });
    assert.equal(small.nodes.length, 3);
    assert.equal(small.truncated, true);
  });

  it('graphOverview shows the most mentioned entities and memories naming them, within the limit', async () => {
    const { t } = await seeded();
    const all = await t.call('graphOverview', {});
    assert.equal(all.seeds.length, 0);
    const top = all.nodes.find((n) => n.kind === 'entity');
    assert.ok(top && top.kind === 'entity' && top.memoryCount === 2, JSON.stringify(top));
    assert.ok(all.nodes.some((n) => n.kind === 'memory'));
    const cut = await t.call('graphOverview', { limit: 4 });
    assert.ok(cut.nodes.length <= 4);
    assert.equal(cut.truncated, true);
    const empty = await (await openTestHost()).call('graphOverview', {});
    assert.deepEqual([empty.nodes, empty.edges, empty.truncated], [[], [], false]);
  });

  it('refuses bad input with a one-line error naming what was wrong', async () => {
    const { t } = await seeded();
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['graphNeighbourhood', {}, /^seeds must be a list of 1 to 50/],
      ['graphNeighbourhood', { seeds: [] }, /^seeds must be/],
      ['graphNeighbourhood', { seeds: [{ entity: 'Caroline', memory: 'x' }] }, /^seeds\[0\] must be one of/],
      ['graphNeighbourhood', { seeds: [{ entityId: -1 }] }, /^seeds\[0\]/],
      [
        'graphNeighbourhood',
        { seeds: [{ entity: 'Caroline' }], hops: 4 },
        /^hops must be a whole number from 1 to 3; got 4$/,
      ],
      [
        'graphNeighbourhood',
        { seeds: [{ entity: 'Caroline' }], limit: 0 },
        /^limit must be a whole number from 1 to 2000; got 0$/,
      ],
      ['graphNeighbourhood', { seeds: [{ entity: 'Caroline' }], types: 'person' }, /^types must be a list/],
      ['graphNeighbourhood', { seeds: [{ entity: 'Caroline' }], layers: ['dreams'] }, /layers/],
      ['graphNeighbourhood', { seeds: [{ entity: 'Nobody At All' }] }, /^no entity named "Nobody At All"/],
      ['graphNeighbourhood', { seeds: [{ file: 'src/missing.ts' }] }, /^no file named "src\/missing.ts"/],
      ['graphNeighbourhood', { seeds: [{ memory: 'm_doesnotexist' }] }, /no memory with id/],
      ['graphOverview', { limit: 2001 }, /^limit must be/],
    ];
    for (const [method, params, pattern] of cases) {
      await assert.rejects(
        t.call(method as 'graphOverview', params),
        (error: unknown) =>
          EngramError.is(error) && pattern.test(error.message) && !error.message.includes('\n'),
        `${method} ${JSON.stringify(params)}`,
      );
    }
  });

  it('reports recalls (with the touched memories and their entities) and writes to an activity listener', async () => {
    const seen: EngineActivity[] = [];
    const host = await EngineDispatcher.open({
      dbPath: path.join(tempDir(), 'memory.db'),
      sqlWasmPath: SQL_WASM_PATH,
      logger: silentLogger,
      clock: new TestClock().read,
      snapshot: { idleMs: 60_000 },
      embedding: null,
      onActivity: (a) => seen.push(a),
    });
    const meta = (n: number) => ({ requestId: `r${n}`, client: 'mcp:test-agent' });
    const written = (await host.dispatch(
      'remember',
      { content: 'Melanie maintains Kubernetes for the team.' },
      meta(1),
    )) as {
      memory: { id: string };
    };
    await host.dispatch('recall', { query: 'who maintains Kubernetes' }, meta(2));
    await host.dispatch('stats', {}, meta(3));
    assert.deepEqual(seen[0], { type: 'write', method: 'remember', client: 'mcp:test-agent' });
    const recall = seen[1];
    assert.ok(recall?.type === 'recall');
    assert.equal(recall.query, 'who maintains Kubernetes');
    assert.deepEqual(recall.memoryIds, [written.memory.id]);
    const graph = (await host.dispatch(
      'graphNeighbourhood',
      { seeds: [{ memory: written.memory.id }] },
      meta(4),
    )) as {
      nodes: Array<{ id: string; kind: string }>;
    };
    const linked = graph.nodes.filter((n) => n.kind === 'entity').map((n) => Number(n.id.slice(2)));
    assert.ok(recall.entityIds.length > 0);
    assert.deepEqual(
      [...recall.entityIds].sort(),
      linked.filter((id) => recall.entityIds.includes(id)).sort(),
    );
    assert.equal(seen.length, 2, 'a plain read reports nothing');
    await host.close();
  });
});
