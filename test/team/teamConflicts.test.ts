import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { teamClones } from './teamClones';
import type { Clone } from './teamClones';

const FILES = { 'README.md': '# app\n' };

/** The same team memory edited on two clones, then pulled by bob: a git conflict in its file. */
async function conflicted(alice: Clone, bob: Clone) {
  const a = await alice.host();
  const { memory } = await a.call('remember', { content: 'Lint runs with eslint on every commit.' });
  await a.call('teamShare', { id: memory.id });
  alice.commit('share');
  alice.git('push', '-q', 'origin', 'main');
  bob.git('pull', '-q', 'origin', 'main');
  const b = await bob.host();
  await b.call('teamSync');
  const local = b.host.store.read((r) =>
    r.value<string>('SELECT memory_id FROM team_files WHERE team_id = ?', [memory.id]),
  )!;
  await a.call('edit', { id: memory.id, changes: { content: 'Lint runs with biome on every commit.' } });
  alice.commit('biome');
  alice.git('push', '-q', 'origin', 'main');
  await b.call('edit', { id: local, changes: { content: 'Lint runs with eslint in CI only.' } });
  bob.commit('ci only');
  const pull = bob.tryGit('pull', '-q', '--no-rebase', 'origin', 'main');
  assert.notEqual(pull.status, 0, 'the pull conflicts');
  const file = `.engram/team/${memory.id}.md`;
  assert.equal(bob.git('diff', '--name-only', '--diff-filter=U'), file, 'in one small file, and no other');
  return { b, teamId: memory.id, local, file };
}

describe('git team memories: the same memory changed on two branches', () => {
  it('the index shows both sides while the file holds conflict markers, and says so', async () => {
    const [alice, bob] = teamClones(FILES, ['alice', 'bob']);
    const { b, teamId, local, file } = await conflicted(alice!, bob!);
    assert.match(bob!.read(file), /^<<<<<<< /m);
    const sync = await b.call('teamSync');
    assert.deepEqual(sync.conflicts, [teamId]);
    const status = await b.call('teamStatus');
    assert.equal(status.conflicts.length, 1);
    const conflict = status.conflicts[0]!;
    assert.equal(conflict.file, file);
    assert.equal(conflict.ours, local);
    const ours = (await b.call('get', { id: conflict.ours })).memory;
    const theirs = (await b.call('get', { id: conflict.theirs })).memory;
    assert.equal(ours.content, 'Lint runs with eslint in CI only.');
    assert.equal(theirs.content, 'Lint runs with biome on every commit.');
    for (const side of [ours, theirs]) {
      assert.ok(side.tags.includes('team-conflict'), `${side.id} is tagged team-conflict`);
      assert.equal(side.status, 'active');
    }
    assert.match(ours.context ?? '', /git conflict in .*: our side/);
    assert.match(theirs.context ?? '', /git conflict in .*: their side/);
    const hits = await b.call('recall', { query: 'lint commit' });
    const ids = hits.hits.map((h) => h.memory.id);
    assert.ok(ids.includes(ours.id) && ids.includes(theirs.id), 'recall sees both sides');
  });

  it('resolving the file in git leaves one memory, with the resolved text', async () => {
    const [alice, bob] = teamClones(FILES, ['alice', 'bob']);
    const { b, teamId, local, file } = await conflicted(alice!, bob!);
    await b.call('teamSync');
    const theirsId = (await b.call('teamStatus')).conflicts[0]!.theirs;
    bob!.git('checkout', '--theirs', '--', file);
    const resolved = bob!
      .read(file)
      .replace('Lint runs with biome on every commit.', 'Lint runs with biome in CI only.');
    writeFileSync(path.join(bob!.root, file), resolved);
    bob!.git('add', file);
    bob!.git('commit', '-q', '--no-edit');
    const sync = await b.call('teamSync');
    assert.deepEqual(sync.resolved, [teamId]);
    assert.deepEqual((await b.call('teamStatus')).conflicts, []);
    const ours = (await b.call('get', { id: local })).memory;
    assert.equal(ours.content, 'Lint runs with biome in CI only.');
    assert.ok(!ours.tags.includes('team-conflict'));
    assert.equal(ours.context, null);
    const theirs = (await b.call('get', { id: theirsId })).memory;
    assert.equal(theirs.status, 'archived');
    assert.match(theirs.statusReason ?? '', /resolved/);
  });

  it('editing our side through Engram resolves the file with it', async () => {
    const [alice, bob] = teamClones(FILES, ['alice', 'bob']);
    const { b, local, file } = await conflicted(alice!, bob!);
    await b.call('teamSync');
    const theirsId = (await b.call('teamStatus')).conflicts[0]!.theirs;
    await b.call('edit', { id: local, changes: { content: 'Lint runs with biome in CI only.' } });
    const text = bob!.read(file);
    assert.doesNotMatch(text, /^(<<<<<<<|=======|>>>>>>>)/m);
    assert.match(text, /Lint runs with biome in CI only\./);
    const ours = (await b.call('get', { id: local })).memory;
    assert.deepEqual(
      [ours.tags, ours.context],
      [['team'], null],
      'our side is no longer marked as in conflict',
    );
    assert.equal((await b.call('get', { id: theirsId })).memory.status, 'archived');
    assert.deepEqual((await b.call('teamStatus')).conflicts, []);
  });
});
