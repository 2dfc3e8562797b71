import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { argumentKindsAt } from '../../engine/drift/callArguments';
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

  it("names bound to another package or a URL are that module's API; a template string's names are text", () => {
    const text = [
      '```js',
      "import RefreshRuntime from 'http://localhost:3000/@react-refresh'",
      "import other, { helper } from 'otherlib'",
      "const { parse } = require('node:path')",
      "import express from 'express'",
      'let app = express()',
      "app.get('*', (req, res) => res.end())",
      'RefreshRuntime.injectIntoGlobalHook(window)',
      'other.run(helper())',
      "const T = require('thelib')",
      'T.watch(parse)',
      'console.log(`running ${T.version}`)',
      'const plugin = { transform(code) { return `export default Comp => { Comp.i18n = ${code} }` } }',
      '```',
    ].join('\n');
    const symbols = claimsOf(text).filter((c) => c[0] === 'symbol');
    assert.deepEqual(
      symbols.map((c) => c[1]),
      ['T.watch', 'T.version', 'transform'],
      JSON.stringify(symbols),
    );
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

  it("a variable passed to a call is the reader's value, not an API name; a key or a call inside is kept", () => {
    const text =
      "Same as `thelib('node', [scriptPath, ...extraArgs], options)`, or `thelib(file, {preferLocal: true}, makeSink())`.";
    const subjects = claimsOf(text).map((c) => c[1]);
    assert.ok(!subjects.includes('scriptPath') && !subjects.includes('extraArgs'), JSON.stringify(subjects));
    assert.ok(subjects.includes('preferLocal') && subjects.includes('makeSink'), JSON.stringify(subjects));
  });

  it('words in the strings of a shell command deny nothing', () => {
    const text = ['```bash', 'thelib deprecate my-thing@1.x "1.x is no longer supported"', '```'].join('\n');
    const claims = extractClaims(text, OWN);
    assert.ok(claims.length > 0, JSON.stringify(claims));
    assert.deepEqual(
      claims.filter((c) => c.negated).map((c) => c.subject),
      [],
    );
  });

  it('words in the strings of an example deny nothing; a sentence saying a call was removed does', () => {
    const example = [
      '```js',
      "const w = thelib.watch('a');",
      "w.on('unlinkDir', (path) => log(`Directory ${path} has been removed`));",
      '```',
    ].join('\n');
    const negated = extractClaims(example, OWN).filter((c) => c.negated);
    assert.deepEqual(negated, [], JSON.stringify(negated));
    const prose = extractClaims('`thelib.legacy()` has been removed.', OWN);
    assert.ok(prose.some((c) => c.subject === 'thelib.legacy' && c.negated));
  });

  it("the parameters of a function the example defines are its own names; a callback's are the project's", () => {
    const own = [
      '```js',
      'const filter = function (pathname, req) {',
      "  return pathname.match('^/api') && req.method === 'GET';",
      '};',
      '```',
    ].join('\n');
    assert.deepEqual(
      claimsOf(own).filter((c) => String(c[1]).startsWith('pathname')),
      [],
      JSON.stringify(claimsOf(own)),
    );
    const callback = ['```js', 'thelib.use((ctx, next) => {', '  ctx.throw(400);', '});', '```'].join('\n');
    assert.ok(
      claimsOf(callback).some((c) => c[1] === 'ctx.throw'),
      JSON.stringify(claimsOf(callback)),
    );
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

describe('drift on calls of an export the example renamed', () => {
  it('`import { v1 as uuidv1 }` then `uuidv1()`: stale when the export goes, ok while it stays', async () => {
    const index = (v1: string) => `${v1}export function v4(options, buf) {\n  return 'x';\n}\n`;
    const { test, changing } = await scannedAfterChange(
      {
        'package.json': JSON.stringify({ name: 'thelib', version: '1.0.0', main: 'index.js' }),
        'index.js': index("export function v1(options) {\n  return 'y';\n}\n"),
      },
      'Drop v1',
      { write: { 'index.js': index('') } },
    );
    const id = await rememberAt(
      test,
      "Create one:\n\n```js\nimport { v1 as uuidv1, v4 as uuidv4 } from 'thelib';\nuuidv1();\nuuidv4();\n```",
      BEFORE_CHANGE,
    );
    const claims = memoryIn(await test.call('drift', { all: true }), id).claims;
    const v1 = claims.find((c) => c.subject === 'v1');
    assert.deepEqual([v1?.verdict, v1?.evidence.commit?.hash], ['stale', changing], JSON.stringify(claims));
    assert.equal(claims.find((c) => c.subject === 'v4')?.verdict, 'ok');
    assert.equal(
      claims.some((c) => c.subject.startsWith('uuid')),
      false,
      "the reader's names claim nothing",
    );
  });
});

describe('drift on example calls by the kinds of their arguments', () => {
  const instance = (overloads: string) =>
    `export interface ServerInstance {\n${overloads}  close(): Promise<void>;\n}\n\nexport interface ListenOptions {\n  port?: number;\n  host?: string;\n}\n`;
  const OLD_TYPES =
    '  listen(port: number | string, callback: (err: Error, address: string) => void): void;\n  listen(opts: ListenOptions): Promise<string>;\n';
  const NEW_TYPES =
    '  listen(opts: ListenOptions, callback: (err: Error | null, address: string) => void): void;\n  listen(opts?: ListenOptions): Promise<string>;\n';
  const server =
    'function listen (listenOptions = { port: 0 }, cb = undefined) {\n  return cb\n}\nmodule.exports = { listen }\n';

  it('a call no typed declaration accepts any more is stale, with the commit; one still accepted holds', async () => {
    const { test, changing } = await scannedAfterChange(
      {
        'package.json': '{ "name": "thelib", "main": "lib/server.js", "types": "types/instance.d.ts" }\n',
        'types/instance.d.ts': instance(OLD_TYPES),
        'lib/server.js': server,
      },
      'Remove the variadic listen',
      { write: { 'types/instance.d.ts': instance(NEW_TYPES) } },
    );
    const id = await rememberAt(
      test,
      "Start it:\n\n```js\nconst thelib = require('thelib')()\nthelib.listen(3000, (err, address) => {\n  if (err) throw err\n})\n```",
      BEFORE_CHANGE,
    );
    const kept = await rememberAt(
      test,
      "Start it:\n\n```js\nconst thelib = require('thelib')()\nawait thelib.listen({ port: 3000 })\n```",
      BEFORE_CHANGE,
    );
    const report = await test.call('drift', { all: true });
    const call = memoryIn(report, id).claims.find((c) => c.subject === 'thelib.listen');
    assert.deepEqual(
      [call?.verdict, call?.evidence.doubtful, call?.evidence.commit?.hash, call?.evidence.repair],
      ['stale', undefined, changing, undefined],
      JSON.stringify(memoryIn(report, id).claims),
    );
    assert.match(String(call?.evidence.reason), /no declaration accepts \(number, function\)/);
    assert.equal(memoryIn(report, kept).claims.find((c) => c.subject === 'thelib.listen')?.verdict, 'ok');
  });
});

describe('the kinds of a call arguments', () => {
  it('reads literals, functions and objects, and takes `[options]` for the docs notation of an optional parameter', () => {
    const kinds = (call: string) => argumentKindsAt(call, call.indexOf('('));
    assert.deepEqual(kinds("listen(3000, '0.0.0.0', (err, address) => { if (err) throw err })"), [
      'number',
      'string',
      'function',
    ]);
    assert.deepEqual(kinds('listen({ port: 3000, host: "::" }, async function () {})'), [
      'object',
      'function',
    ]);
    assert.deepEqual(kinds('child(bindings, [options])'), ['other', 'other']);
    assert.deepEqual(kinds("levels([1, 2], ['a'])"), ['array', 'array']);
    assert.equal(kinds('close()'), undefined);
  });
  it('the same call made again word for word is one claim; a call with other arguments is another', () => {
    const snippet = (line: string) => [
      '```js',
      "const thelib = require('thelib')",
      'const f = thelib()',
      line,
      '```',
    ];
    const text = [
      ...snippet("f.listen(8080, () => { console.log('running') })"),
      'Or with types:',
      ...snippet("f.listen(8080, () => { console.log('running') })"),
      ...snippet("f.listen({ port: 8080 }, () => { console.log('running') })"),
      ...snippet("f.listen(3000, () => { console.log('running') })"),
    ].join('\n');
    const calls = extractClaims(text, OWN).filter((c) => c.subject.endsWith('listen'));
    assert.deepEqual(
      calls.map((c) => [c.subject, c.argumentKinds?.join()]),
      [
        ['f.listen', 'number,function'],
        ['f.listen', 'object,function'],
        ['f.listen', 'number,function'],
      ],
      JSON.stringify(calls),
    );
  });
});
