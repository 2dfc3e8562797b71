import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import type { GraphPayload } from '../../engine/api/graphMethods';
import { openTestHost } from '../support/host';
import { LINKED_SESSION, linkedWorkspace } from './linkedWorkspace';

const ids = (p: GraphPayload, kind: string) => p.nodes.filter((n) => n.kind === kind).map((n) => n.id);
const edge = (p: GraphPayload, a: string, b: string) =>
  p.edges.find((e) => (e.source === a && e.target === b) || (e.source === b && e.target === a));

test('the graph`s session layer: the session that edited a file, linked to it and to the commit that carries its edit', async () => {
  const { root, fix } = await linkedWorkspace();
  const t = await openTestHost({ dbPath: path.join(root, '.engram', 'memory.db') });
  try {
    const plain = await t.call('graphNeighbourhood', { seeds: [{ file: 'src/dates.ts' }] });
    assert.deepEqual(ids(plain, 'session'), [], 'off unless asked: the graph is not flooded');
    const file = plain.nodes.find(
      (n) => n.kind === 'entity' && n.type === 'file' && n.label === 'src/dates.ts',
    );
    assert.ok(file, 'the summary memory names the file, so it is an entity');

    const layered = await t.call('graphNeighbourhood', { seeds: [{ file: 'src/dates.ts' }], sessions: true });
    assert.deepEqual(ids(layered, 'session'), [`s:${LINKED_SESSION}`]);
    assert.deepEqual(ids(layered, 'commit'), [`c:${fix}`]);
    assert.equal(edge(layered, `s:${LINKED_SESSION}`, file.id)?.kind, 'edit');
    assert.equal(edge(layered, `c:${fix}`, `s:${LINKED_SESSION}`)?.kind, 'commit');
    assert.equal(edge(layered, `c:${fix}`, file.id)?.kind, 'commit');
    const session = layered.nodes.find((n) => n.kind === 'session');
    assert.match(session?.label ?? '', /^Claude Code: isLeap is wrong for 1900/);
    const commit = layered.nodes.find((n) => n.kind === 'commit');
    assert.equal(commit?.label, `${fix.slice(0, 7)} Fix leap years for centuries`);
    // Every entity and memory of the plain graph is still there, with its edges.
    assert.deepEqual(
      layered.nodes.filter((n) => n.kind === 'entity' || n.kind === 'memory').map((n) => n.id),
      plain.nodes.map((n) => n.id),
    );

    const overview = await t.call('graphOverview', { sessions: true });
    assert.ok(ids(overview, 'session').length <= 50);
  } finally {
    await t.host.close();
  }
});
