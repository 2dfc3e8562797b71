import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { saysMoreThan } from '../../engine/drift/driftStatus';
import { driftHost, memoryIn, rememberAt } from './driftHost';
import { GitRepository } from './gitRepository';

const T1 = '2025-01-10T12:00:00Z';
const WRITTEN = '2025-02-01T00:00:00Z';
const T2 = '2025-03-01T12:00:00Z';
const lib = (methods: string) => `class TheLib {\n${methods}}\nmodule.exports = TheLib;\n`;

/*
 * Seen on pino (bench:drift --misses): "The `pino.final` method ... In Node 14+ it is not needed
 * anymore as pino automatically can handle those." Its one claim was removed, so the memory was
 * called dead and invalidated, although its second sentence still holds.
 */
describe('drift: dead only when everything the memory says is false', () => {
  it('a sentence no claim reads keeps the memory stale (reviewed), not dead (invalidated)', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, { write: { 'lib/thelib.js': lib('  final() {}\n  info() {}\n') } });
    repo.commit('Remove final: flushing on exit is automatic', T2, {
      write: { 'lib/thelib.js': lib('  info() {}\n') },
    });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const more = await rememberAt(
      test,
      'The `TheLib.final` method flushes on exit. In new runtimes it is not needed anymore as the logger handles those.',
      WRITTEN,
    );
    const only = await rememberAt(test, 'Call `TheLib.final` to flush on exit.', WRITTEN);
    const report = await test.call('drift', { all: true });
    assert.equal(memoryIn(report, more).status, 'stale');
    assert.equal(memoryIn(report, only).status, 'dead');
    const fix = await test.call('drift', { fix: true, dryRun: true, all: true });
    // A human's memory gets the invalidation as a proposal: either way it is what the fix would do.
    const invalidates = (id: string) =>
      (fix.fix?.actions ?? []).some(
        (a) => a.id === id && (a.action === 'invalidate' || a.proposed === 'invalidate'),
      );
    assert.equal(invalidates(more), false);
    assert.equal(invalidates(only), true);
  });

  it('code fences and short fragments do not count as further sentences', () => {
    const text =
      'Use `a.b()` to start.\n\n```js\nconst x = 1; // something else entirely here\n```\nSee: `a.b`.';
    const claimAt = text.indexOf('a.b()');
    assert.equal(saysMoreThan(text, [[claimAt, claimAt + 3]]), false);
    assert.equal(saysMoreThan(`${text} It also restarts the whole server.`, [[claimAt, claimAt + 3]]), true);
  });

  it('a coordinated clause no false claim touches says more; a purpose clause of the claim does not', () => {
    const joined = "To see the debug output pass `DEBUG=app*` and on boot you'll see every middleware used.";
    const at = joined.indexOf('DEBUG');
    assert.equal(saysMoreThan(joined, [[at, at + 5]]), true);
    const purpose = 'Set `DEBUG=app*` to see what the app does on boot.';
    const from = purpose.indexOf('DEBUG');
    assert.equal(saysMoreThan(purpose, [[from, from + 5]]), false);
  });

  it('what a command printed in a terminal session says more than the command line', () => {
    const session =
      '```\n$ DEBUG=app* node server\n  app:router use logger +0ms\n  app:router listen +1ms\n```';
    const claimAt = session.indexOf('DEBUG');
    assert.equal(saysMoreThan(session, [[claimAt, claimAt + 5]]), true);
    const command = '```sh\n$ DEBUG=app* node server\n```';
    const at = command.indexOf('DEBUG');
    assert.equal(saysMoreThan(command, [[at, at + 5]]), false);
  });
});
