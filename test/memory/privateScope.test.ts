import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';

/**
 * `scope: 'private'` keeps a memory to the agent that wrote it: every read path an agent can call
 * leaves another agent's private memory out (its text, and its id), while the owner of the
 * database (a caller without an agent: the VS Code UI, the CLI without --agent) sees everything.
 */
const SECRET = 'Alice keeps the staging database password rotation for ops/staging.env in her own notes';
const SHARED = 'The staging database of ops/staging.env is rebuilt every night from the production dump';
const SECRET_PROCEDURE =
  'To rotate the staging database password: run ops/rotate.sh, then update her own notes and the vault';

const alice = { actor: { agent: 'alice', session: 'alice-1' } };
const bob = { actor: { agent: 'bob', session: 'bob-1' } };

async function twoAgents(): Promise<{
  t: TestHost;
  secretId: string;
  sharedId: string;
  procedureId: string;
}> {
  const t = await openTestHost();
  const secret = await t.call('remember', {
    content: SECRET,
    kind: 'decision',
    scope: 'private',
    tags: ['kestrel'],
    ...alice,
  });
  const shared = await t.call('remember', { content: SHARED, kind: 'decision', tags: ['kestrel'], ...bob });
  const procedure = await t.call('remember', {
    content: SECRET_PROCEDURE,
    kind: 'procedure',
    scope: 'private',
    ...alice,
  });
  return { t, secretId: secret.memory.id, sharedId: shared.memory.id, procedureId: procedure.memory.id };
}

/** Whether an answer shows the private text or names its id anywhere. */
function leaks(answer: unknown, secretId: string): boolean {
  const text = JSON.stringify(answer);
  return text.includes('her own notes') || text.includes(secretId);
}

function assertHidden(answer: unknown, secretId: string, what: string): void {
  assert.ok(
    !leaks(answer, secretId),
    `${what} shows the private memory: ${JSON.stringify(answer).slice(0, 300)}`,
  );
}

describe('private memories: hidden from other agents on every read path', () => {
  it('recall, list, asOf, context, levels, prime, timeline, graph, events, skills and export leave it out for another agent', async () => {
    const { t, secretId, sharedId, procedureId } = await twoAgents();
    const later = new Date(t.clock.now + 60_000).toISOString();
    const reads: Array<[Parameters<TestHost['call']>[0], Record<string, unknown>]> = [
      ['recall', { query: 'staging database password rotation kestrel', explain: true }],
      ['recall', { query: 'staging database password rotation kestrel', detail: true }],
      ['list', { status: 'all' }],
      ['list', { tag: 'kestrel' }],
      ['asOf', { time: later }],
      ['asOf', { time: later, axis: 'valid' }],
      ['context', { query: 'staging database password rotation' }],
      ['contextLevels', { query: 'staging database password rotation' }],
      ['prime', {}],
      ['timeline', { status: 'all' }],
      ['graphOverview', {}],
      ['graphNeighbourhood', { seeds: [{ memory: sharedId }], hops: 2 }],
      ['graphNeighbourhood', { seeds: [{ file: 'ops/staging.env' }] }],
      ['events', {}],
      ['skills', { query: 'rotate the staging database password', threshold: 0 }],
      ['export', {}],
      ['export', { format: 'md' }],
    ];
    // Every path is read before asserting, so a failure lists all the paths that leak.
    const leaking: string[] = [];
    for (const [method, params] of reads) {
      const answer = await t.call(method, { ...params, ...bob });
      if (leaks(answer, secretId)) leaking.push(`${method} ${JSON.stringify(params)}`);
    }
    assert.deepEqual(leaking, []);
    // An entity only a private memory names is not listed to another agent.
    const named = async (reader: object) =>
      (await t.call('entities', { query: 'rotate', ...reader })).map((e) => e.name);
    assert.deepEqual(await named(bob), []);
    assert.ok((await named(alice)).some((name) => name.includes('ops/rotate.sh')));
    // An entity both name counts, for bob, only the memory he may see.
    const counts = async (reader: object) =>
      (await t.call('entities', { query: 'staging.env', ...reader })).map((e) => [e.name, e.memoryCount]);
    assert.deepEqual(await counts(bob), [['ops/staging.env', 1]]);
    assert.deepEqual(await counts(alice), [['ops/staging.env', 2]]);
    // The shared memory is still there for bob, and the private one for alice and the owner.
    const bobRecall = await t.call('recall', { query: 'staging database kestrel', ...bob });
    assert.deepEqual(
      bobRecall.hits.map((h) => h.memory.id),
      [sharedId],
    );
    for (const reader of [alice, {}]) {
      const hits = await t.call('recall', { query: 'staging database password rotation kestrel', ...reader });
      assert.ok(
        hits.hits.some((h) => h.memory.id === secretId),
        `${JSON.stringify(reader)} recalls the private memory`,
      );
      const list = await t.call('list', { ...reader });
      assert.deepEqual(list.items.map((m) => m.id).sort(), [secretId, sharedId, procedureId].sort());
      const exported = await t.call('export', { ...reader });
      assert.ok(exported.text?.includes('her own notes'), `${JSON.stringify(reader)} exports it`);
    }
    const aliceContext = await t.call('context', { query: 'staging database password rotation', ...alice });
    assert.ok(aliceContext.text.includes('her own notes'), 'its own agent gets it in context');
  });

  it('get, history, explain, claims, share and every write by id: not found for another agent (the same error as a missing id)', async () => {
    const { t, secretId, sharedId } = await twoAgents();
    await assert.rejects(
      t.call('get', { id: 'm_doesnotexist', ...bob }),
      /^EngramError: no memory with id "/,
    );
    const byId: Array<[Parameters<TestHost['call']>[0], Record<string, unknown>]> = [
      ['get', { id: secretId }],
      ['history', { id: secretId }],
      ['explain', { id: secretId }],
      ['driftClaims', { id: secretId }],
      ['edit', { id: secretId, changes: { content: 'bob rewrote it' } }],
      ['annotate', { id: secretId, text: 'bob was here' }],
      ['invalidate', { id: secretId, reason: 'bob says so' }],
      ['forget', { id: secretId }],
      ['archive', { id: secretId }],
      ['pin', { id: secretId }],
      ['teamPropose', { id: secretId }],
      ['graphNeighbourhood', { seeds: [{ memory: secretId }] }],
    ];
    const answered: string[] = [];
    for (const [method, params] of byId) {
      const outcome = await t.call(method, { ...params, ...bob }).then(
        () => 'answered',
        (error: Error & { code?: string }) =>
          error.code === 'NOT_FOUND' && /^no memory with id "/.test(error.message)
            ? 'not found'
            : error.message,
      );
      if (outcome !== 'not found') answered.push(`${method}: ${outcome}`);
    }
    assert.deepEqual(answered, []);
    // Ids made in one millisecond differ in their last characters: a prefix both memories share
    // is ambiguous to whoever sees both, and names the shared one alone for bob.
    let common = 0;
    while (secretId[common] === sharedId[common]) common++;
    const prefix = secretId.slice(0, common);
    assert.ok(prefix.length >= 6);
    for (const reader of [{}, alice])
      await assert.rejects(t.call('get', { id: prefix, ...reader }), /ambiguous/, JSON.stringify(reader));
    assert.equal((await t.call('get', { id: prefix, ...bob })).memory.id, sharedId);
    // Nothing changed: one version, no annotation, still active and unpinned.
    const history = await t.call('history', { id: secretId, ...alice });
    assert.equal(history.versions.length, 1);
    assert.equal(history.annotations.length, 0);
    const got = await t.call('get', { id: secretId, ...alice });
    assert.equal(got.memory.status, 'active');
    assert.equal(got.memory.pinned, false);
    assert.equal(got.memory.content, SECRET);
    // The owner may act on it.
    await t.call('pin', { id: secretId });
    assert.equal((await t.call('get', { id: secretId })).memory.pinned, true);
    // Pinned now, it leads alice's context and prime, never bob's.
    assertHidden(
      await t.call('context', { query: 'nightly rebuild', ...bob }),
      secretId,
      'pinned in context',
    );
    assertHidden(await t.call('prime', { ...bob }), secretId, 'pinned in prime');
    assert.ok((await t.call('prime', { ...alice })).text.includes('her own notes'));
  });

  it('a replica copy for another agent carries no private memory; its own agent gets it', async () => {
    const { t, secretId, sharedId } = await twoAgents();
    const forBob = await t.call('replicaChanges', { ...bob });
    assertHidden(forBob, secretId, 'replicaChanges');
    assert.ok(forBob.text.includes(sharedId));
    assert.equal(forBob.memories, 1);
    const forAlice = await t.call('replicaChanges', { ...alice });
    assert.ok(forAlice.text.includes(secretId));
    // An incremental page after alice edits her memory: still nothing for bob.
    await t.call('edit', { id: secretId, changes: { content: `${SECRET}, moved to the vault` }, ...alice });
    const next = await t.call('replicaChanges', { after: forBob.position, ...bob });
    assertHidden(next, secretId, 'replicaChanges after an edit');
    assert.equal(next.memories, 0);
  });
});
