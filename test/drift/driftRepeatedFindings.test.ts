import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BEFORE_CHANGE, memoryIn, rememberAt, scannedAfterChange } from './driftHost';

const pkg = `${JSON.stringify({ name: 'thelib', main: 'index.js' }, null, 2)}\n`;
const cache = (options: string[]) =>
  [
    "'use strict';",
    'class LRUCache {',
    '  constructor(options) {',
    ...options.map((name) => `    this.${name} = options.${name};`),
    '  }',
    '  get(key) { return this.map.get(key); }',
    '}',
    'module.exports = LRUCache;',
    '',
  ].join('\n');

/*
 * An options list names a removed option in the item that documents it and in passing elsewhere
 * ("if you set a `maxAge`"). Those are one false statement, so the user gets one finding for it,
 * on the item, which lists where else the memory names it. Mentions of a name no item documents
 * ("`maxAge` is optional and overrides the cache `maxAge` option") say two things: two findings.
 */
describe('drift: a false name the memory repeats', () => {
  it('is one finding, on the item that documents it, with the passing mentions listed', async () => {
    const { test, changing } = await scannedAfterChange(
      { 'package.json': pkg, 'index.js': cache(['max', 'maxAge', 'stale']) },
      'Remove the maxAge option',
      { write: { 'index.js': cache(['max', 'stale']) } },
    );
    const text = [
      'Set `maxAge` to expire old items.',
      '',
      '* `max` The maximum size of the cache.',
      '* `maxAge` (default: none) Maximum age in ms. Old items are dropped when you get them.',
      '* `stale` By default, if you set a `maxAge`, stale items are only dropped on `get(key)`.',
    ].join('\n');
    const id = await rememberAt(test, text, BEFORE_CHANGE);
    const undocumented = await rememberAt(
      test,
      'Both take a key. `maxAge` is optional and overrides the cache `maxAge` option if provided.',
      BEFORE_CHANGE,
    );
    const report = await test.call('drift', { all: true });
    const flagsOf = (memory: string) =>
      memoryIn(report, memory).claims.filter(
        (c) => c.subject === 'maxAge' && c.verdict === 'stale' && c.evidence.doubtful !== true,
      );
    const flags = flagsOf(id);
    assert.equal(flags.length, 1, JSON.stringify(memoryIn(report, id).claims));
    const item = text.indexOf('* `maxAge`') + 3;
    assert.deepEqual(flags[0]?.span, [item, item + 'maxAge'.length]);
    assert.equal(flags[0]?.evidence.commit?.hash, changing);
    const passing = [...text.matchAll(/maxAge/g)].map((m) => m.index).filter((at) => at !== item);
    assert.deepEqual(
      flags[0]?.repeats?.map(([start]) => start).sort((a, b) => a - b),
      passing,
    );
    assert.equal(flagsOf(undocumented).length, 2, JSON.stringify(memoryIn(report, undocumented).claims));
  });

  // "Default: `30e3` ... Defaults to 30 seconds.": the value is repaired where it is written as a
  // literal; its restatement in words is the same default, one finding that still asks for review.
  it('merges a default restated in words into the repaired one, which then also asks for review', async () => {
    const client = (bodyTimeout: string) =>
      `class Client {\n  constructor ({ bodyTimeout } = {}) {\n    this.bodyTimeout = bodyTimeout != null ? bodyTimeout : ${bodyTimeout}\n  }\n}\nmodule.exports = Client\n`;
    const { test, changing } = await scannedAfterChange(
      { 'lib/client.js': client('30e3') },
      'Wait five minutes for a body',
      { write: { 'lib/client.js': client('300e3') } },
    );
    const text =
      '* **bodyTimeout** `number | null` (optional) - Default: `30e3` - The timeout after which a request will time out, in milliseconds. Defaults to 30 seconds.';
    const id = await rememberAt(test, text, BEFORE_CHANGE);
    const report = await test.call('drift', { all: true, fix: true, dryRun: true });
    const flags = memoryIn(report, id).claims.filter(
      (c) => c.subject === 'bodyTimeout' && c.verdict === 'stale' && c.evidence.doubtful !== true,
    );
    assert.equal(flags.length, 1, JSON.stringify(memoryIn(report, id).claims));
    assert.equal(flags[0]?.evidence.commit?.hash, changing);
    assert.deepEqual(flags[0]?.evidence.repair?.text, '300e3');
    assert.equal(flags[0]?.repeats?.length, 1);
    // The memory is a human's: its rewrite is proposed in a review of its own.
    const actions = (report.fix?.actions ?? []).filter((a) => a.id === id);
    const kinds = actions.map((a) => (a.action === 'review' ? (a.proposed ?? 'review') : a.action));
    assert.deepEqual(kinds.sort(), ['review', 'rewrite'], JSON.stringify(actions));
  });
});
