import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { teamClones } from './teamClones';

const FILES = { 'src/config/loader.ts': 'export function loadConfig() {}\n', 'README.md': '# app\n' };

describe('git team memories: share, pull, index', () => {
  it('engram team share writes one readable file per memory, which a teammate pulls and recalls as a team memory', async () => {
    const [alice, bob] = teamClones(FILES, ['alice', 'bob']);
    const a = await alice!.host();
    const { memory } = await a.call('remember', {
      content:
        'We decided to load settings only through src/config/loader.ts, never from process.env directly.',
      kind: 'decision',
      tags: ['config'],
    });
    const shared = await a.call('teamShare', { id: memory.id });
    assert.equal(shared.outcome, 'written');
    assert.equal(shared.file, `.engram/team/${memory.id}.md`);
    const text = alice!.read(shared.file);
    assert.equal(text, shared.text);
    for (const line of [
      '---',
      `id: ${memory.id}`,
      'version: 1',
      'kind: decision',
      'layer: semantic',
      'tags: ["config"]',
      'valid_from: 2026-01-15T10:00:00.000Z',
      'valid_to:',
      'author: alice',
      'supersedes: []',
    ])
      assert.ok(text.split('\n').includes(line), `the front matter holds "${line}":\n${text}`);
    assert.match(text, /^claims: \[.*"path src\/config\/loader\.ts".*\]$/m);
    assert.match(text, /\n---\n\nWe decided to load settings only through src\/config\/loader\.ts/);
    // The database stays out of git; the team file is the only thing to commit.
    assert.equal(alice!.git('status', '--porcelain', '--untracked-files=all'), `?? ${shared.file}`);
    const local = await a.call('get', { id: memory.id });
    assert.deepEqual(local.memory.tags, ['config', 'team'], 'the shared memory is marked as a team memory');
    // Sharing again writes nothing new.
    assert.equal((await a.call('teamShare', { id: memory.id })).outcome, 'unchanged');

    alice!.commit('share the config decision');
    alice!.git('push', '-q', 'origin', 'main');
    bob!.git('pull', '-q', 'origin', 'main');
    const b = await bob!.host();
    const hits = await b.call('recall', { query: 'where are settings loaded' });
    const hit = hits.hits.find((r) => r.memory.content.startsWith('We decided to load settings'));
    assert.ok(hit, 'the teammate recalls the team memory');
    assert.deepEqual(hit.memory.tags, ['config', 'team']);
    assert.equal(hit.memory.kind, 'decision');
    assert.equal(hit.memory.validFrom, Date.parse('2026-01-15T10:00:00Z'));
    const status = await b.call('teamStatus');
    assert.deepEqual(
      status.changedUpstream.map((c) => [c.teamId, c.change]),
      [[memory.id, 'added']],
    );
    assert.deepEqual(status.pending, []);
  });

  it('indexes only files whose bytes changed, and nothing when nothing changed', async () => {
    const [alice] = teamClones(FILES, ['alice']);
    const a = await alice!.host();
    const { memory } = await a.call('remember', { content: 'Releases are cut from main on Tuesdays.' });
    await a.call('teamShare', { id: memory.id });
    const journal = () =>
      a.host.store.read((r) => r.value<string>("SELECT value FROM engram_meta WHERE key = 'journal_seq'"));
    const before = journal();
    const sync = await a.call('teamSync');
    assert.equal(sync.unchanged, 1);
    assert.deepEqual([sync.added, sync.edited, sync.retired], [[], [], []]);
    assert.equal(journal(), before, 'an index that finds nothing new writes nothing');
  });

  it('two branches that share different memories merge without a conflict, and both are indexed', async () => {
    const [alice, bob] = teamClones(FILES, ['alice', 'bob']);
    const a = await alice!.host();
    const b = await bob!.host();
    const first = await a.call('remember', { content: 'Use pnpm, not npm, in this repository.' });
    await a.call('teamShare', { id: first.memory.id });
    alice!.git('checkout', '-q', '-b', 'feature');
    alice!.commit('share the package manager');
    alice!.git('push', '-q', 'origin', 'feature');
    const second = await b.call('remember', { content: 'Integration tests need Docker running.' });
    await b.call('teamShare', { id: second.memory.id });
    bob!.commit('share the docker gotcha');
    bob!.git('fetch', '-q', 'origin');
    bob!.git('merge', '-q', '--no-edit', 'origin/feature');
    assert.deepEqual(
      bob!.git('ls-files', '.engram/team').split('\n').sort(),
      [`.engram/team/${first.memory.id}.md`, `.engram/team/${second.memory.id}.md`].sort(),
    );
    const sync = await b.call('teamSync');
    assert.deepEqual(sync.added, [first.memory.id]);
    const team = await b.call('list', { tag: 'team' });
    assert.deepEqual(team.items.map((m) => m.content).sort(), [
      'Integration tests need Docker running.',
      'Use pnpm, not npm, in this repository.',
    ]);
  });

  it('re-checks the text for secrets before writing a file', async () => {
    const [alice] = teamClones(FILES, ['alice']);
    const a = await alice!.host();
    const { memory } = await a.call('remember', {
      content: 'The staging database password is kept in the vault.',
    });
    // A memory stored before a redaction rule existed: the store redacts bound text, not SQL text.
    a.host.store.write((tx) =>
      tx.run(
        "UPDATE memories SET content = 'Staging connects with postgres://app:Sup3rS3cretPw@db.internal/app' WHERE id = ?",
        [memory.id],
      ),
    );
    await assert.rejects(a.call('teamShare', { id: memory.id }), /looks like a secret \(.+\): not shared/);
    assert.ok(!existsSync(path.join(alice!.root, '.engram/team', `${memory.id}.md`)));
  });
});
