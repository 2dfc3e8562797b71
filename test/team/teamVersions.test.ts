import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { teamClones } from './teamClones';
import type { Clone } from './teamClones';

const FILES = { 'README.md': '# app\n' };

async function sharedAndPulled(
  alice: Clone,
  bob: Clone,
  content: string,
  extra: Record<string, unknown> = {},
) {
  const a = await alice.host();
  const { memory } = await a.call('remember', { content, ...extra });
  await a.call('teamShare', { id: memory.id });
  alice.commit(`share ${memory.id}`);
  alice.git('push', '-q', 'origin', 'main');
  bob.git('pull', '-q', 'origin', 'main');
  const b = await bob.host();
  await b.call('teamSync');
  return { a, b, teamId: memory.id };
}

async function localOf(clone: Clone, teamId: string) {
  const status = (await clone.host()).host.store.read((r) =>
    r.value<string>('SELECT memory_id FROM team_files WHERE team_id = ?', [teamId]),
  );
  assert.ok(status, `${teamId} is indexed in ${clone.root}`);
  return status;
}

describe('git team memories: versions', () => {
  it('an edit writes a new version of the file; a teammate pulls it as a new version of the same memory', async () => {
    const [alice, bob] = teamClones(FILES, ['alice', 'bob']);
    const { a, b, teamId } = await sharedAndPulled(alice!, bob!, 'Deploys run from the deploy branch.');
    await a.call('edit', { id: teamId, changes: { content: 'Deploys run from the release branch.' } });
    const file = `.engram/team/${teamId}.md`;
    assert.match(alice!.read(file), /^version: 2$/m);
    assert.match(alice!.read(file), /Deploys run from the release branch\./);
    alice!.commit('edit the deploy memory');
    alice!.git('push', '-q', 'origin', 'main');
    bob!.git('pull', '-q', 'origin', 'main');
    const sync = await b.call('teamSync');
    const local = await localOf(bob!, teamId);
    assert.deepEqual(sync.edited, [teamId]);
    const history = await b.call('history', { id: local });
    assert.deepEqual(
      history.versions.map((v) => v.content),
      ['Deploys run from the deploy branch.', 'Deploys run from the release branch.'],
    );
    assert.equal((await b.call('teamStatus')).changedUpstream[0]?.change, 'edited');
  });

  it('an invalidation writes valid_to and the reason; the teammate’s memory is invalidated', async () => {
    const [alice, bob] = teamClones(FILES, ['alice', 'bob']);
    const { a, b, teamId } = await sharedAndPulled(alice!, bob!, 'The API is served on port 8080.');
    alice!.clock.advance(60_000);
    await a.call('invalidate', { id: teamId, reason: 'moved behind the proxy' });
    const text = alice!.read(`.engram/team/${teamId}.md`);
    assert.match(text, /^valid_to: 2026-01-15T10:01:00\.000Z$/m);
    assert.match(text, /^reason: moved behind the proxy$/m);
    alice!.commit('invalidate');
    alice!.git('push', '-q', 'origin', 'main');
    bob!.git('pull', '-q', 'origin', 'main');
    await b.call('teamSync');
    const memory = (await b.call('get', { id: await localOf(bob!, teamId) })).memory;
    assert.equal(memory.status, 'invalidated');
    assert.equal(memory.statusReason, 'moved behind the proxy');
    assert.equal(memory.validTo, Date.parse('2026-01-15T10:01:00Z'));
  });

  it('superseding a team memory (same conflict key) shares its successor and names both in the files', async () => {
    const [alice, bob] = teamClones(FILES, ['alice', 'bob']);
    const { a, b, teamId } = await sharedAndPulled(alice!, bob!, 'Node 18 is the minimum version.', {
      conflictKey: 'node-minimum',
    });
    const next = await a.call('remember', {
      content: 'Node 20 is the minimum version.',
      conflictKey: 'node-minimum',
    });
    assert.deepEqual(next.superseded, [teamId]);
    const newId = next.memory.id;
    assert.match(alice!.read(`.engram/team/${newId}.md`), new RegExp(`^supersedes: \\["${teamId}"\\]$`, 'm'));
    assert.match(alice!.read(`.engram/team/${teamId}.md`), new RegExp(`^superseded_by: ${newId}$`, 'm'));
    alice!.commit('supersede');
    alice!.git('push', '-q', 'origin', 'main');
    bob!.git('pull', '-q', 'origin', 'main');
    const sync = await b.call('teamSync');
    assert.deepEqual([sync.added, sync.edited], [[newId], [teamId]]);
    const old = (await b.call('get', { id: await localOf(bob!, teamId) })).memory;
    assert.equal(old.status, 'superseded');
    assert.equal(old.supersededBy, await localOf(bob!, newId));
  });

  it('a batch remember that supersedes a team memory writes its file too', async () => {
    const [alice] = teamClones(FILES, ['alice']);
    const a = await alice!.host();
    const { memory } = await a.call('remember', {
      content: 'Python 3.10 is required.',
      conflictKey: 'python',
    });
    await a.call('teamShare', { id: memory.id });
    const [result] = await a.call('rememberMany', {
      memories: [{ content: 'Python 3.12 is required.', conflictKey: 'python' }],
    });
    assert.ok(result && result.outcome === 'superseded');
    assert.match(
      alice!.read(`.engram/team/${memory.id}.md`),
      new RegExp(`^superseded_by: ${result.memory.id}$`, 'm'),
    );
  });

  it('a file deleted from the branch retires its memory; switching back brings it back', async () => {
    const [alice, bob] = teamClones(FILES, ['alice', 'bob']);
    const { b, teamId } = await sharedAndPulled(alice!, bob!, 'Feature flags live in flags.json.');
    const local = await localOf(bob!, teamId);
    bob!.git('checkout', '-q', '-b', 'cleanup');
    rmSync(path.join(bob!.root, '.engram/team', `${teamId}.md`));
    bob!.commit('drop the flags memory');
    assert.deepEqual((await b.call('teamSync')).retired, [teamId]);
    const retired = (await b.call('get', { id: local })).memory;
    assert.equal(retired.status, 'archived');
    assert.match(retired.statusReason ?? '', /not on this branch/);
    const hits = await b.call('recall', { query: 'feature flags' });
    assert.ok(!hits.hits.some((h) => h.memory.id === local), 'a retired team memory is out of recall');
    bob!.git('checkout', '-q', 'main');
    // A new process (the CLI after the switch) indexes on open.
    const reopened = await bob!.reopen();
    assert.equal((await reopened.call('get', { id: local })).memory.status, 'active');
  });
});
