import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractClaims } from '../../engine/drift/claimExtractor';
import { BEFORE_CHANGE, memoryIn, rememberAt, scannedAfterChange } from './driftHost';

/*
 * What a usage example calls of the project beyond `pkg.method()`: the package itself, names
 * taken straight from it, and methods on the `this` it gives callbacks. Seen unextracted in the
 * development repositories' docs (bench:drift --misses); each is checked, the weak ones never
 * decisive.
 */

const OWN = { projectPackages: new Set(['thelib']), projectPrograms: new Set(['thelib']) };
const claimsOf = (text: string) =>
  extractClaims(text, OWN).map((c) => [
    c.kind,
    c.subject,
    text.slice(c.span[0], c.span[1]),
    c.confidence ?? 'high',
  ]);

describe('drift claims in examples: calls of the package, its exports, `this`', () => {
  it('a call of the package itself is claimed under its name, never decisive; a value it returned is not', () => {
    const text = ['```js', "const T = require('thelib')", 'const log = T(dest)', 'log(1)', '```'].join('\n');
    assert.deepEqual(claimsOf(text), [
      ['subpath', 'thelib', 'thelib', 'high'],
      ['symbol', 'thelib', 'T', 'low'],
    ]);
  });

  it('`require(pkg).name` claims the export; the variable holding it is not the package', () => {
    const text = [
      '```js',
      "var testCase = require('thelib').describe;",
      "testCase('x', () => {})",
      '```',
    ].join('\n');
    assert.deepEqual(claimsOf(text), [
      ['subpath', 'thelib', 'thelib', 'high'],
      ['symbol', 'describe', 'describe', 'high'],
    ]);
  });

  it('a method called on `this` in a callback is a low-confidence claim', () => {
    const text = ['```js', "describe('x', function () {", '  this.retries(4);', '});', '```'].join('\n');
    assert.ok(claimsOf(text).some((c) => c[1] === 'retries' && c[3] === 'low'));
  });

  it("an option heading listing a flag's aliases claims each long flag, spanning its short alias", () => {
    const text = '### `--require <module>, -r <module>`\n\n### `--inspect, --inspect-brk, inspect`';
    assert.deepEqual(claimsOf(text), [
      ['command', 'thelib --require', '--require <module>, -r <module>', 'high'],
      ['command', 'thelib --inspect', '--inspect', 'high'],
      ['command', 'thelib --inspect-brk', '--inspect-brk, inspect', 'high'],
    ]);
  });

  it('a JSDoc link names the API it links to', () => {
    assert.deepEqual(claimsOf('Listen on the {@link Runner#run} of a runner.'), [
      ['symbol', 'Runner.run', 'Runner#run', 'high'],
    ]);
  });

  it("what the project's API uses is the project's dependency", () => {
    const text =
      'Slower than `thelib.destination` which uses the fast [`sonic-boom`](https://x.example/sb) library.';
    assert.ok(claimsOf(text).some((c) => c[0] === 'dependency' && c[1] === 'sonic-boom'));
  });

  it('a repository with several own packages still reads "`thelib.x` which uses X" as its dependency', () => {
    const text =
      '`thelib.destination` which\nuses the fast [`sonic-boom`](https://x.example/sonic-boom) library.';
    const claims = extractClaims(text, { projectPackages: new Set(['thelib', 'fixture']) });
    assert.ok(claims.some((c) => c.kind === 'dependency' && c.subject === 'sonic-boom'));
  });
});

describe('drift on example calls through an unbound name', () => {
  it("a member the project's code defined when the memory was written, and removed since, is gone", async () => {
    const reply = (extra: string) =>
      `function Reply (res) { this.res = res }\nReply.prototype.send = function (payload) { return this.res.end(payload) }\n${extra}module.exports = Reply\n`;
    const { test, changing } = await scannedAfterChange(
      { 'lib/reply.js': reply('Reply.prototype.getResponseTime = function () { return 1 }\n') },
      'Remove reply.getResponseTime in favour of reply.elapsedTime',
      { write: { 'lib/reply.js': reply('') } },
    );
    const id = await rememberAt(
      test,
      'How long the request took:\n\n```js\nconst milliseconds = reply.getResponseTime()\nreply.send(milliseconds)\n```',
      BEFORE_CHANGE,
    );
    const report = await test.call('drift', { all: true });
    const claims = memoryIn(report, id).claims;
    const gone = claims.find((c) => c.subject === 'reply.getResponseTime');
    assert.deepEqual(
      [gone?.verdict, gone?.evidence.doubtful, gone?.evidence.commit?.hash],
      ['stale', undefined, changing],
    );
    assert.equal(claims.find((c) => c.subject === 'reply.send')?.verdict, 'ok');
    assert.equal(memoryIn(report, id).status, 'stale');
  });
});
