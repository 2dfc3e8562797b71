import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { definesMember, memberOwners } from '../../engine/drift/memberDefinitions';
import { BEFORE_CHANGE as WRITTEN, memoryIn, rememberAt, scannedAfterChange } from './driftHost';

const pkg = `${JSON.stringify({ name: 'thelib', main: 'index.js' }, null, 2)}\n`;
const WITH_SYNC = [
  "'use strict';",
  'function thelib(file, options) { return run(file, options); }',
  'thelib.sync = function (file, options) { return runSync(file, options); };',
  'module.exports = thelib;',
  '',
].join('\n');

/*
 * The cause 4: presence decided by any occurrence of the word. A method taken off the
 * project's main export (`thelib.sync`) leaves the word `sync` behind in option reads and an
 * error message; the member is no longer defined anywhere, so the claim is false.
 */
describe('drift: a member is present while the code defines it, not while the word survives', () => {
  it('`thelib.sync()` removed from the package, the word left in an option read, an error text and another object: stale', async () => {
    const { test, changing } = await scannedAfterChange(
      { 'package.json': pkg, 'index.js': WITH_SYNC },
      'Remove the synchronous API',
      {
        write: {
          'index.js': [
            "'use strict';",
            'function thelib(file, options) {',
            "  if (options.sync) throw new Error('thelib.sync() was removed: use thelibSync()');",
            '  return run(file, options);',
            '}',
            'function thelibSync(file, options) { return runSync(file, options); }',
            "// Another object of the API keeps a method of that name: not the package's own.",
            'function script(options) {',
            '  const bound = (file) => thelib(file, options);',
            '  bound.sync = (file) => thelibSync(file, options);',
            '  return bound;',
            '}',
            'module.exports = { thelib, thelibSync, script };',
            '',
          ].join('\n'),
        },
      },
    );
    const id = await rememberAt(test, 'Use `thelib.sync()` to run the file synchronously.', WRITTEN);
    const report = await test.call('drift', { all: true });
    const claim = memoryIn(report, id).claims.find((c) => c.subject === 'thelib.sync');
    assert.equal(claim?.verdict, 'stale', JSON.stringify(claim));
    assert.equal(claim?.evidence.commit?.hash, changing);
  });

  it('a method of another object (`runner.flush()`) no longer defined, the word left in reads and an error: stale', async () => {
    const { test, changing } = await scannedAfterChange(
      {
        'package.json': pkg,
        'index.js': [
          "'use strict';",
          'function Runner(options) { this.options = options; }',
          'Runner.prototype.flush = function () { return this.options.stream.end(); };',
          'module.exports = Runner;',
          '',
        ].join('\n'),
      },
      'Drop flush: streams end on close',
      {
        write: {
          'index.js': [
            "'use strict';",
            'function Runner(options) {',
            "  if (options.flush) throw new Error('flush() was removed: streams end on close');",
            '  this.options = options;',
            '}',
            'module.exports = Runner;',
            '',
          ].join('\n'),
        },
      },
    );
    const id = await rememberAt(test, 'Call `runner.flush()` before the process exits.', WRITTEN);
    const report = await test.call('drift', { all: true });
    const claim = memoryIn(report, id).claims.find((c) => c.subject.endsWith('flush'));
    assert.equal(claim?.verdict, 'stale', JSON.stringify(claim));
    assert.equal(claim?.evidence.commit?.hash, changing);
    assert.match(claim?.evidence.reason ?? '', /no longer defined/);
  });

  it('an option whose only definition went, still read by the code (`this.options.ws === true`): review, not stale', async () => {
    const { test, changing } = await scannedAfterChange(
      {
        'package.json': pkg,
        'config.js': 'exports.configure = function (config) { if (config.url) config.options.ws = true; };\n',
        'index.js': [
          "'use strict';",
          'function createProxy(options) { return new Proxy(options); }',
          'function Proxy(options) { this.options = options; }',
          'Proxy.prototype.upgrade = function (server) { if (this.options.ws === true) listen(server); };',
          'module.exports = { createProxy };',
          '',
        ].join('\n'),
      },
      'Drop the config factory: options come typed from the proxy library',
      { remove: ['config.js'] },
    );
    const example = [
      'Proxy websockets:',
      '```js',
      "const { createProxy } = require('thelib');",
      'const options = { ws: true };',
      'const proxy = createProxy(options);',
      '```',
    ].join('\n');
    const id = await rememberAt(test, example, WRITTEN);
    const report = await test.call('drift', { all: true });
    const claim = memoryIn(report, id).claims.find((c) => c.subject === 'ws');
    assert.equal(claim?.verdict, 'stale', JSON.stringify(claim));
    assert.equal(claim?.evidence.doubtful, true, JSON.stringify(claim));
    assert.equal(claim?.evidence.commit?.hash, changing);
    assert.notEqual(memoryIn(report, id).status, 'stale');
  });

  it('the member moved from an assignment into a class method: still present', async () => {
    const { test } = await scannedAfterChange(
      { 'package.json': pkg, 'index.js': WITH_SYNC },
      'Rewrite as a class',
      {
        write: {
          'index.js': [
            'class TheLib {',
            '  static sync(file, options) {',
            '    return runSync(file, options);',
            '  }',
            '}',
            'module.exports = TheLib;',
            '',
          ].join('\n'),
        },
      },
    );
    const id = await rememberAt(test, 'Use `thelib.sync()` to run the file synchronously.', WRITTEN);
    const report = await test.call('drift', { all: true });
    const claim = memoryIn(report, id).claims.find((c) => c.subject === 'thelib.sync');
    assert.equal(claim?.verdict ?? 'ok', 'ok', JSON.stringify(claim));
  });

  it('a member the entry exports (`exports.Runner = require(...)`) holds when the entry is renamed', async () => {
    const { test } = await scannedAfterChange(
      {
        'package.json': pkg,
        'lib/runner.js': 'class Runner {\n  run() {}\n}\nmodule.exports = Runner;\n',
        'index.js': "exports.Runner = require('./lib/runner');\n",
      },
      'Rename the entry to .cjs',
      { rename: [['index.js', 'index.cjs']] },
    );
    const id = await rememberAt(
      test,
      'Event names are on the `constants` property of `Thelib.Runner`.',
      WRITTEN,
    );
    const report = await test.call('drift', { all: true });
    const claim = report.memories.find((m) => m.id === id)?.claims.find((c) => c.subject === 'Thelib.Runner');
    assert.equal(claim?.verdict ?? 'ok', 'ok', JSON.stringify(claim));
  });

  it('reads the forms a member is defined in, and not its uses', () => {
    const defining = [
      'thelib.sync = function () {};',
      'module.exports.sync = (a) => a;',
      'Runner.prototype.sync = function () {};',
      'class A {\n  static async sync(a, b) {\n  }\n}',
      'class A {\n  sync(\n    a,\n    b\n  ): void {\n  }\n}',
      'module.exports = {\n  sync: function () {},\n};',
      'const api = { sync: (a) => a };',
      'module.exports = { run, sync };',
      'const { sync } = options;',
      'function run({\n  cwd,\n  sync = false,\n}) {}',
      'const defaults = { sync: false };',
      'export { run, sync as sync };',
      'export function sync() {}',
      'export const sync = () => 1;',
      'interface Api {\n  sync(file: string): void;\n}',
      'interface Api {\n  readonly sync?: boolean;\n}',
      // An inline object type of a type alias (helmet's CSP options since 80338af).
      'export type Options = { sync?: boolean } & (A | B);',
      // Throwing for another reason is still a definition.
      "export function sync(a) {\n  if (!a) throw new TypeError('a is required');\n  return a;\n}",
    ];
    for (const text of defining) assert.equal(definesMember(text, 'sync'), true, text);
    const using = [
      'if (options.sync) run();',
      'thelib.sync(file);',
      "throw new Error('thelib.sync() was removed');",
      '  const sync = options.sync === true;',
      'if (a.sync === b) {}',
      '  sync(file);',
      '// thelib.sync = old API',
      'const mode = strict ? sync : async;',
      // Bound from another module (vite's `generate` of selfsigned), not defined.
      "import { run, sync } from 'thelib-core';",
      "const { sync } = await import('selfsigned');",
      "const {\n  run,\n  sync,\n} = require('./sync');",
      // Stubs kept only to say the name is gone (sveltejs/kit's `prefetch` after its renaming).
      "export const sync = (..._args) => {\n\tthrow new Error('sync has been renamed to runSync');\n};",
      "function sync() { throw new Error('sync() was removed in v3'); }",
      "class A {\n  sync() {\n    throw new Error(\n      'sync() has been replaced by run()',\n    );\n  }\n}",
      "module.exports = {\n  sync: () => {\n    throw new Error('thelib.sync is no longer supported');\n  },\n};",
    ];
    for (const text of using) assert.equal(definesMember(text, 'sync'), false, text);
    const owners = (text: string) => [...memberOwners(text, 'sync')].sort();
    assert.deepEqual(owners('module.exports.sync = (a) => a;'), ['exports']);
    assert.deepEqual(owners('Runner.prototype.sync = function () {};'), ['Runner']);
    assert.deepEqual(owners('class Runner {\n  constructor() {\n    this.sync = true;\n  }\n}'), ['Runner']);
    assert.deepEqual(owners('boundExeca.sync = create(options);'), ['boundExeca']);
    assert.deepEqual(owners('class A {\n  static sync() {}\n}'), ['A']);
    assert.deepEqual(owners('export function sync() {}'), ['exports']);
    assert.deepEqual(owners('function sync() {}'), ['module']);
    assert.ok(owners('Object.assign(thelib, {\n  run,\n  sync,\n});').includes('thelib'));
    assert.ok(owners("Object.defineProperty(thelib, 'sync', { value: runSync });").includes('thelib'));
    assert.ok(owners('Object.defineProperties(thelib, { sync: { value: runSync } });').includes('thelib'));
  });
});
