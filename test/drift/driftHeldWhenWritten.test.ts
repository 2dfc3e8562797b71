import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DriftReport } from '../../engine/drift/driftReport';
import type { TestHost } from '../support/host';
import { driftHost, memoryIn, rememberAt } from './driftHost';
import { GitRepository } from './gitRepository';

const T1 = '2025-01-10T12:00:00Z';
const BEFORE_CHANGE = '2025-02-01T00:00:00Z';
const T2 = '2025-03-01T12:00:00Z';

/** Every claim the last check stored for a memory, flagged or not (the report lists only drifted memories). */
function storedClaims(test: TestHost, memoryId: string) {
  return test.host.store.read((r) =>
    r
      .all<{ kind: string; subject: string; verdict: string; evidence: string }>(
        'SELECT kind, subject, verdict, evidence FROM drift_claims WHERE memory_id = ? ORDER BY id',
        [memoryId],
      )
      .map((c) => ({ ...c, reason: (JSON.parse(c.evidence) as { reason: string }).reason })),
  );
}

/** A memory's status in the report: absent when every claim holds; never stale, dead or moved here. */
const shownAs = (report: DriftReport, id: string) => report.memories.find((m) => m.id === id)?.status ?? 'ok';

const pkg = (fields: object) => `${JSON.stringify({ name: 'app', ...fields }, null, 2)}\n`;

/**
 * Drift is a change after the memory was written. A fact that was already false then (another
 * project's package, the reader's own config file, a platform global) names nothing a commit of
 * this repository could have broken: it is never shown as stale.
 */
describe('drift: only what held when the memory was written can drift', () => {
  it('a package the project never declared is not "dependency dropped"; one it dropped is', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: {
        'package.json': pkg({ dependencies: { 'fast-redact': '^3.0.0' } }),
        'index.js': 'module.exports = 1;\n',
      },
    });
    const dropping = repo.commit('Replace fast-redact', T2, {
      write: { 'package.json': pkg({ dependencies: { 'slow-redact': '^1.0.0' } }) },
    });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const never = await rememberAt(
      test,
      'We use the [`pako`](https://www.npmjs.com/package/pako) library to compress logs.',
      BEFORE_CHANGE,
    );
    const dropped = await rememberAt(
      test,
      'Redaction is built on top of [`fast-redact`](https://github.com/davidmarkclements/fast-redact).',
      BEFORE_CHANGE,
    );

    const report = await test.call('drift', { all: true });
    assert.equal(shownAs(report, never), 'unverifiable', 'pako is not shown as drift');
    const neverClaim = storedClaims(test, never).find((c) => c.subject === 'pako');
    assert.ok(neverClaim, 'the pako claim is extracted');
    assert.equal(neverClaim.verdict, 'unverifiable');
    assert.match(neverClaim.reason, /not declared so when the memory was written either/);
    const droppedClaim = memoryIn(report, dropped).claims.find((c) => c.subject === 'fast-redact');
    assert.equal(droppedClaim?.verdict, 'stale');
    assert.equal(droppedClaim?.evidence.commit?.hash, dropping);
  });

  it("a script the manifest never declared is not stale (the reader's or another project's)", async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, { write: { 'package.json': pkg({ scripts: { test: 'mocha' } }) } });
    repo.commit('Touch the manifest', T2, {
      write: { 'package.json': pkg({ scripts: { test: 'mocha --bail' } }) },
    });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const id = await rememberAt(
      test,
      'Run `npm run deploy` to publish; `npm test` runs the tests.',
      BEFORE_CHANGE,
    );

    const report = await test.call('drift', { all: true });
    const claims = memoryIn(report, id).claims.filter((c) => c.kind === 'script');
    assert.deepEqual(
      claims.map((c) => [c.subject, c.verdict]),
      [
        ['deploy', 'unverifiable'],
        ['test', 'ok'],
      ],
    );
  });

  it('a config file the repository never had is not "gone"; one a commit deleted is', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: { 'package.json': pkg({}), '.eslintrc.json': '{ "rules": { "semi": "error" } }\n' },
    });
    const deleting = repo.commit('Move to flat config', T2, {
      remove: ['.eslintrc.json'],
      write: { 'eslint.config.js': 'module.exports = [];\n' },
    });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const readers = await rememberAt(
      test,
      'Check that `network.host` is set in `elasticsearch.yml` before you start the transport.',
      BEFORE_CHANGE,
    );
    const ours = await rememberAt(test, 'Lint rules: `semi` is `error` in `.eslintrc.json`.', BEFORE_CHANGE);

    const report = await test.call('drift', { all: true });
    assert.equal(shownAs(report, readers), 'unverifiable', 'elasticsearch.yml is not shown as drift');
    const reader = storedClaims(test, readers).find((c) => c.kind === 'config');
    assert.ok(reader, 'the elasticsearch.yml claim is extracted');
    assert.equal(reader.verdict, 'unverifiable');
    assert.match(reader.reason, /never in the repository/);
    const own = memoryIn(report, ours).claims.find((c) => c.kind === 'config');
    assert.equal(own?.verdict, 'stale');
    assert.equal(own?.evidence.commit?.hash, deleting);
  });

  it('a config value the file did not have when the memory was written either is not drift', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: { 'package.json': pkg({}), 'config.json': '{ "port": 3000, "host": "a" }\n' },
    });
    const changing = repo.commit('Move to port 4000', T2, {
      write: { 'config.json': '{ "port": 4000, "host": "a" }\n' },
    });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const wrong = await rememberAt(test, 'The server reads `host: "b"` from `config.json`.', BEFORE_CHANGE);
    const drifted = await rememberAt(
      test,
      'The server reads `port: 3000` from `config.json`.',
      BEFORE_CHANGE,
    );
    const report = await test.call('drift', { all: true });
    const claim = storedClaims(test, wrong).find((c) => c.kind === 'config');
    assert.equal(claim?.verdict, 'unverifiable', JSON.stringify(claim));
    assert.match(claim.reason, /when the memory was written either/);
    const port = memoryIn(report, drifted).claims.find((c) => c.kind === 'config');
    assert.equal(port?.verdict, 'stale');
    assert.equal(port?.evidence.commit?.hash, changing);
  });

  it('a denial of what was there all along never held: not drift, while one a commit broke is', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: {
        'package.json': pkg({}),
        'lib/a.js': 'function keepAlive() {}\nmodule.exports = { keepAlive };\n',
      },
    });
    const adding = repo.commit('Bring back legacyMode', T2, {
      write: {
        'lib/a.js':
          'function keepAlive() {}\nfunction legacyMode() {}\nmodule.exports = { keepAlive, legacyMode };\n',
      },
    });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const always = await rememberAt(test, 'The `keepAlive()` function was removed.', BEFORE_CHANGE);
    const back = await rememberAt(test, 'The `legacyMode()` function was removed.', BEFORE_CHANGE);
    const report = await test.call('drift', { all: true });
    const claim = storedClaims(test, always).find((c) => c.kind === 'symbol');
    assert.equal(claim?.verdict, 'unverifiable', JSON.stringify(claim));
    const returned = memoryIn(report, back).claims.find((c) => c.kind === 'symbol');
    assert.equal(returned?.verdict, 'stale');
    assert.equal(returned?.evidence.commit?.hash, adding);
  });

  it('a platform global is no claim about the code, while a removed project function is', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: {
        'package.json': pkg({}),
        'lib/exit.js':
          'function onExit(fn) { const ref = new WeakRef(fn); return new FinalizationRegistry(() => ref); }\nmodule.exports = { onExit };\n',
        // A component typed with React's namespace, as JSX examples write it without an import.
        'lib/view.tsx': 'export const View: React.FC = () => null;\n',
      },
    });
    const removing = repo.commit('Use on-exit-leak-free instead of our own exit hook', T2, {
      write: {
        'package.json': pkg({ dependencies: { 'on-exit-leak-free': '^2.0.0' } }),
        'lib/exit.js': 'module.exports = {};\n',
        'lib/view.tsx': 'export const View = () => null;\n',
      },
    });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const id = await rememberAt(
      test,
      'If `WeakRef` and `FinalizationRegistry` are available in the runtime, `onExit()` flushes the logger on exit. Type your app as `React.FC`.',
      BEFORE_CHANGE,
    );

    const report = await test.call('drift', { all: true });
    const claims = memoryIn(report, id).claims.filter((c) => c.kind === 'symbol');
    const verdicts = Object.fromEntries(claims.map((c) => [c.subject, c.verdict]));
    assert.equal(verdicts['WeakRef'], 'unverifiable');
    assert.equal(verdicts['FinalizationRegistry'], 'unverifiable');
    assert.equal(verdicts['React.FC'], 'unverifiable', JSON.stringify(verdicts));
    assert.equal(verdicts['onExit'], 'stale');
    assert.equal(claims.find((c) => c.subject === 'onExit')?.evidence.commit?.hash, removing);
  });
});
