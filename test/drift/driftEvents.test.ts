import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractClaims } from '../../engine/drift/claimExtractor';
import { driftHost, memoryIn, rememberAt } from './driftHost';
import { GitRepository } from './gitRepository';

const T1 = '2025-01-10T12:00:00Z';
const WRITTEN = '2025-02-01T00:00:00Z';
const T2 = '2025-03-01T12:00:00Z';
const emitter = (events: string[]) =>
  `class Runner {\n  run() {\n${events.map((e) => `    this.emit('${e}');\n`).join('')}  }\n}\nmodule.exports = Runner;\n`;

/*
 * "the `level-change` event", "`readable` event": events the docs name (pino, nodemon; bench:drift
 * --misses) were not claims at all. An event is a string the code emits, so it is checked as one.
 */
describe('drift: events named in prose', () => {
  it('are claimed as events, not identifiers', () => {
    const text = 'Listen for the `level-change` event; the runner emits `end`, and `pass` events follow.';
    assert.deepEqual(
      extractClaims(text)
        .filter((c) => c.kind === 'event')
        .map((c) => [c.subject, text.slice(c.span[0], c.span[1])]),
      [
        ['level-change', 'level-change'],
        ['end', 'end'],
        ['pass', 'pass'],
      ],
    );
  });

  it('an event the code stopped emitting is stale with its commit; one it still emits holds; another emitter’s is unverifiable', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, { write: { 'lib/runner.js': emitter(['start', 'level-change']) } });
    const renaming = repo.commit('Rename level-change to levelChange', T2, {
      write: { 'lib/runner.js': emitter(['start', 'levelChange']) },
    });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const id = await rememberAt(
      test,
      'The runner emits `start`, then the `level-change` event; sockets emit `drain` events.',
      WRITTEN,
    );
    const claims = memoryIn(await test.call('drift', { all: true }), id).claims.filter(
      (c) => c.kind === 'event',
    );
    const verdict = (name: string) => claims.find((c) => c.subject === name);
    assert.equal(verdict('start')?.verdict, 'ok');
    assert.equal(verdict('level-change')?.verdict, 'stale');
    assert.equal(verdict('level-change')?.evidence.commit?.hash, renaming);
    assert.equal(verdict('drain')?.verdict, 'unverifiable');
  });
});

describe('drift: events an example names on the project', () => {
  it("events on a chain that starts with the project are claims; another emitter's are not", () => {
    const text = [
      'Events:',
      '',
      '```js',
      "var thelib = require('thelib');",
      '',
      "thelib({ script: 'app.js' }).on('start', function () {",
      "  console.log('started');",
      "}).on('crash', function () {});",
      '',
      "thelib.emit('quit');",
      "process.on('exit', () => {});",
      '```',
    ].join('\n');
    const events = extractClaims(text, { projectPackages: new Set(['thelib']) })
      .filter((c) => c.kind === 'event')
      .map((c) => c.subject);
    assert.deepEqual(events, ['start', 'crash', 'quit']);
  });
});
