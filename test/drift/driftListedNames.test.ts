import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractClaims } from '../../engine/drift/claimExtractor';
import { BEFORE_CHANGE, memoryIn, rememberAt, scannedAfterChange } from './driftHost';

const OWN = { projectPackages: new Set(['thelib']) };
const claimed = (text: string) => extractClaims(text, OWN).map((c) => [c.kind, c.subject]);

describe('drift claims on methods with a leading dot and options listed in bold', () => {
  it('a method written with a leading dot claims the method; one bold item is only emphasis', () => {
    // With no receiver at all, `.clear()` is written on what the package gives the reader.
    assert.deepEqual(
      claimed('Call `.exceptions.handle()` with a transport, or `.clear()` to drop them all.'),
      [
        ['symbol', 'exceptions.handle'],
        ['symbol', 'thelib.clear'],
      ],
    );
    assert.deepEqual(claimed('* __Note:__ this is emphasis, not an option.'), []);
  });

  it('a list of options named in bold claims each as a config key', () => {
    const text = [
      'Options:',
      '',
      '* __level:__ Level of messages that this transport should log.',
      '* __silent:__ Boolean flag indicating whether to suppress output.',
      '- **eol**: Line-ending character to use.',
    ].join('\n');
    assert.deepEqual(claimed(text), [
      ['config', 'level'],
      ['config', 'silent'],
      ['config', 'eol'],
    ]);
  });

  it('an option listed in bold that the code no longer reads anywhere is stale with its commit', async () => {
    const transport = (keys: string) => `module.exports = function transport (opts) {\n${keys}}\n`;
    const { test, changing } = await scannedAfterChange(
      { 'lib/transport.js': transport('  this.level = opts.level\n  this.silent = opts.silent\n') },
      'Drop the silent option',
      { write: { 'lib/transport.js': transport('  this.level = opts.level\n') } },
    );
    const id = await rememberAt(
      test,
      '* __level:__ Level of messages to log.\n* __silent:__ Suppress all output.',
      BEFORE_CHANGE,
    );
    const report = await test.call('drift', { all: true });
    const claims = memoryIn(report, id).claims.filter((c) => c.kind === 'config');
    assert.deepEqual(
      claims.map((c) => [c.subject, c.verdict, c.evidence.commit?.hash]),
      [
        ['level', 'ok', undefined],
        ['silent', 'stale', changing],
      ],
    );
  });
});
