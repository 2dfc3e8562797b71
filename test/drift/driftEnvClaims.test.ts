import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractClaims } from '../../engine/drift/claimExtractor';
import { BEFORE_CHANGE, memoryIn, rememberAt, scannedAfterChange } from './driftHost';

const pkg = (dependencies: Record<string, string>) =>
  `${JSON.stringify({ name: 'webkit', main: 'lib/app.js', dependencies }, null, 2)}\n`;
const appWith = (logger: string) => `${logger}\nmodule.exports = function app () { debug('listen') }\n`;

/** `DEBUG=webkit*` in a terminal session above the output it prints. */
const SESSION = [
  'Run with debugging on:',
  '',
  '```',
  '$ DEBUG=webkit* node examples/simple',
  '  webkit:application use logger +0ms',
  '  webkit:application use router +1ms',
  '  webkit:application listen +0ms',
  '```',
].join('\n');

describe('drift on environment variables', () => {
  it('a name the text calls an environment variable is one, written as code or not', () => {
    const env = (text: string) =>
      extractClaims(text, { projectPackages: new Set(['thelib']) })
        .filter((c) => c.kind === 'env')
        .map((c) => c.subject);
    assert.deepEqual(env('You may also set the THELIB_USEPOLLING env variable to true (1).'), [
      'THELIB_USEPOLLING',
    ]);
    assert.deepEqual(env('Set the `THELIB_INTERVAL` environment variable.'), ['THELIB_INTERVAL']);
    assert.deepEqual(env('with the environment variable THELIB_DEBUG set'), ['THELIB_DEBUG']);
    assert.deepEqual(env('The MAX_RETRIES constant and the API of thelib.'), []);
  });

  it('DEBUG holds while the project depends on debug, and goes with the commit that drops it', async () => {
    const { test, changing: dropping } = await scannedAfterChange(
      {
        'package.json': pkg({ debug: '^4.3.0' }),
        'lib/app.js': appWith("const debug = require('debug')('webkit:application')"),
      },
      'Replace debug with util.debuglog',
      {
        write: {
          'package.json': pkg({}),
          'lib/app.js': appWith("const debug = require('node:util').debuglog('webkit:application')"),
        },
      },
    );
    const session = await rememberAt(test, SESSION, BEFORE_CHANGE);
    const inline = await rememberAt(test, 'Set `DEBUG=webkit*` to see what the app does.', BEFORE_CHANGE);
    const theirs = await rememberAt(
      test,
      'Your own server reads its port:\n\n```\n$ PORT=3000 node server.js\nlistening on 3000\nready\n```',
      BEFORE_CHANGE,
    );

    const report = await test.call('drift', { all: true });
    for (const id of [session, inline]) {
      const claim = memoryIn(report, id).claims.find((c) => c.kind === 'env');
      assert.deepEqual([claim?.subject, claim?.verdict], ['DEBUG', 'stale'], JSON.stringify(claim));
      assert.equal(claim?.evidence.commit?.hash, dropping);
      assert.match(String(claim?.evidence.reason), /read by debug, no longer a dependency/);
    }
    // PORT is set for the reader's program, not the project's: the memory claims nothing.
    assert.ok(!report.memories.some((m) => m.id === theirs), JSON.stringify(report.memories));
  });

  it('DEBUG holds while debug is still declared, though the code never names the variable', async () => {
    const { test } = await scannedAfterChange(
      {
        'package.json': pkg({ debug: '^4.3.0' }),
        'lib/app.js': appWith("const debug = require('debug')('webkit:application')"),
      },
      'Bump debug',
      { write: { 'package.json': pkg({ debug: '^4.4.0' }) } },
    );
    const id = await rememberAt(test, SESSION, BEFORE_CHANGE);
    const report = await test.call('drift', { all: true });
    const claim = memoryIn(report, id).claims.find((c) => c.kind === 'env');
    assert.deepEqual([claim?.subject, claim?.verdict], ['DEBUG', 'ok']);
  });
});
