import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { driftEvents, driftHost, memoryIn, rememberAt } from './driftHost';
import { GitRepository } from './gitRepository';

const T1 = '2025-01-10T12:00:00Z';
const BEFORE_CHANGE = '2025-02-01T00:00:00Z';
const T2 = '2025-03-01T12:00:00Z';
const T3 = '2025-04-01T12:00:00Z';

describe('drift against git history', () => {
  it('dates a memory about a deleted file at the deleting commit, with its message, and records a drift event', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: { 'src/config.ts': 'export const port = 1;\n', 'README.md': '# app\n' },
    });
    const deleting = repo.commit('Drop the config module', T2, { remove: ['src/config.ts'] });
    const test = await driftHost(repo.root);
    const id = await rememberAt(test, 'The port is set in src/config.ts', BEFORE_CHANGE);

    const report = await test.call('drift');
    const memory = memoryIn(report, id);
    assert.equal(memory.status, 'dead');
    const [claim] = memory.claims;
    assert.equal(claim?.verdict, 'stale');
    assert.equal(claim?.evidence.reason, 'deleted');
    assert.equal(claim?.evidence.commit?.hash, deleting);
    assert.equal(claim?.evidence.commit?.message, 'Drop the config module');
    assert.equal(claim?.evidence.commit?.date, '2025-03-01T12:00:00+00:00');
    assert.equal(memory.validTo, Date.parse(T2));
    assert.equal((await test.call('get', { id })).memory.validTo, Date.parse(T2));
    assert.equal(report.history.git, true);
    assert.equal(report.score, 100);
    assert.equal(driftEvents(test, id).length, 1);

    // A second check finds the same and records nothing new.
    await test.call('drift');
    assert.equal(driftEvents(test, id).length, 1);
    assert.equal((await test.call('history', { id })).versions.length, 2);
  });

  it('follows a rename (and a rename with edits) to the new path, and --fix rewrites it in a new version', async () => {
    const repo = new GitRepository();
    const body = Array.from({ length: 20 }, (_, i) => `export const line${i} = ${i};`).join('\n');
    repo.commit('initial', T1, { write: { 'src/auth.ts': `${body}\n`, 'src/db.ts': `${body}\n// db\n` } });
    const renaming = repo.commit('Move auth and db into folders', T2, {
      rename: [
        ['src/auth.ts', 'src/login/auth.ts'],
        ['src/db.ts', 'src/store/db.ts'],
      ],
      write: { 'src/store/db.ts': `${body}\n// db, now with a pool\nexport const pool = 4;\n` },
    });
    const test = await driftHost(repo.root);
    const id = await rememberAt(
      test,
      'Tokens are checked in src/auth.ts:12 and stored by src/db.ts',
      BEFORE_CHANGE,
    );

    const report = await test.call('drift');
    const memory = memoryIn(report, id);
    assert.equal(memory.status, 'moved');
    assert.deepEqual(
      memory.claims.map((c) => [c.subject, c.verdict, c.evidence.target, c.evidence.commit?.hash]),
      [
        ['src/auth.ts', 'moved', 'src/login/auth.ts', renaming],
        ['src/db.ts', 'moved', 'src/store/db.ts', renaming],
      ],
    );
    assert.equal(memory.claims[0]?.line, 12);

    const dry = await test.call('drift', { fix: true, dryRun: true });
    assert.equal(
      dry.fix?.actions[0]?.content,
      'Tokens are checked in src/login/auth.ts:12 and stored by src/store/db.ts',
    );
    assert.equal((await test.call('get', { id })).memory.version, 1, 'a dry run changes nothing');

    // A human's memory is only proposed for rewriting: its text stays until the user accepts.
    const proposed = await test.call('drift', { fix: true });
    assert.equal(proposed.fix?.actions[0]?.action, 'review');
    assert.match(proposed.fix?.actions[0]?.reason ?? '', /^proposed rewrite/);
    assert.equal(
      proposed.fix?.actions[0]?.content,
      'Tokens are checked in src/login/auth.ts:12 and stored by src/store/db.ts',
    );
    assert.equal((await test.call('get', { id })).memory.version, 1, 'not rewritten without consent');

    const fixed = await test.call('drift', { fix: true, ids: [id] });
    assert.equal(fixed.fix?.dryRun, false);
    const { memory: now } = await test.call('get', { id });
    assert.equal(now.content, 'Tokens are checked in src/login/auth.ts:12 and stored by src/store/db.ts');
    const { versions } = await test.call('history', { id });
    assert.equal(versions[0]?.content, 'Tokens are checked in src/auth.ts:12 and stored by src/db.ts');
    const after = await test.call('drift', { all: true });
    assert.equal(after.memories.find((m) => m.id === id)?.status, 'ok');
  });

  it('attributes a removed symbol to the commit that removed it (pickaxe on the file it lived in)', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: {
        'src/tax.ts':
          'export function computeTax(amount) {\n  return amount * 0.2;\n}\nexport const rate = 1;\n',
      },
    });
    repo.commit('unrelated', '2025-02-15T00:00:00Z', { write: { 'README.md': 'hello\n' } });
    const removing = repo.commit('Remove computeTax', T2, {
      write: { 'src/tax.ts': 'export const rate = 1;\n' },
    });
    const test = await driftHost(repo.root);
    const id = await rememberAt(test, 'Invoices call `computeTax()` in src/tax.ts', BEFORE_CHANGE);

    const memory = memoryIn(await test.call('drift'), id);
    const symbol = memory.claims.find((c) => c.kind === 'symbol');
    assert.equal(symbol?.subject, 'computeTax');
    assert.equal(symbol?.file, 'src/tax.ts');
    assert.equal(symbol?.verdict, 'stale');
    assert.equal(symbol?.evidence.commit?.hash, removing);
    assert.equal(memory.status, 'stale', 'the file still exists: one claim holds, one does not');
    assert.equal(memory.suggestion, 'review');
    const fixed = await test.call('drift', { fix: true });
    assert.equal(fixed.fix?.actions[0]?.action, 'review');
    const { annotations } = await test.call('get', { id });
    assert.match(annotations[0]?.text ?? '', /computeTax: missing from the code/);
    await test.call('drift', { fix: true, ids: [id] });
    assert.equal((await test.call('get', { id })).annotations.length, 1, 'flagged once per content');
  });

  it('finds a symbol that moved to another file, and --fix names the new file', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: {
        'src/a.ts': 'export function parseDate(s) {\n  return new Date(s);\n}\n',
        'src/b.ts': 'export const b = 1;\n',
      },
    });
    const moving = repo.commit('Move parseDate to b', T2, {
      write: {
        'src/a.ts': 'export const a = 1;\n',
        'src/b.ts': 'export const b = 1;\nexport function parseDate(s) {\n  return new Date(s);\n}\n',
      },
    });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const id = await rememberAt(test, 'Dates are read by `parseDate` in `src/a.ts`.', BEFORE_CHANGE);

    const memory = memoryIn(await test.call('drift'), id);
    const symbol = memory.claims.find((c) => c.kind === 'symbol');
    assert.equal(symbol?.verdict, 'moved');
    assert.equal(symbol?.evidence.target, 'src/b.ts');
    assert.equal(symbol?.evidence.commit?.hash, moving);
    await test.call('drift', { fix: true, ids: [id] });
    assert.equal(
      (await test.call('get', { id })).memory.content,
      'Dates are read by `parseDate` in `src/b.ts`.',
    );
  });

  it("a file the repository never had is the reader's: the name is checked without it", async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: { 'src/links.ts': 'export function NavLink(p) {\n  return p;\n}\n' },
    });
    repo.commit('Touch links', T2, {
      write: { 'src/links.ts': 'export function NavLink(p) {\n  return p.to;\n}\n' },
    });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const id = await rememberAt(
      test,
      'Replace your `NavLink` in `src/routes/invoices.jsx` with ours.',
      BEFORE_CHANGE,
    );
    const claims = (await test.call('drift', { all: true })).memories.find((m) => m.id === id)?.claims ?? [];
    const symbol = claims.find((c) => c.kind === 'symbol');
    assert.notEqual(symbol?.verdict, 'moved', JSON.stringify(claims));
    assert.notEqual(symbol?.verdict, 'stale', JSON.stringify(claims));
  });

  it('notices a dropped package script, a dropped dependency and a denied dependency that arrived', async () => {
    const repo = new GitRepository();
    const pkg = (scripts: object, dependencies: object) =>
      JSON.stringify({ name: 'app', scripts, dependencies }, null, 2);
    repo.commit('initial', T1, {
      write: {
        'package.json': pkg({ build: 'tsc', lint: 'eslint .' }, { lodash: '^4.17.21', express: '4.19.2' }),
      },
    });
    const change = repo.commit('Switch to biome, drop lodash, add redux', T2, {
      write: { 'package.json': pkg({ build: 'tsc' }, { express: '4.19.2', redux: '^5.0.0' }) },
    });
    const test = await driftHost(repo.root);
    const lint = await rememberAt(
      test,
      'Run `npm run lint` before pushing; `npm run build` makes dist.',
      BEFORE_CHANGE,
    );
    const lodash = await rememberAt(test, 'Collections use lodash@4.17.21 helpers.', BEFORE_CHANGE);
    const redux = await rememberAt(
      test,
      'There is no Redux in this project: state lives in React context.',
      BEFORE_CHANGE,
    );
    const express = await rememberAt(test, 'The server is built on express@4.19.2.', BEFORE_CHANGE);

    const report = await test.call('drift', { all: true });
    const lintClaims = memoryIn(report, lint).claims.map((c) => [c.kind, c.subject, c.verdict]);
    assert.deepEqual(lintClaims, [
      ['script', 'lint', 'stale'],
      ['script', 'build', 'ok'],
    ]);
    assert.equal(memoryIn(report, lint).claims[0]?.evidence.commit?.hash, change);
    const lodashClaim = memoryIn(report, lodash).claims.find((c) => c.kind === 'dependency');
    assert.equal(lodashClaim?.verdict, 'stale');
    assert.equal(lodashClaim?.evidence.commit?.hash, change);
    const reduxClaim = memoryIn(report, redux).claims.find((c) => c.kind === 'dependency');
    assert.equal(reduxClaim?.negated, true);
    assert.equal(reduxClaim?.verdict, 'stale');
    assert.equal(reduxClaim?.evidence.commit?.hash, change);
    assert.equal(memoryIn(report, express).status, 'ok');
  });

  it('re-checks only the memories whose claims name changed paths', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: { 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 1;\n' },
    });
    const test = await driftHost(repo.root);
    const a = await rememberAt(test, 'A is in src/a.ts', BEFORE_CHANGE);
    await rememberAt(test, 'B is in src/b.ts', BEFORE_CHANGE);
    const first = await test.call('drift', { all: true });
    assert.equal(first.checked.memories, 2);
    repo.commit('Remove a', T2, { remove: ['src/a.ts'] });

    const report = await test.call('drift', { paths: ['src/a.ts'], all: true });
    assert.equal(report.checked.incremental, true);
    assert.deepEqual(
      report.memories.map((m) => [m.id, m.status]),
      [[a, 'dead']],
    );
  });
  it('a clone missing a blob that rename detection would read still dates deletions', async () => {
    const repo = new GitRepository();
    const lines = Array.from({ length: 40 }, (_, i) => `export const value${i} = ${i};`).join('\n');
    repo.commit('initial', T1, { write: { 'src/values.ts': `${lines}\n`, 'src/config.ts': 'export {};\n' } });
    // An inexact rename: git compares both blobs to detect it, so it needs the old one.
    repo.commit('Rename values and edit them', T2, {
      rename: [['src/values.ts', 'src/constants.ts']],
      write: { 'src/constants.ts': `${lines}\nexport const extra = 1;\n` },
    });
    const deleting = repo.commit('Drop the config module', T3, { remove: ['src/config.ts'] });
    const blob = repo.git('rev-parse', `HEAD~2:src/values.ts`);
    rmSync(path.join(repo.root, '.git', 'objects', blob.slice(0, 2), blob.slice(2)));
    const test = await driftHost(repo.root);
    const id = await rememberAt(test, 'Settings live in src/config.ts.', BEFORE_CHANGE);
    const report = await test.call('drift', { all: true });
    const claim = memoryIn(report, id).claims.find((c) => c.kind === 'path');
    assert.deepEqual([claim?.verdict, claim?.evidence.commit?.hash], ['stale', deleting]);
  });
});
