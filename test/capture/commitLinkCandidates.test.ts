import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { linkCommits } from '../../engine/capture/link/commitLinks';
import type { MemoryStore } from '../../engine/memory/memoryStore';
import { GitRepository } from '../drift/gitRepository';
import { openTestHost } from '../support/host';
import { tempDir } from '../support/temp';
import { claudeEditSession, ingestEditSession } from './editSession';
import type { SessionStep } from './editSession';

// Which commits may carry a session's edits (found on entireio/cli's tuning half, see
// docs/benchmarks.md "Commit links, held out"): not one written before the session, not one weeks
// after it, not one whose shared lines the file already had; and an old session is not crowded out.

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;
const S1 = 'bbbb0000-1111-4a2b-9c3d-00000000000b';
const S2 = 'cccc0000-1111-4a2b-9c3d-00000000000c';
const iso = (ms: number) => new Date(ms).toISOString();

async function withSession(repo: GitRepository, start: number, steps: SessionStep[], id = S1) {
  const t = await openTestHost();
  await ingestEditSession(
    t.host.store,
    tempDir(),
    repo.root,
    id,
    claudeEditSession(id, repo.root, 'main', start, steps),
  );
  return t;
}

const linked = (store: MemoryStore, session = S1) =>
  store.read((r) =>
    r
      .all<{
        commit_sha: string;
      }>('SELECT DISTINCT commit_sha FROM capture_commit_links WHERE session_id = ? ORDER BY commit_sha', [
        session,
      ])
      .map((l) => l.commit_sha),
  );

const RETRY = [
  'export const RETRIES = 5;',
  'export const BACKOFF_MS = 250;',
  'export const MAX_BACKOFF_MS = 8_000;',
  'export const JITTER = true;',
];

test('a commit authored before the session, rebased while it ran, is not the session’s', async () => {
  const repo = new GitRepository();
  const start = Date.now() - HOUR;
  repo.commit('Start', iso(start - 3 * DAY), { write: { 'README.md': 'retries\n' } });
  repo.git('checkout', '-q', '-b', 'feature');
  // Yesterday's work on the branch, before the session.
  repo.commit('Add retry settings', iso(start - DAY), {
    write: { 'src/retry.ts': `${RETRY.join('\n')}\n` },
  });
  // The session reads the file and writes it whole with one more setting.
  const t = await withSession(repo, start, [
    { user: 'Add a timeout to the retry settings.' },
    { write: 'src/retry.ts', content: [...RETRY, 'export const TIMEOUT_MS = 30_000;', ''].join('\n') },
  ]);
  // Meanwhile main moved on; the branch is rebased: its old commit gets a new committer date.
  repo.git('checkout', '-q', 'main');
  repo.commit('Update the README', iso(Date.now() - 30 * 60_000), { write: { 'README.md': 'retry\n' } });
  repo.git('checkout', '-q', 'feature');
  repo.git('rebase', '-q', 'main');
  const rebased = repo.git('rev-parse', 'HEAD');
  assert.ok(
    Number(repo.git('show', '-s', '--format=%ct', rebased)) * 1000 >= start,
    'committed in the session',
  );
  await linkCommits(t.host.store, repo.root, [S1], Date.now());
  assert.deepEqual(linked(t.host.store), [], 'the rebased commit was written a day before the session');
  await t.host.close();
});

test('a commit weeks after the session, past the time a live capture relinks it, is not linked', async () => {
  const repo = new GitRepository();
  const start = Date.now() - 40 * DAY;
  repo.commit('Start', iso(start - DAY), { write: { 'src/config.ts': 'export const config = {};\n' } });
  const t = await withSession(repo, start, [
    { user: 'Add the retry settings and a timeout.' },
    { write: 'src/retry.ts', content: `${RETRY.join('\n')}\n` },
    { write: 'src/timeout.ts', content: 'export const TIMEOUT_MS = 30_000;\n' },
  ]);
  const own = repo.commit('Add a timeout', iso(start + DAY), {
    write: { 'src/timeout.ts': 'export const TIMEOUT_MS = 30_000;\n' },
  });
  // The retry settings were left uncommitted; someone writes them three weeks later.
  repo.commit('Retry settings', iso(start + 21 * DAY), {
    write: { 'src/retry.ts': `${RETRY.join('\n')}\n` },
  });
  await linkCommits(t.host.store, repo.root, [S1], Date.now());
  assert.deepEqual(linked(t.host.store), [own]);
  await t.host.close();
});

test('a commit whose shared lines the file already had (a copied test set-up) is not the session’s', async () => {
  const repo = new GitRepository();
  const start = Date.now() - HOUR;
  const leapTest = (year: number, leap: boolean) =>
    [
      `test('leap ${year}', () => {`,
      "  const calendar = new Calendar('gregorian');",
      `  const result = calendar.isLeap(${year});`,
      `  expect(result).toBe(${leap});`,
      '});',
      '',
    ].join('\n');
  repo.commit('Test leap years', iso(start - DAY), { write: { 'src/dates.test.ts': leapTest(2000, true) } });
  const t = await withSession(repo, start, [
    { user: 'Test 1900 too.' },
    { edit: 'src/dates.test.ts', old: '});', new: `});\n${leapTest(1900, false)}` },
  ]);
  // Someone else adds a test for 2100 first: its set-up line is a copy of the one above it.
  const other = repo.commit('Test 2100', iso(start + 10 * 60_000), {
    write: { 'src/dates.test.ts': leapTest(2000, true) + leapTest(2100, false) },
  });
  const own = repo.commit('Test 1900', iso(start + 20 * 60_000), {
    write: { 'src/dates.test.ts': leapTest(2000, true) + leapTest(2100, false) + leapTest(1900, false) },
  });
  await linkCommits(t.host.store, repo.root, [S1], Date.now());
  assert.deepEqual(linked(t.host.store), [own], `not ${other}`);
  await t.host.close();
});

/** `count` commits on main, each changing `file`, one a minute from `from`, in one fast-import. */
function manyCommits(repo: GitRepository, file: string, count: number, from: number): void {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const message = `Tune ${i}\n`;
    const content = `export const LEVEL = ${i};\n`;
    parts.push(
      'commit refs/heads/main',
      `committer Dev <dev@example.com> ${Math.floor((from + i * 60_000) / 1000)} +0000`,
      `data ${Buffer.byteLength(message)}`,
      message,
      ...(i === 0 ? ['from refs/heads/main^0'] : []),
      `M 100644 inline ${file}`,
      `data ${Buffer.byteLength(content)}`,
      content,
    );
  }
  const run = spawnSync('git', ['fast-import', '--quiet'], {
    cwd: repo.root,
    input: `${parts.join('\n')}\n`,
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
}

test('an old session is linked alongside a recent one whose file has hundreds of later commits', async () => {
  const repo = new GitRepository();
  const first = Date.now() - 10 * DAY;
  repo.commit('Start', iso(first - DAY), { write: { 'src/level.ts': 'export const LEVEL = 0;\n' } });
  const t = await withSession(repo, first, [
    { user: 'Add the retry settings.' },
    { write: 'src/retry.ts', content: `${RETRY.join('\n')}\n` },
  ]);
  const own = repo.commit('Retry settings', iso(first + HOUR), {
    write: { 'src/retry.ts': `${RETRY.join('\n')}\n` },
  });
  const second = Date.now() - 12 * HOUR;
  await ingestEditSession(
    t.host.store,
    tempDir(),
    repo.root,
    S2,
    claudeEditSession(S2, repo.root, 'main', second, [
      { user: 'Raise the level.' },
      { edit: 'src/level.ts', old: 'export const LEVEL = 0;', new: 'export const LEVEL = 1;' },
    ]),
  );
  // More commits of the recent session's file than one question to git reads (MAX_COMMITS).
  manyCommits(repo, 'src/level.ts', 510, second + 60_000);
  await linkCommits(t.host.store, repo.root, [S1, S2], Date.now());
  assert.deepEqual(linked(t.host.store, S1), [own]);
  await t.host.close();
});
