import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClaimReport, DriftReport } from '../../engine/drift/driftReport';
import { driftHost, rememberAt } from './driftHost';
import { GitRepository } from './gitRepository';

/** Each claim is attributed to the first commit after the memory's time that made it false. */

function claimOf(report: DriftReport, id: string, kind: string): ClaimReport {
  const claim = report.memories.find((m) => m.id === id)?.claims.find((c) => c.kind === kind);
  assert.ok(claim, `no ${kind} claim of ${id} in ${JSON.stringify(report.memories)}`);
  return claim;
}

const pkg = (dependencies: Record<string, string>) => JSON.stringify({ name: 'app', dependencies }, null, 2);

describe('drift attribution: the first commit that made a claim false', () => {
  it('a version claim: the bump that left its major, not a later bump or an unrelated change', async () => {
    const repo = new GitRepository();
    repo.commit('initial', '2025-01-01T00:00:00Z', {
      write: { 'package.json': pkg({ debug: '2.6.9', ms: '2.0.0' }) },
    });
    repo.commit('deps: ms@2.1.0', '2025-02-10T00:00:00Z', {
      write: { 'package.json': pkg({ debug: '2.6.9', ms: '2.1.0' }) },
    });
    repo.commit('deps: debug@2.6.10 (same major)', '2025-02-20T00:00:00Z', {
      write: { 'package.json': pkg({ debug: '2.6.10', ms: '2.1.0' }) },
    });
    const bump = repo.commit('deps: debug@4', '2025-03-01T00:00:00Z', {
      write: { 'package.json': pkg({ debug: '^4.3.4', ms: '2.1.0' }) },
    });
    repo.commit('Broken merge left conflict markers', '2025-03-10T00:00:00Z', {
      write: { 'package.json': '<<<<<<< HEAD\n{}\n=======\n{}\n>>>>>>> main\n' },
    });
    repo.commit('deps: debug@4.4', '2025-04-01T00:00:00Z', {
      write: { 'package.json': pkg({ debug: '^4.4.0', ms: '2.1.0' }) },
    });
    repo.commit('Drop ms', '2025-05-01T00:00:00Z', { write: { 'package.json': pkg({ debug: '^4.4.0' }) } });
    const test = await driftHost(repo.root);
    const debug = await rememberAt(test, 'Logging uses debug@2.6.9 everywhere.', '2025-02-01T00:00:00Z');
    const ms = await rememberAt(test, 'Durations are parsed with ms@2.0.0.', '2025-02-01T00:00:00Z');

    const report = await test.call('drift', { all: true });
    const debugClaim = claimOf(report, debug, 'dependency');
    assert.equal(debugClaim.verdict, 'stale');
    assert.equal(debugClaim.evidence.reason, 'version changed');
    assert.equal(debugClaim.evidence.now, '^4.4.0');
    assert.equal(debugClaim.evidence.commit?.hash, bump);
    const msClaim = claimOf(report, ms, 'dependency');
    assert.equal(msClaim.evidence.reason, 'dependency dropped');
    assert.equal(msClaim.evidence.commit?.message, 'Drop ms', 'the conflict markers are no drop');
  });

  it('a path deleted, restored and deleted again: the deletion after the memory', async () => {
    const repo = new GitRepository();
    repo.commit('initial', '2025-01-01T00:00:00Z', { write: { 'src/flags.ts': 'export const a = 1;\n' } });
    const first = repo.commit('Remove flags', '2025-02-01T00:00:00Z', { remove: ['src/flags.ts'] });
    repo.commit('Restore flags', '2025-03-01T00:00:00Z', {
      write: { 'src/flags.ts': 'export const a = 2;\n' },
    });
    const second = repo.commit('Remove flags again', '2025-04-01T00:00:00Z', { remove: ['src/flags.ts'] });
    const test = await driftHost(repo.root);
    const early = await rememberAt(test, 'Feature flags are in src/flags.ts', '2025-01-15T00:00:00Z');
    const late = await rememberAt(test, 'Feature flags are back in src/flags.ts', '2025-03-15T00:00:00Z');
    const report = await test.call('drift', { all: true });
    assert.equal(claimOf(report, early, 'path').evidence.commit?.hash, first);
    assert.equal(claimOf(report, late, 'path').evidence.commit?.hash, second);
  });

  it('a path renamed and then deleted: the rename made it false', async () => {
    const repo = new GitRepository();
    repo.commit('initial', '2025-01-01T00:00:00Z', {
      write: { 'Security.md': '# Security\n\nReport here.\n' },
    });
    const rename = repo.commit('Upper-case the policy', '2025-02-01T00:00:00Z', {
      rename: [['Security.md', 'SECURITY.md']],
    });
    const removal = repo.commit('Use the global policy', '2025-03-01T00:00:00Z', { remove: ['SECURITY.md'] });
    const test = await driftHost(repo.root);
    const id = await rememberAt(test, 'The policy is in Security.md', '2025-01-15T00:00:00Z');
    const claim = claimOf(await test.call('drift'), id, 'path');
    assert.equal(claim.verdict, 'stale');
    assert.equal(claim.evidence.commit?.hash, rename);
    assert.match(
      claim.evidence.reason,
      new RegExp(`renamed to SECURITY.md, then deleted in ${removal.slice(0, 12)}`),
    );
  });

  it('a symbol removed file by file: the commit that removed its last occurrence', async () => {
    const repo = new GitRepository();
    repo.commit('initial', '2025-01-01T00:00:00Z', {
      write: {
        'src/a.ts': 'export function legacyTotals() { return 1; }\n',
        'src/b.ts': "import { legacyTotals } from './a';\nexport const t = legacyTotals();\n",
      },
    });
    repo.commit('b no longer calls legacyTotals', '2025-02-01T00:00:00Z', {
      write: { 'src/b.ts': 'export const t = 1;\n' },
    });
    const last = repo.commit('Remove legacyTotals', '2025-03-01T00:00:00Z', {
      write: { 'src/a.ts': 'export const a = 1;\n' },
    });
    const test = await driftHost(repo.root);
    const id = await rememberAt(test, 'Totals come from `legacyTotals()`.', '2025-01-15T00:00:00Z');
    const claim = claimOf(await test.call('drift'), id, 'symbol');
    assert.equal(claim.verdict, 'stale');
    assert.equal(claim.evidence.commit?.hash, last);
  });

  it('a symbol removed, brought back as a deprecated alias, removed again: the removal for good', async () => {
    const repo = new GitRepository();
    repo.commit('initial', '2025-01-01T00:00:00Z', {
      write: { 'src/cache.ts': 'export function setMaxAge(n) { return n; }\n' },
    });
    repo.commit('Rename setMaxAge to setTtl', '2025-02-01T00:00:00Z', {
      write: { 'src/cache.ts': 'export function setTtl(n) { return n; }\n' },
    });
    repo.commit('Keep setMaxAge as a deprecated alias', '2025-02-10T00:00:00Z', {
      write: {
        'src/cache.ts': 'export function setTtl(n) { return n; }\nexport const setMaxAge = setTtl;\n',
      },
    });
    const removal = repo.commit('Drop the deprecated setMaxAge', '2025-03-01T00:00:00Z', {
      write: { 'src/cache.ts': 'export function setTtl(n) { return n; }\n' },
    });
    const test = await driftHost(repo.root);
    const id = await rememberAt(test, 'Expiry is set with `setMaxAge()`.', '2025-01-15T00:00:00Z');
    const claim = claimOf(await test.call('drift'), id, 'symbol');
    assert.equal(claim.verdict, 'stale');
    assert.equal(claim.evidence.commit?.hash, removal);
  });

  it('a symbol whose file was renamed, then removed in the new file: the removal, not the rename', async () => {
    const repo = new GitRepository();
    repo.commit('initial', '2025-01-01T00:00:00Z', {
      write: { 'lib/watch.js': 'exports.useFsEvents = function useFsEvents() { return true; };\n' },
    });
    repo.commit('Move to ESM', '2025-02-01T00:00:00Z', {
      remove: ['lib/watch.js'],
      write: {
        'src/watch.mjs': 'export function useFsEvents() { return true; }\nexport const keep = 1;\n',
        // A whole test suite in one file keeps using the name; tests are no evidence of the code.
        'test.mjs': "import { useFsEvents } from './src/watch.mjs';\nuseFsEvents();\n",
      },
    });
    const removal = repo.commit('Drop fsevents', '2025-03-01T00:00:00Z', {
      write: { 'src/watch.mjs': 'export const keep = 1;\n' },
    });
    const test = await driftHost(repo.root);
    const id = await rememberAt(test, 'On macOS `useFsEvents()` picks the backend.', '2025-01-15T00:00:00Z');
    const claim = claimOf(await test.call('drift'), id, 'symbol');
    assert.equal(claim.verdict, 'stale');
    assert.equal(claim.evidence.commit?.hash, removal);
  });

  it('a default changed in a file renamed since the memory: the change, followed across the rename', async () => {
    const client = (timeout: string) =>
      `module.exports = function client ({ bodyTimeout } = {}) {\n  return bodyTimeout != null ? bodyTimeout : ${timeout}\n}\n`;
    const repo = new GitRepository();
    repo.commit('initial', '2025-01-01T00:00:00Z', { write: { 'lib/client.js': client('30e3') } });
    repo.commit('Move the client under dispatcher/', '2025-02-01T00:00:00Z', {
      rename: [['lib/client.js', 'lib/dispatcher/client.js']],
    });
    const change = repo.commit('Wait five minutes for a body', '2025-03-01T00:00:00Z', {
      write: { 'lib/dispatcher/client.js': client('300e3') },
    });
    const test = await driftHost(repo.root);
    const id = await rememberAt(test, '`bodyTimeout` defaults to `30e3`.', '2025-01-15T00:00:00Z');
    const claim = (await test.call('drift', { all: true })).memories
      .find((m) => m.id === id)
      ?.claims.find((c) => c.kind === 'config' && c.verdict === 'stale');
    assert.equal(claim?.evidence.now, '300e3');
    assert.equal(claim?.evidence.commit?.hash, change);
  });

  it('work on a branch merged later: the memory of that branch is checked against what it held', async () => {
    const repo = new GitRepository();
    repo.commit('initial', '2025-01-01T00:00:00Z', { write: { 'src/main.ts': 'export const m = 1;\n' } });
    repo.git('checkout', '-q', '-b', 'feature');
    repo.commit('Add the exporter', '2025-02-01T00:00:00Z', {
      write: { 'src/exporter.ts': 'export function exportCsv() { return 1; }\n' },
    });
    repo.git('checkout', '-q', 'main');
    repo.commit('Main moves on', '2025-01-20T00:00:00Z', { write: { 'README.md': '# m\n' } });
    repo.gitAt('2025-02-10T00:00:00Z', 'merge', '-q', '--no-ff', '-m', 'Merge feature', 'feature');
    const removing = repo.commit('Drop the exporter function', '2025-03-01T00:00:00Z', {
      write: { 'src/exporter.ts': 'export const none = 0;\n' },
    });
    const test = await driftHost(repo.root);
    // Written on the feature branch before the merge: main's first-parent line never held it then.
    const id = await rememberAt(test, 'CSV export is `exportCsv()`.', '2025-02-05T00:00:00Z');
    const claim = claimOf(await test.call('drift'), id, 'symbol');
    assert.equal(claim.verdict, 'stale');
    assert.equal(claim.evidence.commit?.hash, removing);
  });
});
