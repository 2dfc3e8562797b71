import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { driftHost, rememberAt } from './driftHost';
import { GitRepository } from './gitRepository';

const T1 = '2025-01-10T12:00:00Z';
const BEFORE_CHANGE = '2025-02-01T00:00:00Z';
const T2 = '2025-03-01T12:00:00Z';

describe('drift after a scan', () => {
  it('a scan after a rename and a delete returns the memories naming them, and checks no other', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: {
        'src/a.ts': 'export const a = 1;\n',
        'src/b.ts': 'export const b = 1;\n',
        'src/c.ts': 'export const c = 1;\n',
      },
    });
    const test = await driftHost(repo.root);
    const renamed = await rememberAt(test, 'A is set in src/a.ts', BEFORE_CHANGE);
    const deleted = await rememberAt(test, 'B lives in ./src/b.ts', BEFORE_CHANGE);
    await rememberAt(test, 'C is kept in src/c.ts', BEFORE_CHANGE);
    await test.call('scan', {});
    // Every memory checked once: none is waiting for its first check.
    assert.equal((await test.call('drift', { all: true })).checked.memories, 3);

    const renaming = repo.commit('Rename a to alpha', T2, { rename: [['src/a.ts', 'src/alpha.ts']] });
    repo.commit('Drop b', T2, { remove: ['src/b.ts'] });
    const scan = await test.call('scan', {});

    assert.ok(scan.drift, 'the scan reports drift');
    assert.deepEqual([...scan.drift.checked].sort(), [renamed, deleted].sort(), 'src/c.ts is not checked');
    const byId = new Map(scan.drift.memories.map((m) => [m.id, m]));
    assert.equal(byId.get(renamed)?.status, 'moved');
    assert.equal(byId.get(renamed)?.claims[0]?.evidence.target, 'src/alpha.ts');
    assert.equal(byId.get(renamed)?.claims[0]?.evidence.commit?.hash, renaming);
    assert.equal(byId.get(deleted)?.status, 'dead');
    assert.equal(scan.drift.memories.length, 2);
  });

  it('a scan that changes no file a memory names checks nothing', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, { write: { 'src/a.ts': 'export const a = 1;\n', 'src/d.ts': 'x\n' } });
    const test = await driftHost(repo.root);
    await rememberAt(test, 'A is set in src/a.ts', BEFORE_CHANGE);
    await test.call('scan', {});
    await test.call('drift', {});
    repo.commit('Drop d', T2, { remove: ['src/d.ts'] });
    const scan = await test.call('scan', {});
    assert.deepEqual(scan.drift, { checked: [], memories: [] });
  });

  it('finds a memory through any form it writes a changed path in: ./, a folder above it, absolute', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: { 'src/util/a.ts': 'export const a = 1;\n', 'lib/b.ts': 'export const b = 1;\n' },
    });
    const test = await driftHost(repo.root);
    const named = [
      await rememberAt(test, 'A is set in ./src/util/a.ts', BEFORE_CHANGE),
      await rememberAt(test, 'The helpers are kept in src/util/', BEFORE_CHANGE),
      await rememberAt(test, `A is set in ${repo.root}/src/util/a.ts`, BEFORE_CHANGE),
    ];
    await rememberAt(test, 'B is set in lib/b.ts', BEFORE_CHANGE);
    await test.call('scan', {});
    await test.call('drift', {});
    repo.commit('Change a', T2, { write: { 'src/util/a.ts': 'export const a = 2;\n' } });
    const scan = await test.call('scan', { paths: ['src/util/a.ts'] });
    assert.deepEqual([...scan.drift.checked].sort(), [...named].sort());
    assert.deepEqual(scan.drift.memories, [], 'a changed file that still exists is no drift');
  });
});
