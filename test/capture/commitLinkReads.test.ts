import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { linesBefore, linkCommits } from '../../engine/capture/link/commitLinks';
import { commitsSince } from '../../engine/capture/link/gitCommits';
import { sessionEdits } from '../../engine/capture/link/sessionEdits';
import type { MemoryStore } from '../../engine/memory/memoryStore';
import { catFiles } from '../../engine/gitCatFile';
import { GitRepository } from '../drift/gitRepository';
import { openTestHost } from '../support/host';
import { tempDir } from '../support/temp';
import { claudeEditSession, ingestEditSession } from './editSession';

// How the commit linker reads the files before a commit (linesBefore, one `git cat-file --batch`
// per session): what it keeps of them, and what a failure of git does to a session's links.

const HOUR = 60 * 60_000;
const S1 = 'dddd0000-1111-4a2b-9c3d-00000000000d';
const iso = (ms: number) => new Date(ms).toISOString();

/** A test file of `count` cases before the session; the session adds one more, its set-up copied. */
const cases = (count: number) =>
  Array.from(
    { length: count },
    (_, i) =>
      `test('case ${i}', () => {\n  const calendar = new Calendar('gregorian');\n  expect(calendar.isLeap(${1600 + i})).toBe(${i % 4 === 0});\n});\n`,
  ).join('');
const ADDED =
  "test('case 1900', () => {\n  const calendar = new Calendar('gregorian');\n  expect(calendar.isLeap(1900)).toBe(false);\n});\n";

const LAST = '  expect(calendar.isLeap(1799)).toBe(false);\n});\n';

/** A repository whose test file has 200 cases, a session that adds one, and its commit. */
async function committedSession(workspace = '') {
  const repo = new GitRepository();
  const root = path.join(repo.root, workspace);
  const start = Date.now() - HOUR;
  const file = path.join(workspace, 'src/dates.test.ts');
  repo.commit('Test leap years', iso(start - HOUR), { write: { [file]: cases(200) } });
  const t = await openTestHost();
  await ingestEditSession(
    t.host.store,
    tempDir(),
    root,
    S1,
    claudeEditSession(S1, root, 'main', start, [
      { user: 'Test 1900 too.' },
      { edit: 'src/dates.test.ts', old: LAST, new: LAST + ADDED },
    ]),
  );
  const sha = repo.commit('Test 1900', iso(start + 10 * 60_000), { write: { [file]: cases(200) + ADDED } });
  return { repo, root, store: t.host.store, close: () => t.host.close(), sha, start };
}

const KEPT = ["const calendar = new Calendar('gregorian');", 'expect(calendar.isLeap(1799)).toBe(false);'];
const edits = (store: MemoryStore) => store.read((r) => sessionEdits(r, S1));

/** Makes the loose object of `object` unreadable: what a disk error or a broken copy leaves. */
function corrupt(repo: GitRepository, object: string): void {
  const oid = repo.git('rev-parse', object);
  const file = path.join(repo.root, '.git', 'objects', oid.slice(0, 2), oid.slice(2));
  chmodSync(file, 0o644);
  writeFileSync(file, 'not a git object');
}

const storedLinks = (store: MemoryStore) =>
  store.read((r) =>
    r.all<{ commit_sha: string }>('SELECT commit_sha FROM capture_commit_links WHERE session_id = ?', [S1]),
  );

test('a folder among the objects read does not shift the files after it', async () => {
  const repo = new GitRepository();
  repo.commit('Start', iso(Date.now() - HOUR), {
    write: { 'src/a.ts': 'export const a = 1;\n', 'b.ts': 'b\n' },
  });
  // git answers a folder with its tree's bytes: they must be skipped, not read as the next header.
  assert.deepEqual(await catFiles(repo.root, ['HEAD:src', 'HEAD:b.ts', 'HEAD:gone.ts']), [
    undefined,
    'b\n',
    undefined,
  ]);
});

test('of the file before a commit, only the lines the commit or the session added are kept', async () => {
  const s = await committedSession();
  const commits = (await commitsSince(s.root, ['HEAD'], s.start, ['src/dates.test.ts'])) ?? [];
  const before = await linesBefore(s.root, edits(s.store), commits);
  // 200 cases before it: of their 600 lines, the set-up line the new case repeats and the last
  // case's line, which the session's edit replaced with itself.
  assert.deepEqual([...(before?.get(`${s.sha}:src/dates.test.ts`) ?? [])], KEPT);
  await s.close();
});

test('the file before a commit is read in a workspace that is a folder of the repository', async () => {
  const s = await committedSession('packages/dates');
  const commits = (await commitsSince(s.root, ['HEAD'], s.start, ['src/dates.test.ts'])) ?? [];
  assert.equal(commits.length, 1);
  const before = await linesBefore(s.root, edits(s.store), commits);
  assert.deepEqual([...(before?.get(`${s.sha}:src/dates.test.ts`) ?? [])], KEPT);
  await s.close();
});

test('a file git cannot read before a commit is unknown, not empty', async () => {
  const s = await committedSession();
  const commits = (await commitsSince(s.root, ['HEAD'], s.start, ['src/dates.test.ts'])) ?? [];
  assert.equal(commits.length, 1);
  corrupt(s.repo, `${s.sha}^:src/dates.test.ts`);
  // Empty would count the copied set-up line as the commit's new line, and the session's.
  assert.equal(await linesBefore(s.root, edits(s.store), commits), undefined);
  await s.close();
});

test('a session whose commits git cannot read keeps its links, and the run says so', async () => {
  const s = await committedSession();
  assert.deepEqual(await linkCommits(s.store, s.root, [S1], Date.now()), {
    changed: [S1],
    links: 1,
    unread: 0,
  });
  corrupt(s.repo, `${s.sha}^:src/dates.test.ts`);
  const report = await linkCommits(s.store, s.root, [S1], Date.now());
  assert.deepEqual(report, { changed: [], links: 1, unread: 1 });
  assert.deepEqual(storedLinks(s.store), [{ commit_sha: s.sha }]);
  await s.close();
});

test('outside a repository nothing is linked and nothing counts as unread', async () => {
  const s = await committedSession();
  const elsewhere = tempDir();
  assert.deepEqual(await linkCommits(s.store, elsewhere, [S1], Date.now()), {
    changed: [],
    links: 0,
    unread: 0,
  });
  await s.close();
});
