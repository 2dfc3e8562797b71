import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { teamClones } from './teamClones';

const FILES = {
  'src/config/loader.ts': 'export function loadConfig(): Record<string, string> {\n  return {};\n}\n',
  'src/main.ts': "import { loadConfig } from './config/loader';\nloadConfig();\n",
};

describe('git team memories: status and drift', () => {
  it('drift flags a team memory whose file was renamed on another branch and merged; team status lists it as stale', async () => {
    const [alice, bob] = teamClones(FILES, ['alice', 'bob']);
    const a = await alice!.host();
    const { memory } = await a.call('remember', {
      content: 'Settings are read only in src/config/loader.ts.',
      kind: 'decision',
    });
    await a.call('teamShare', { id: memory.id });
    alice!.commit('share the settings decision');
    alice!.git('push', '-q', 'origin', 'main');
    bob!.git('pull', '-q', 'origin', 'main');
    bob!.git('checkout', '-q', '-b', 'rename-config');
    bob!.commit('rename the loader', {
      rename: [['src/config/loader.ts', 'src/config/settings.ts']],
      write: { 'src/main.ts': "import { loadConfig } from './config/settings';\nloadConfig();\n" },
    });
    bob!.git('checkout', '-q', 'main');
    bob!.git('merge', '-q', '--no-ff', '--no-edit', 'rename-config');
    bob!.git('push', '-q', 'origin', 'main');
    // Bob's clone indexes the team memory on open, and drift checks it against his branch.
    const b = await bob!.host();
    await b.call('scan', { tokens: false });
    const local = b.host.store.read((r) =>
      r.value<string>('SELECT memory_id FROM team_files WHERE team_id = ?', [memory.id]),
    )!;
    const report = await b.call('drift');
    const drifted = report.memories.find((m) => m.id === local);
    assert.ok(drifted, `the team memory is in the drift report: ${JSON.stringify(report.memories)}`);
    assert.equal(drifted.status, 'moved');
    assert.equal(
      drifted.claims.find((c) => c.subject === 'src/config/loader.ts')?.evidence.target,
      'src/config/settings.ts',
    );
    const status = await b.call('teamStatus');
    assert.deepEqual(
      status.stale.map((s) => [s.teamId, s.drift]),
      [[memory.id, 'moved']],
    );
    // The repair is a new version of the team file, for the team to review like the rename.
    await b.call('drift', { fix: true, ids: [local] });
    const file = bob!.read(`.engram/team/${memory.id}.md`);
    assert.match(file, /^version: 2$/m);
    assert.match(file, /Settings are read only in src\/config\/settings\.ts\./);
    // Alice pulls the merge: her own shared memory drifts the same way on her branch.
    alice!.git('pull', '-q', 'origin', 'main');
    await a.call('scan', { tokens: false });
    const hers = (await a.call('drift')).memories.find((m) => m.id === memory.id);
    assert.equal(hers?.status, 'moved');
  });

  it('lists memories proposed for sharing and files changed since the last index', async () => {
    const [alice, bob] = teamClones({ 'README.md': '# app\n' }, ['alice', 'bob']);
    const a = await alice!.host();
    const b = await bob!.host();
    const proposed = await a.call('remember', { content: 'Run migrations before seeding the database.' });
    await a.call('teamPropose', { id: proposed.memory.id });
    await a.call('remember', { content: 'A private note nobody proposed.' });
    let status = await a.call('teamStatus');
    assert.deepEqual(
      status.proposed.map((p) => p.memoryId),
      [proposed.memory.id],
    );
    await a.call('teamShare', { id: proposed.memory.id });
    status = await a.call('teamStatus');
    assert.deepEqual(status.proposed, [], 'a shared memory is no longer proposed');
    assert.deepEqual(status.changedUpstream, [], 'what this clone wrote did not come from upstream');
    assert.ok(!(await a.call('get', { id: proposed.memory.id })).memory.tags.includes('team-proposed'));
    alice!.commit('share');
    alice!.git('push', '-q', 'origin', 'main');
    // Bob's host is running while he pulls: the files changed, the index has not seen them yet.
    bob!.git('pull', '-q', 'origin', 'main');
    status = await b.call('teamStatus');
    assert.deepEqual(status.pending, [
      { teamId: proposed.memory.id, file: `.engram/team/${proposed.memory.id}.md`, change: 'added' },
    ]);
    await b.call('teamSync');
    status = await b.call('teamStatus');
    assert.deepEqual(status.pending, []);
    assert.deepEqual(
      status.changedUpstream.map((c) => [c.teamId, c.change]),
      [[proposed.memory.id, 'added']],
    );
    // A file that is not a team memory is reported with its reason, and indexed once fixed.
    writeFileSync(path.join(bob!.root, '.engram/team/m_broken.md'), 'no front matter\n');
    const entry = (id: string, layer: string, text: string) =>
      `---\nid: ${id}\nversion: 1\nkind: fact\nlayer: ${layer}\ntags: []\nvalid_from: 2026-01-01T00:00:00Z\n---\n\n${text}\n`;
    // A layer the team does not share, and a text longer than a memory may be.
    writeFileSync(path.join(bob!.root, '.engram/team/m_working.md'), entry('m_working', 'working', 'a note'));
    writeFileSync(
      path.join(bob!.root, '.engram/team/m_huge.md'),
      entry('m_huge', 'semantic', 'x'.repeat(40_000)),
    );
    writeFileSync(
      path.join(bob!.root, '.engram/team/m_fine.md'),
      entry('m_fine', 'semantic', 'Caches expire hourly.'),
    );
    const sync = await b.call('teamSync');
    assert.deepEqual(sync.added, ['m_fine'], 'the good file is indexed beside the bad ones');
    assert.deepEqual(
      sync.errors.map((e) => e.message),
      [
        '.engram/team/m_broken.md: expected front matter starting with "---"',
        '.engram/team/m_working.md: layer must be one of episodic, semantic, procedural, got "working"',
        '.engram/team/m_huge.md: content is 40000 characters; the limit is 32768',
      ],
    );
  });
});

describe('git team memories are never evidence for drift', () => {
  it('a config key gone from the code is stale, though the committed team file still names it', async () => {
    const [alice] = teamClones(
      { 'config/default.json': '{\n  "server": { "port": 8080, "host": "0.0.0.0" }\n}\n' },
      ['alice'],
    );
    const a = await alice!.host();
    const { memory } = await a.call('remember', {
      content: 'The `server.port` key picks the port we listen on.',
    });
    await a.call('teamShare', { id: memory.id });
    alice!.commit('share the port memory');
    alice!.clock.advance(60_000);
    alice!.commit('drop the port key', {
      write: { 'config/default.json': '{\n  "server": { "host": "0.0.0.0" }\n}\n' },
    });
    const report = await a.call('drift');
    const drifted = report.memories.find((m) => m.id === memory.id);
    assert.ok(drifted, `the memory drifted: ${JSON.stringify(report.memories)}`);
    assert.equal(drifted.claims.find((c) => c.subject === 'server.port')?.verdict, 'stale');
  });
});
