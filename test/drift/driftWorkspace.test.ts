import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { extractClaims } from '../../engine/drift/claimExtractor';
import { openTestHost } from '../support/host';
import { tempDir } from '../support/temp';
import { driftHost, fixAccepted, rememberAt } from './driftHost';
import { GitRepository, shallowClone } from './gitRepository';

const T1 = '2025-01-10T12:00:00Z';
const BEFORE_CHANGE = '2025-02-01T00:00:00Z';
const T2 = '2025-03-01T12:00:00Z';

describe('drift claims', () => {
  it('extracts paths with line numbers, symbols with their file, scripts, env vars, routes and negated claims with spans', () => {
    const text =
      'Auth lives in src/auth/login.ts:42; `validateToken()` is in `src/auth/token.ts`. Run `npm run build`, set DATABASE_URL. The /admin endpoint was removed. There is no Redux.';
    const claims = extractClaims(text);
    const summary = claims.map((c) => [c.kind, c.subject, c.negated, text.slice(c.span[0], c.span[1])]);
    assert.deepEqual(summary, [
      ['path', 'src/auth/login.ts', false, 'src/auth/login.ts'],
      ['symbol', 'validateToken', false, 'validateToken()'],
      ['path', 'src/auth/token.ts', false, 'src/auth/token.ts'],
      ['script', 'build', false, 'build'],
      ['env', 'DATABASE_URL', false, 'DATABASE_URL'],
      ['route', '/admin', true, '/admin'],
      ['dependency', 'redux', true, 'Redux'],
    ]);
    assert.equal(claims[0]?.line, 42);
    assert.equal(claims[1]?.file, 'src/auth/token.ts');
  });
});

describe('drift in the workspace', () => {
  it('works on a shallow clone: a path gone is stale, the history note says why no commit is named', async () => {
    const origin = new GitRepository();
    origin.commit('initial', T1, {
      write: { 'src/old.ts': 'export const x = 1;\n', 'src/keep.ts': 'export const k = 1;\n' },
    });
    origin.commit('Remove old', T2, { remove: ['src/old.ts'] });
    const clone = shallowClone(origin.root);
    const test = await driftHost(clone.root);
    const id = await rememberAt(test, 'Legacy code is in src/old.ts next to src/keep.ts', BEFORE_CHANGE);
    const report = await test.call('drift');
    assert.equal(report.history.shallow, true);
    assert.match(report.history.note, /shallow clone/);
    const memory = report.memories.find((m) => m.id === id);
    assert.equal(memory?.status, 'stale');
    assert.match(memory?.claims[0]?.evidence.reason ?? '', /shallow clone/);
    assert.equal(memory?.claims[0]?.evidence.commit, undefined);
  });

  it('works without git: filesystem only, said so', async () => {
    const root = tempDir('engram-nogit-');
    mkdirSync(path.join(root, 'src'));
    writeFileSync(path.join(root, 'src/here.ts'), 'export function present() {}\n');
    const test = await driftHost(root);
    const id = await rememberAt(test, 'See src/here.ts and src/gone.ts; `present()` does it', BEFORE_CHANGE);
    const report = await test.call('drift', { all: true });
    assert.equal(report.history.git, false);
    assert.match(report.history.note, /no git repository: filesystem/);
    const claims = report.memories.find((m) => m.id === id)?.claims ?? [];
    assert.deepEqual(
      claims.map((c) => [c.subject, c.verdict]),
      [
        ['src/here.ts', 'ok'],
        ['src/gone.ts', 'stale'],
        ['present', 'ok'],
      ],
    );
    assert.match(claims[1]?.evidence.reason ?? '', /filesystem only/);
  });

  it('handles paths with spaces and non-ASCII letters, through a rename', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, { write: { 'docs/my notes.md': '# notes\n', 'docs/résumé.md': '# cv\n' } });
    const renaming = repo.commit('Rename docs', T2, {
      rename: [
        ['docs/my notes.md', 'docs/team notes.md'],
        ['docs/résumé.md', 'docs/curriculum/résumé.md'],
      ],
    });
    const test = await driftHost(repo.root);
    const id = await rememberAt(
      test,
      'Decisions are in `docs/my notes.md`; the CV is docs/résumé.md',
      BEFORE_CHANGE,
    );
    const memory = (await test.call('drift')).memories.find((m) => m.id === id);
    assert.deepEqual(
      memory?.claims.map((c) => [c.subject, c.verdict, c.evidence.target, c.evidence.commit?.hash]),
      [
        ['docs/my notes.md', 'moved', 'docs/team notes.md', renaming],
        ['docs/résumé.md', 'moved', 'docs/curriculum/résumé.md', renaming],
      ],
    );
    await fixAccepted(test);
    assert.equal(
      (await test.call('get', { id })).memory.content,
      'Decisions are in `docs/team notes.md`; the CV is docs/curriculum/résumé.md',
    );
  });

  it('refuses claims pointing outside the workspace, the same whether or not the target exists', async () => {
    const outside = tempDir('engram-outside-');
    writeFileSync(path.join(outside, 'secret.ts'), 'export const secret = 1;\n');
    const repo = new GitRepository();
    repo.commit('initial', T1, { write: { 'src/a.ts': 'export const a = 1;\n' } });
    symlinkSync(outside, path.join(repo.root, 'linked'));
    const test = await driftHost(repo.root);
    const id = await rememberAt(
      test,
      `Keys are in ${outside}/secret.ts and ${outside}/nothing.ts, in ~/.ssh/config, in ../elsewhere/x.ts and in linked/secret.ts`,
      BEFORE_CHANGE,
    );
    const report = await test.call('drift', { all: true });
    const claims = report.memories.find((m) => m.id === id)?.claims ?? [];
    assert.equal(claims.length, 5);
    for (const claim of claims) {
      assert.equal(claim.verdict, 'unverifiable', claim.subject);
      assert.match(claim.evidence.reason, /^refused: .*never read$/, claim.subject);
    }
    assert.equal(claims[0]?.evidence.reason, claims[1]?.evidence.reason);
  });

  it('says what was wrong: no workspace, dryRun without fix, bad paths', async () => {
    const bare = await openTestHost();
    await assert.rejects(bare.call('drift'), /drift needs a workspace/);
    await bare.host.close();
    const repo = new GitRepository();
    repo.commit('initial', T1, { write: { 'a.txt': 'a\n' } });
    const test = await driftHost(repo.root);
    await assert.rejects(test.call('drift', { dryRun: true }), /dryRun needs fix/);
    await assert.rejects(test.call('drift', { paths: 'a.txt' }), /paths must be a list of text/);
  });
});
