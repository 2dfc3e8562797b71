import assert from 'node:assert/strict';
import { test } from 'node:test';
import { linkCommits } from '../../engine/capture/link/commitLinks';
import { rebuildCapture } from '../../engine/capture/rebuild';
import { summaryKey, writeSessionSummaries } from '../../engine/capture/sessionSummary';
import type { MemoryStore } from '../../engine/memory/memoryStore';
import { GitRepository } from '../drift/gitRepository';
import { openTestHost } from '../support/host';
import { tempDir } from '../support/temp';
import { claudeEditSession, ingestEditSession } from './editSession';

const SESSION = 'aaaa0000-1111-4a2b-9c3d-00000000000a';
const OLD = 'export function isLeap(year: number): boolean {\n  return year % 4 === 0;\n}\n';
const NEW =
  'export function isLeap(year: number): boolean {\n' +
  '  if (year % 400 === 0) return true;\n' +
  '  if (year % 100 === 0) return false;\n' +
  '  return year % 4 === 0;\n}\n';
const HELPER =
  "import { isLeap } from './dates';\n\nexport const daysInFebruary = (year: number) => (isLeap(year) ? 29 : 28);\n";

/**
 * A repository with src/dates.ts on main, a branch `fix/leap` checked out, and a captured Claude
 * Code session on that branch that fixed isLeap and wrote src/february.ts (not committed yet).
 */
async function sessionOnBranch() {
  const repo = new GitRepository();
  repo.commit('Add dates', '2026-01-05T10:00:00Z', {
    write: { 'src/dates.ts': OLD, 'README.md': 'dates\n' },
  });
  repo.git('checkout', '-q', '-b', 'fix/leap');
  const t = await openTestHost();
  const store = t.host.store;
  const text = claudeEditSession(SESSION, repo.root, 'fix/leap', Date.now() - 10 * 60_000, [
    { user: 'isLeap is wrong for 1900. Use the Gregorian rule, not the Julian one.' },
    { edit: 'src/dates.ts', old: '  return year % 4 === 0;', new: NEW.split('\n').slice(1, 4).join('\n') },
    { write: 'src/february.ts', content: HELPER },
    { bash: 'npm test', exit: 0 },
  ]);
  await ingestEditSession(store, tempDir(), repo.root, SESSION, text);
  return { repo, t, store };
}

const now = () => new Date().toISOString();
const links = (store: MemoryStore) =>
  store.read((r) =>
    r.all<{ commit_sha: string; path: string; lines: number; session_lines: number; subject: string }>(
      'SELECT commit_sha, path, lines, session_lines, subject FROM capture_commit_links ORDER BY path',
    ),
  );

test('a session is linked to the commit that carries its edits, file by file; an unrelated commit is not', async () => {
  const { repo, t, store } = await sessionOnBranch();
  const before = await linkCommits(store, repo.root, [SESSION], Date.now());
  assert.deepEqual(before, { changed: [], links: 0, unread: 0 }, 'nothing committed yet');

  const fix = repo.commit('Fix leap years', now(), {
    write: { 'src/dates.ts': NEW, 'src/february.ts': HELPER },
  });
  // Another change of the same file, after the session, by someone else: not the session's.
  repo.commit('Document isLeap', now(), {
    write: { 'src/dates.ts': `/** Gregorian leap years. */\n${NEW}` },
  });
  const report = await linkCommits(store, repo.root, [SESSION], Date.now());
  assert.deepEqual(report, { changed: [SESSION], links: 2, unread: 0 });
  assert.deepEqual(links(store), [
    { commit_sha: fix, path: 'src/dates.ts', lines: 2, session_lines: 3, subject: 'Fix leap years' },
    { commit_sha: fix, path: 'src/february.ts', lines: 2, session_lines: 2, subject: 'Fix leap years' },
  ]);

  // The summary memory names the commit.
  assert.equal(await writeSessionSummaries(store, [SESSION]), 1);
  const summary = store.read((r) =>
    r.value<string>("SELECT content FROM memories WHERE conflict_key = ? AND status = 'active'", [
      summaryKey(SESSION),
    ]),
  );
  assert.match(summary ?? '', new RegExp(`Commits: ${fix.slice(0, 7)} "Fix leap years"\\.$`));

  // Linking again changes nothing; the links are made again from the ledger by a rebuild.
  assert.deepEqual(await linkCommits(store, repo.root, [SESSION], Date.now()), {
    changed: [],
    links: 2,
    unread: 0,
  });
  const kept = links(store);
  store.write((tx) => tx.run('DELETE FROM capture_commit_links'));
  const rebuilt = await rebuildCapture(store, repo.root);
  assert.equal(rebuilt.links, 2);
  assert.deepEqual(links(store), kept);
  await t.host.close();
});

test('a line goes to the first commit that carries it: a later re-add of the same lines is not the session’s', async () => {
  const { repo, t, store } = await sessionOnBranch();
  const fix = repo.commit('Fix leap years', now(), { write: { 'src/dates.ts': NEW } });
  repo.commit('Revert the fix', now(), { write: { 'src/dates.ts': OLD } });
  repo.commit('Reapply the fix', now(), { write: { 'src/dates.ts': NEW } });
  await linkCommits(store, repo.root, [SESSION], Date.now());
  assert.deepEqual(
    links(store).map((l) => [l.commit_sha, l.path]),
    [[fix, 'src/dates.ts']],
  );
  await t.host.close();
});

test('a session that edited a file twice, committed edit by edit: each commit is linked', async () => {
  const repo = new GitRepository();
  repo.commit('Add config', '2026-01-05T10:00:00Z', {
    write: { 'src/config.ts': 'export const config = {};\n' },
  });
  const t = await openTestHost();
  const store = t.host.store;
  const timeout = 'export const TIMEOUT_MS = 30_000;';
  const retries = [
    'export const RETRIES = 5;',
    'export const BACKOFF_MS = 250;',
    'export const MAX_BACKOFF_MS = 8_000;',
    'export const JITTER = true;',
  ];
  const text = claudeEditSession(SESSION, repo.root, 'main', Date.now() - 10 * 60_000, [
    { user: 'Add a timeout, then retries.' },
    { edit: 'src/config.ts', old: 'export const config = {};', new: `export const config = {};\n${timeout}` },
    { edit: 'src/config.ts', old: timeout, new: [timeout, ...retries].join('\n') },
  ]);
  await ingestEditSession(store, tempDir(), repo.root, SESSION, text);
  const first = repo.commit('Add a timeout', now(), {
    write: { 'src/config.ts': `export const config = {};\n${timeout}\n` },
  });
  const second = repo.commit('Add retries', now(), {
    write: { 'src/config.ts': ['export const config = {};', timeout, ...retries, ''].join('\n') },
  });
  await linkCommits(store, repo.root, [SESSION], Date.now());
  assert.deepEqual(
    links(store)
      .map((l) => [l.commit_sha, l.lines])
      .sort((a, b) => Number(b[1]) - Number(a[1])),
    [
      [second, 4],
      [first, 1],
    ],
    'the first commit carries one of the five lines: all of the first edit',
  );
  await t.host.close();
});

test('a rework that keeps three of a long session’s lines among many new ones is not the session’s', async () => {
  const repo = new GitRepository();
  repo.commit('Start', '2026-01-05T10:00:00Z', { write: { 'README.md': 'months\n' } });
  const t = await openTestHost();
  const store = t.host.store;
  const months = Array.from({ length: 10 }, (_, i) => `export const MONTH_${i} = ${i} * 31;`);
  const text = claudeEditSession(SESSION, repo.root, 'main', Date.now() - 10 * 60_000, [
    { user: 'Write the month constants.' },
    { write: 'src/months.ts', content: months.join('\n') },
  ]);
  await ingestEditSession(store, tempDir(), repo.root, SESSION, text);
  // The session's file was never committed; someone else's rework keeps three of its lines
  // among twenty new ones.
  const rework = Array.from({ length: 20 }, (_, i) => `export const DAY_${i} = ${i} * 24;`);
  repo.commit('Rework the calendar', now(), {
    write: { 'src/months.ts': [...months.slice(0, 3), ...rework, ''].join('\n') },
  });
  await linkCommits(store, repo.root, [SESSION], Date.now());
  assert.deepEqual(links(store), []);
  await t.host.close();
});

test('an amended commit: the link moves to the new commit', async () => {
  const { repo, t, store } = await sessionOnBranch();
  const first = repo.commit('Fix leap years', now(), {
    write: { 'src/dates.ts': NEW, 'src/february.ts': HELPER },
  });
  await linkCommits(store, repo.root, [SESSION], Date.now());
  assert.ok(links(store).every((l) => l.commit_sha === first));
  repo.git('commit', '-q', '--amend', '-m', 'Fix leap years for centuries');
  const amended = repo.git('rev-parse', 'HEAD');
  assert.notEqual(amended, first);
  const report = await linkCommits(store, repo.root, [SESSION], Date.now());
  assert.deepEqual(report.changed, [SESSION]);
  assert.deepEqual(
    links(store).map((l) => [l.commit_sha, l.subject]),
    [
      [amended, 'Fix leap years for centuries'],
      [amended, 'Fix leap years for centuries'],
    ],
  );
  await t.host.close();
});

test('a rebased branch: the session is linked to the rebased commit, by content', async () => {
  const { repo, t, store } = await sessionOnBranch();
  const original = repo.commit('Fix leap years', now(), {
    write: { 'src/dates.ts': NEW, 'src/february.ts': HELPER },
  });
  repo.git('checkout', '-q', 'main');
  repo.commit('Update the README', now(), { write: { 'README.md': 'dates, leap years\n' } });
  repo.git('checkout', '-q', 'fix/leap');
  repo.git('rebase', '-q', 'main');
  const rebased = repo.git('rev-parse', 'HEAD');
  assert.notEqual(rebased, original);
  await linkCommits(store, repo.root, [SESSION], Date.now());
  assert.deepEqual([...new Set(links(store).map((l) => l.commit_sha))], [rebased]);
  await t.host.close();
});

test('a squash merge: the session is linked to the squashed commit on main after its branch is gone', async () => {
  const { repo, t, store } = await sessionOnBranch();
  repo.commit('Fix isLeap', now(), { write: { 'src/dates.ts': NEW } });
  repo.commit('Add daysInFebruary', now(), { write: { 'src/february.ts': HELPER } });
  repo.git('checkout', '-q', 'main');
  repo.git('merge', '-q', '--squash', 'fix/leap');
  repo.git('commit', '-q', '-m', 'Leap years (#12)');
  const squashed = repo.git('rev-parse', 'HEAD');
  repo.git('branch', '-q', '-D', 'fix/leap');
  await linkCommits(store, repo.root, [SESSION], Date.now());
  assert.deepEqual(
    links(store).map((l) => [l.commit_sha, l.path, l.lines]),
    [
      [squashed, 'src/dates.ts', 2],
      [squashed, 'src/february.ts', 2],
    ],
  );
  await t.host.close();
});
