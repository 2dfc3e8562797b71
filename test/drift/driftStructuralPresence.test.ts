import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractClaims } from '../../engine/drift/claimExtractor';
import { BEFORE_CHANGE as WRITTEN, memoryIn, rememberAt, scannedAfterChange } from './driftHost';
const pkg = (fields: object) => `${JSON.stringify({ name: 'thelib', ...fields }, null, 2)}\n`;

/*
 * Seen on the development repositories (bench:drift --misses, nodemon and winston): a denied API
 * name that the code only calls on another object is still absent from the project's API; and the
 * tools a project's tests are written with are its (dev) dependencies.
 */
describe('drift: presence by definition, tools named as what the tests are written with', () => {
  it('"there is no `removeListener`" holds while the code only calls it on an emitter it holds', async () => {
    const { test } = await scannedAfterChange(
      { 'package.json': pkg({}), 'lib/thelib.js': 'exports.on = function on(e, f) { bus.on(e, f); };\n' },
      'Unbind handlers on quit',
      {
        write: {
          'lib/thelib.js':
            'exports.on = function on(e, f) { bus.on(e, f); };\nfunction quit(e, f) { bus.removeListener(e, f); }\n',
        },
      },
    );
    const id = await rememberAt(
      test,
      "Note: there's no `removeListener` (a pull request is welcome).",
      WRITTEN,
    );
    const report = await test.call('drift', { all: true });
    assert.equal(report.memories.find((m) => m.id === id)?.status ?? 'ok', 'ok');
  });

  it('a denied API name the project later defines is still present although denied', async () => {
    const { test, changing: adding } = await scannedAfterChange(
      {
        'package.json': pkg({}),
        'lib/thelib.js': 'class TheLib {\n  on() {}\n}\nmodule.exports = TheLib;\n',
      },
      'Add removeListener',
      {
        write: {
          'lib/thelib.js': 'class TheLib {\n  on() {}\n  removeListener() {}\n}\nmodule.exports = TheLib;\n',
        },
      },
    );
    const id = await rememberAt(
      test,
      "Note: there's no `removeListener` (a pull request is welcome).",
      WRITTEN,
    );
    const report = await test.call('drift', { all: true });
    const claim = memoryIn(report, id).claims.find((c) => c.subject === 'removeListener');
    assert.equal(claim?.verdict, 'stale');
    assert.equal(claim?.evidence.commit?.hash, adding);
  });

  it('"the tests are written with `a`, `b`, and `c`" claims each as a dependency of the project', () => {
    const text =
      'All of the thelib tests are written with [`mocha`][mocha], [`nyc`][nyc], and\n[`assume`][assume].  They can be run with `npm`.';
    const deps = extractClaims(text, { projectPackages: new Set(['thelib']) })
      .filter((c) => c.kind === 'dependency')
      .map((c) => c.subject);
    assert.deepEqual(deps, ['mocha', 'nyc', 'assume']);
    const yours = 'Your tests can be written with [`mocha`][mocha] or [`jest`][jest].';
    assert.deepEqual(
      extractClaims(yours, { projectPackages: new Set(['thelib']) }).filter((c) => c.kind === 'dependency'),
      [],
      "the reader's tests name no dependency of the project",
    );
  });

  it('a test tool the project dropped is stale with the commit that dropped it', async () => {
    const { test, changing: moving } = await scannedAfterChange(
      { 'package.json': pkg({ devDependencies: { mocha: '^9.0.0', nyc: '^15.0.0' } }), 'index.js': '1;\n' },
      'Move the tests to jest',
      { write: { 'package.json': pkg({ devDependencies: { jest: '^29.0.0' } }) } },
    );
    const id = await rememberAt(
      test,
      'The tests are written with [`mocha`][mocha] and [`nyc`][nyc].',
      WRITTEN,
    );
    const report = await test.call('drift', { all: true });
    const stale = memoryIn(report, id).claims.filter((c) => c.kind === 'dependency' && c.verdict === 'stale');
    assert.deepEqual(stale.map((c) => c.subject).sort(), ['mocha', 'nyc']);
    assert.ok(stale.every((c) => c.evidence.commit?.hash === moving));
  });
});

/*
 * Seen on chokidar (development): "when using `fsevents` to watch" names a package the project
 * declared when the memory was written. Whose name it is was in doubt for a plain word; the
 * manifest settles it, and the commit that dropped the package makes the memory false.
 */
describe('drift: a name the manifest declared is a dependency', () => {
  it("only where the text says it is used: not the project's method (`send`), not a program the reader runs", () => {
    const used = (text: string) =>
      extractClaims(text, { projectPackages: new Set(['thelib']) })
        .filter((c) => c.usedAs === 'package')
        .map((c) => c.subject);
    assert.deepEqual(used('If set to `false` when using `fsevents` to watch, no events are emitted.'), [
      'fsevents',
    ]);
    assert.deepEqual(used('Whether to use the `fsevents` watching interface if available.'), ['fsevents']);
    // Markdown wraps the sentence; a paragraph break ends it.
    assert.deepEqual(used('Whether to use the\n`fsevents` watching interface.'), ['fsevents']);
    assert.deepEqual(used('Tools we use the most:\n\n`fsevents` watches on macOS.'), []);
    assert.deepEqual(used('As noted above, `send` will serialize the object. Run `tap` using `npx`.'), []);
  });

  it('`fsevents` in prose, dropped from optionalDependencies: stale with the commit; a kept one holds', async () => {
    const { test, changing } = await scannedAfterChange(
      {
        'package.json': pkg({
          optionalDependencies: { fsevents: '~2.3.2' },
          dependencies: { readdirp: '^3.6.0' },
        }),
        'index.js': "const fsevents = require('fsevents');\nconst readdirp = require('readdirp');\n",
      },
      'Drop fsevents',
      {
        write: {
          'package.json': pkg({ dependencies: { readdirp: '^4.0.1' } }),
          'lib/reply.js': 'Reply.prototype.send = function send(payload) { return payload; };\n',
          'index.js': "const readdirp = require('readdirp');\n",
        },
      },
    );
    const id = await rememberAt(
      test,
      'If set to `false` when using `fsevents` to watch, no more events are emitted; `readdirp` walks the tree.',
      WRITTEN,
    );
    const report = await test.call('drift', { all: true });
    const entry = memoryIn(report, id);
    const fsevents = entry.claims.find((c) => c.subject === 'fsevents');
    assert.equal(fsevents?.verdict, 'stale', JSON.stringify(entry.claims));
    assert.equal(fsevents?.evidence.commit?.hash, changing);
    assert.notEqual(fsevents?.evidence.doubtful, true, JSON.stringify(fsevents));
    assert.equal(entry.claims.find((c) => c.subject === 'readdirp')?.verdict ?? 'ok', 'ok');
    assert.equal(entry.status, 'stale');
  });
});
