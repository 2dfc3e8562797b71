import assert from 'node:assert/strict';
import { test } from 'node:test';
import { linkCommits } from '../../engine/capture/link/commitLinks';
import { GitRepository } from '../drift/gitRepository';
import { openTestHost } from '../support/host';
import { tempDir } from '../support/temp';
import { claudeEditSession, ingestEditSession } from './editSession';

const SESSION = 'bbbb0000-1111-4a2b-9c3d-00000000000b';

test("a session's detail: the commit that carries its edits, the files it changed (not read), its commands", async () => {
  const repo = new GitRepository();
  repo.commit('Add dates', '2026-01-05T10:00:00Z', { write: { 'src/dates.ts': 'export const a = 1;\n' } });
  const t = await openTestHost();
  const store = t.host.store;
  const text = claudeEditSession(SESSION, repo.root, 'main', Date.now() - 10 * 60_000, [
    { user: 'Add a limit and its test.' },
    {
      write: 'src/limit.ts',
      content: 'export const LIMIT = 5;\nexport const allow = (n: number) => n < LIMIT;\n',
    },
    { edit: 'src/dates.ts', old: 'export const a = 1;', new: 'export const a = 2;' },
    {
      write: 'src/limit.ts',
      content: 'export const LIMIT = 6;\nexport const allow = (n: number) => n < LIMIT;\n',
    },
    { bash: 'npm test', exit: 1 },
    { bash: 'npm test -- --update', exit: 0 },
  ]);
  await ingestEditSession(store, tempDir(), repo.root, SESSION, text);
  const sha = repo.commit('Add a limit', new Date().toISOString(), {
    write: {
      'src/limit.ts': 'export const LIMIT = 6;\nexport const allow = (n: number) => n < LIMIT;\n',
      'src/dates.ts': 'export const a = 2;\n',
    },
  });
  await linkCommits(store, repo.root, [SESSION], Date.now());

  const detail = await t.call('captureSessionDetail', { session: SESSION.slice(0, 8) });
  assert.equal(detail.session, SESSION, 'a prefix names the session');
  assert.deepEqual(
    detail.commits.map((c) => [c.sha, c.subject]),
    [[sha, 'Add a limit']],
  );
  assert.deepEqual(
    detail.files.map((f) => [f.path.replace(`${repo.root}/`, ''), f.action]),
    [
      ['src/limit.ts', 'create'],
      ['src/dates.ts', 'edit'],
    ],
    'each changed file once, in the order first touched',
  );
  assert.deepEqual(
    detail.commands.map((c) => [c.command, c.exitCode]),
    [
      ['npm test', 1],
      ['npm test -- --update', 0],
    ],
  );
  await assert.rejects(t.call('captureSessionDetail', { session: 'nope' }), /no captured session "nope"/);
});
