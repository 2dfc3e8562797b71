import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DataReply,
  DidChangeDataNotification,
  DidInitNotification,
  DidRecallNotification,
  DidRevealNotification,
  GetDataRequest,
  OpenEntityCommand,
  OpenMemoryCommand,
  OpenSessionCommand,
  ReadyNotification,
  RecallLitNotification,
  SearchEntitiesRequest,
  SearchReply,
  malformedRequestId,
  parseHostMessage,
  parseWebviewMessage,
} from '../../webview/graph/protocol';
import {
  applyData,
  concentricPositions,
  createGraph,
  edgeSize,
  matchingNodes,
  ringOf,
  touchedNodes,
} from '../../webview/graph/graphModel';
import type { Palette } from '../../webview/graph/graphModel';
import type { GraphData } from '../../webview/graph/protocol';
import { runForceLayout } from '../../webview/graph/forceLayout';

const data: GraphData = { nodes: [], edges: [], seeds: [], truncated: false, limit: 400 };
const query = { hops: 1, limit: 400 };

/** For every message type: one valid example and malformed variants its guard must refuse. */
const webviewMessages: Array<[{ is(m: unknown): boolean }, unknown, unknown[]]> = [
  [
    ReadyNotification,
    { type: 'graph/view/ready' },
    [{ type: 'graph/view/Ready' }, { kind: 'graph/view/ready' }],
  ],
  [
    GetDataRequest,
    {
      type: 'graph/data/get',
      id: 1,
      query: { ...query, seeds: [{ entityId: 3 }, { memory: 'm_1' }, { file: 'a.ts' }] },
    },
    [
      { type: 'graph/data/get', id: 1 },
      { type: 'graph/data/get', id: -1, query },
      { type: 'graph/data/get', id: 1.5, query },
      { type: 'graph/data/get', id: 1, query: { ...query, hops: 0 } },
      { type: 'graph/data/get', id: 1, query: { ...query, hops: 4 } },
      { type: 'graph/data/get', id: 1, query: { ...query, limit: 2001 } },
      { type: 'graph/data/get', id: 1, query: { ...query, seeds: [] } },
      { type: 'graph/data/get', id: 1, query: { ...query, seeds: [{ entityId: 0 }] } },
      { type: 'graph/data/get', id: 1, query: { ...query, seeds: [{ memory: '../../etc/passwd' }] } },
      { type: 'graph/data/get', id: 1, query: { ...query, seeds: [{ entity: 'a', file: 'b' }] } },
      { type: 'graph/data/get', id: 1, query: { ...query, sessions: 'yes' } },
      { type: 'graph/data/get', id: 1, query: { ...query, sessions: 1 } },
      { type: 'graph/data/get', id: 1, query: { ...query, seeds: [{ command: 'x' }] } },
      {
        type: 'graph/data/get',
        id: 1,
        query: { ...query, seeds: Array.from({ length: 51 }, () => ({ entityId: 1 })) },
      },
      { type: 'graph/data/get', id: 1, query: { ...query, layers: ['dreams'] } },
      { type: 'graph/data/get', id: 1, query: { ...query, types: [''] } },
      { type: 'graph/data/get', id: 1, query: { ...query, types: 'file' } },
    ],
  ],
  [
    SearchEntitiesRequest,
    { type: 'graph/entities/search', id: 2, text: 'auth' },
    [
      { type: 'graph/entities/search', id: 2 },
      { type: 'graph/entities/search', id: 2, text: 5 },
      { type: 'graph/entities/search', id: 2, text: 'x'.repeat(201) },
    ],
  ],
  [
    OpenMemoryCommand,
    { type: 'graph/memory/open', memoryId: 'm_01HX-abc' },
    [
      { type: 'graph/memory/open' },
      { type: 'graph/memory/open', memoryId: 42 },
      { type: 'graph/memory/open', memoryId: 'a b' },
      { type: 'graph/memory/open', memoryId: 'x'.repeat(65) },
    ],
  ],
  [
    OpenEntityCommand,
    { type: 'graph/entity/open', entityType: 'file', name: 'src/auth/login.ts' },
    [
      { type: 'graph/entity/open', entityType: 'package', name: 'zod' },
      { type: 'graph/entity/open', entityType: 'file', name: '' },
      { type: 'graph/entity/open', entityType: 'symbol' },
    ],
  ],
  [
    GetDataRequest,
    { type: 'graph/data/get', id: 2, query: { ...query, sessions: true } },
    [{ type: 'graph/data/get', id: 2, query: { ...query, sessions: null } }],
  ],
  [
    OpenSessionCommand,
    { type: 'graph/session/open', sessionId: 'aider-2026-03-02T09:00:00' },
    [
      { type: 'graph/session/open' },
      { type: 'graph/session/open', sessionId: '' },
      { type: 'graph/session/open', sessionId: '../x' },
      { type: 'graph/session/open', sessionId: 'a b' },
      { type: 'graph/session/open', sessionId: 'x'.repeat(201) },
      { type: 'graph/session/open', sessionId: 12 },
    ],
  ],
  [
    RecallLitNotification,
    { type: 'graph/recall/lit', query: 'q', lit: 2, touched: 5 },
    [
      { type: 'graph/recall/lit', query: 'q', lit: -1, touched: 5 },
      { type: 'graph/recall/lit', query: 'q', lit: '2', touched: 5 },
      { type: 'graph/recall/lit', lit: 2, touched: 5 },
    ],
  ],
];

const hostMessages: Array<[{ is(m: unknown): boolean }, unknown, unknown[]]> = [
  [
    DidInitNotification,
    { type: 'graph/view/DidInit', reveal: null },
    [{ type: 'graph/view/DidInit' }, { type: 'graph/view/DidInit', reveal: [] }],
  ],
  [
    DidRevealNotification,
    { type: 'graph/seed/DidReveal', seeds: [{ memory: 'm_1' }] },
    [{ type: 'graph/seed/DidReveal', seeds: [{ memory: 'bad id' }] }, { type: 'graph/seed/DidReveal' }],
  ],
  [
    DataReply,
    { type: 'graph/data/reply', id: 3, ok: true, data },
    [
      { type: 'graph/data/reply', id: 3, ok: true },
      { type: 'graph/data/reply', id: 3, ok: true, data: { ...data, nodes: 'x' } },
      { type: 'graph/data/reply', id: 3, ok: false },
      { type: 'graph/data/reply', id: '3', ok: false, error: 'x' },
    ],
  ],
  [
    SearchReply,
    { type: 'graph/entities/reply', id: 4, ok: false, error: 'engine closed' },
    [
      { type: 'graph/entities/reply', id: 4, ok: true },
      { type: 'graph/entities/reply', ok: true, entities: [] },
    ],
  ],
  [DidChangeDataNotification, { type: 'graph/data/DidChange' }, [{ type: 'graph/data/didchange' }]],
  [
    DidRecallNotification,
    { type: 'graph/recall/DidRun', query: 'q', memoryIds: ['m_1'], entityIds: [4], client: 'vscode' },
    [
      { type: 'graph/recall/DidRun', query: 'q', memoryIds: ['<img>'], entityIds: [], client: 'vscode' },
      { type: 'graph/recall/DidRun', query: 'q', memoryIds: [], entityIds: [0], client: 'vscode' },
      { type: 'graph/recall/DidRun', query: 'q', memoryIds: [], entityIds: [] },
    ],
  ],
];

const junk = [null, undefined, 'graph/view/ready', 42, [], {}, { type: 7 }];

describe('graph protocol guards', () => {
  it('accept each webview message and refuse its malformed variants', () => {
    for (const [guard, good, bads] of webviewMessages) {
      assert.ok(guard.is(good), JSON.stringify(good));
      assert.deepEqual(parseWebviewMessage(good), good);
      assert.equal(parseHostMessage(good), undefined, 'a webview message is not a host message');
      for (const bad of [...bads, ...junk]) {
        assert.equal(guard.is(bad), false, JSON.stringify(bad));
        assert.equal(parseWebviewMessage(bad), undefined, JSON.stringify(bad));
      }
    }
  });

  it('accept each host message and refuse its malformed variants', () => {
    for (const [guard, good, bads] of hostMessages) {
      assert.ok(guard.is(good), JSON.stringify(good));
      assert.deepEqual(parseHostMessage(good), good);
      assert.equal(parseWebviewMessage(good), undefined, 'a host message is not a webview message');
      for (const bad of [...bads, ...junk]) {
        assert.equal(guard.is(bad), false, JSON.stringify(bad));
        assert.equal(parseHostMessage(bad), undefined, JSON.stringify(bad));
      }
    }
  });

  it('find the id of a malformed request, so the host can still reply to it', () => {
    assert.deepEqual(malformedRequestId({ type: 'graph/data/get', id: 9, query: { hops: 9 } }), {
      type: 'graph/data/get',
      id: 9,
    });
    assert.deepEqual(malformedRequestId({ type: 'graph/entities/search', id: 2 }), {
      type: 'graph/entities/search',
      id: 2,
    });
    assert.equal(malformedRequestId({ type: 'graph/memory/open', id: 2 }), undefined);
    assert.equal(malformedRequestId({ type: 'graph/data/get', id: 'x' }), undefined);
  });
});

const palette: Palette = {
  entity: () => '#111111',
  layer: () => '#222222',
  edge: '#333333',
  mention: '#444444',
  session: '#d18616',
  commit: '#cca700',
};

function payload(): GraphData {
  return {
    nodes: [
      { id: 'e:1', kind: 'entity', entityId: 1, label: 'src/a.ts', type: 'file', memoryCount: 3, hops: 0 },
      { id: 'e:2', kind: 'entity', entityId: 2, label: 'zod', type: 'package', memoryCount: 1, hops: 1 },
      {
        id: 'm:x',
        kind: 'memory',
        memoryId: 'x',
        label: '<b>Bold</b> claim',
        text: '<b>Bold</b> claim about zod',
        layer: 'procedural',
        memoryKind: 'fact',
        status: 'active',
        hops: 1,
      },
    ],
    edges: [
      { source: 'e:1', target: 'e:2', kind: 'relation', type: 'co-occurs', strength: 0.6 },
      { source: 'm:x', target: 'e:1', kind: 'mention', type: 'mentions', strength: 1 },
      { source: 'm:x', target: 'e:9', kind: 'mention', type: 'mentions', strength: 1 },
    ],
    seeds: ['e:1'],
    truncated: false,
    limit: 400,
  };
}

describe('graph model', () => {
  it('builds the graph from a payload, dropping edges to nodes it lacks, and keeps positions across reloads', () => {
    const graph = createGraph();
    applyData(graph, payload(), palette);
    assert.equal(graph.order, 3);
    assert.equal(graph.size, 2);
    assert.equal(graph.getEdgeAttribute(graph.edge('e:1', 'e:2')!, 'size'), edgeSize(0.6));
    assert.ok(edgeSize(1) > edgeSize(0.6) && edgeSize(0.6) > edgeSize(0));
    graph.forEachNode((_, a) => assert.ok(Number.isFinite(a.x) && Number.isFinite(a.y)));
    graph.mergeNodeAttributes('e:1', { x: 123, y: -45 });
    const next = payload();
    next.nodes.push({
      id: 'e:3',
      kind: 'entity',
      entityId: 3,
      label: 'new',
      type: 'tool',
      memoryCount: 0,
      hops: 1,
    });
    next.edges.push({ source: 'e:3', target: 'e:1', kind: 'relation', type: 'uses', strength: 0.3 });
    applyData(graph, next, palette);
    assert.deepEqual([graph.getNodeAttribute('e:1', 'x'), graph.getNodeAttribute('e:1', 'y')], [123, -45]);
    const placed = graph.getNodeAttributes('e:3');
    assert.ok(
      Math.abs(placed.x - 123) <= 5 && Math.abs(placed.y + 45) <= 5,
      'a new node starts beside its neighbour',
    );
  });

  it('finds by text, maps a recall to the nodes in view, and puts layers on rings around the entities', () => {
    const graph = createGraph();
    applyData(graph, payload(), palette);
    assert.deepEqual([...matchingNodes(graph, 'ZOD')].sort(), ['e:2', 'm:x']);
    assert.equal(matchingNodes(graph, '  ').size, 0);
    assert.deepEqual(touchedNodes(graph, ['x', 'gone'], [2, 77]), ['m:x', 'e:2']);
    runForceLayout(graph, { iterations: 50, schedule: (step) => step() });
    const cx = graph.mapNodes((_, a) => a.x).reduce((s, x) => s + x, 0) / graph.order;
    const cy = graph.mapNodes((_, a) => a.y).reduce((s, y) => s + y, 0) / graph.order;
    const rings = concentricPositions(graph);
    const radius = (id: string) => {
      const p = rings.get(id)!;
      return Math.hypot(p.x - cx, p.y - cy);
    };
    assert.equal(ringOf(graph.getNodeAttribute('m:x', 'node')), 4);
    assert.ok(radius('m:x') > radius('e:1') && radius('m:x') > radius('e:2'));
  });

  it('draws the session layer in its own colours, on rings outside the memory layers, found by its text', () => {
    const g = createGraph();
    const base = payload();
    applyData(
      g,
      {
        ...base,
        nodes: [
          ...base.nodes,
          {
            id: 's:abc',
            kind: 'session',
            sessionId: 'abc',
            agent: 'claude-code',
            label: 'Claude Code: fix the dates',
            text: 'Claude Code session abc · 3 turns\nfix the dates in src/a.ts',
            startedAt: 1,
            hops: 1,
          },
          {
            id: 'c:f00',
            kind: 'commit',
            sha: 'f00',
            label: 'f00 Fix',
            text: 'commit f00\nFix',
            committedAt: 2,
            hops: 2,
          },
        ],
        edges: [
          ...base.edges,
          { source: 's:abc', target: 'e:1', kind: 'edit', type: 'edited', strength: 0.6 },
          { source: 'c:f00', target: 's:abc', kind: 'commit', type: 'carries', strength: 1 },
        ],
      },
      palette,
      () => 0.5,
    );
    assert.equal(g.getNodeAttribute('s:abc', 'color'), palette.session);
    assert.equal(g.getNodeAttribute('c:f00', 'color'), palette.commit);
    assert.equal(g.getEdgeAttribute(g.edge('s:abc', 'e:1'), 'kind'), 'edit');
    const memoryRing = ringOf(g.getNodeAttribute('m:x', 'node'));
    assert.ok(ringOf(g.getNodeAttribute('s:abc', 'node')) > memoryRing);
    assert.ok(ringOf(g.getNodeAttribute('c:f00', 'node')) > ringOf(g.getNodeAttribute('s:abc', 'node')));
    assert.deepEqual([...matchingNodes(g, 'the dates in')], ['s:abc']);
  });

  it('runs forceatlas2 for the asked iterations and reports them', () => {
    const graph = createGraph();
    applyData(graph, payload(), palette);
    const before = { ...graph.getNodeAttributes('e:2') };
    let stats: { iterations: number } | undefined;
    runForceLayout(graph, { iterations: 20, schedule: (step) => step(), onDone: (s) => (stats = s) });
    assert.equal(stats?.iterations, 20);
    const after = graph.getNodeAttributes('e:2');
    assert.notDeepEqual([after.x, after.y], [before.x, before.y]);
  });
});
