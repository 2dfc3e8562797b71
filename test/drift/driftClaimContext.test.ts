import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractClaims } from '../../engine/drift/claimExtractor';
import type { DriftReport } from '../../engine/drift/driftReport';
import { driftHost, rememberAt } from './driftHost';
import { GitRepository } from './gitRepository';

/*
 * What a text asserts about the project, and what can show it: the causes of the false flags an
 * outside evaluation found (issue 13), each as a case that failed before claims were read in
 * context and presence was read from code only.
 */

const OWN = { projectPackages: new Set(['thelib']) };
const summary = (text: string) => extractClaims(text, OWN).map((c) => [c.kind, c.subject, c.negated]);

describe('drift claims in context', () => {
  it('an example claims only the project API it calls, as a call (no declaration, no locals, no outside packages)', () => {
    const text = [
      'Use it like this:',
      '```js',
      "const thelib = require('thelib')",
      "const pako = require('pako')",
      'const finalLogger = thelib.final(logger, (err, evt) => {})',
      "await client('https://example.com/x', { json: true })",
      'finalLogger.info(`done`)',
      '```',
    ].join('\n');
    const all = extractClaims(text, OWN);
    // The call of an unbound name and the keys passed to it may be anything: checked, never decisive.
    assert.deepEqual(
      all.filter((c) => c.confidence === 'low').map((c) => c.subject),
      ['client', 'json'],
    );
    const claims = all.filter((c) => c.confidence === undefined);
    assert.deepEqual(
      claims.map((c) => [c.kind, c.subject]),
      [
        ['subpath', 'thelib'],
        ['symbol', 'thelib.final'],
        ['symbol', 'finalLogger.info'],
      ],
      "pako is the reader's, client and the other names are the example's own; finalLogger is what thelib returned",
    );
    assert.equal(claims[0]?.signature, undefined, 'a call is no declaration');
  });

  it("a name the example gave an import (`{ v4 as uuidv4 }`, `{ v4: uuidv4 }`) is the reader's: its call claims the export", () => {
    const symbols = (text: string) =>
      extractClaims(text, OWN)
        .filter((c) => c.kind === 'symbol')
        .map((c) => [c.subject, text.slice(c.span[0], c.span[1]), c.parameters, c.confidence ?? 'sure']);
    assert.deepEqual(symbols("```js\nimport { v4 as uuidv4 } from 'thelib';\nuuidv4();\n```"), [
      ['v4', 'uuidv4()', undefined, 'sure'],
    ]);
    assert.deepEqual(
      symbols("```js\nconst { v4: uuidv4 } = require('thelib');\nuuidv5('x', NS);\nuuidv4(opts);\n```"),
      [
        ['v4', 'v4', undefined, 'low'],
        // Never imported: an unbound call, checked but never decisive.
        ['uuidv5', 'uuidv5', 2, 'low'],
        ['v4', 'uuidv4', 1, 'sure'],
      ],
    );
    // Imported under its own name, the call is the project's API.
    assert.deepEqual(symbols("```js\nimport { v4 } from 'thelib';\nv4();\n```"), [
      ['v4', 'v4()', undefined, 'sure'],
    ]);
  });

  it('a denial inside a subordinate clause is about that clause\'s subject ("called when they are dropped")', () => {
    const negated = (text: string) =>
      extractClaims(text, OWN)
        .filter((c) => c.kind === 'symbol')
        .map((c) => [c.subject, c.negated]);
    assert.deepEqual(
      negated('* `dispose` Function that is called on items when they are dropped from the cache.'),
      [['dispose', false]],
    );
    assert.deepEqual(negated('`cleanup()` runs once a file is deleted.'), [['cleanup', false]]);
    assert.deepEqual(negated('When calling `thelib.setListener`, the previous handler is removed.'), [
      ['thelib.setListener', false],
    ]);
    // Without one, the denial still reaches its subject.
    assert.deepEqual(negated('Note that `legacyMode()` was removed.'), [['legacyMode', true]]);
  });

  it("the project's own name with a version is the project, never a dependency it dropped", () => {
    assert.deepEqual(
      summary('This usage was discouraged in `thelib@3` and has been removed in `thelib@7`.'),
      [],
    );
    assert.deepEqual(
      summary("Deep requires like `require('thelib/v4')` are no longer supported.").filter(
        ([kind]) => kind === 'dependency',
      ),
      [],
    );
    // Another package with a version still is one.
    assert.deepEqual(summary('It was built on `debug@2.6.9`.'), [['dependency', 'debug', false]]);
  });

  it("keys of an object passed to the project's own function are its options, whatever their spelling", () => {
    const confidence = (text: string) =>
      extractClaims(text, OWN)
        .filter((c) => c.subject === 'ignoreInitial')
        .map((c) => c.confidence ?? 'sure');
    assert.deepEqual(confidence("```js\nthelib.watch('src', {\n  ignoreInitial: false,\n});\n```"), ['sure']);
    // Passed to a name the example never bound to the project: anyone's key, so doubtful.
    assert.deepEqual(confidence("```js\nwatcher('src', {\n  ignoreInitial: false,\n});\n```"), ['low']);
    // Assigned to a name first, then passed: still the project's options; another object is not.
    assert.deepEqual(
      confidence("```js\nconst opts = { ignoreInitial: false };\nconst w = thelib.watch('src', opts);\n```"),
      ['sure'],
    );
    assert.deepEqual(
      confidence("```js\nconst opts = { ignoreInitial: false };\nthelib.watch('src');\nlog(opts);\n```"),
      ['low'],
    );
  });

  it('output and shell blocks: no symbols, no dependencies from `npm install`, scripts kept', () => {
    const text = [
      'Run:',
      '```sh',
      'npm install thelib otherlib',
      'npm run build',
      '```',
      '```',
      'PinoAsync average: 129.507ms',
      'OtherThing average: 3.1ms',
      '```',
    ].join('\n');
    // Installing the project itself claims it is published under that name (driftPublishedPackage).
    assert.deepEqual(summary(text), [
      ['subpath', 'thelib', false],
      ['script', 'build', false],
    ]);
  });

  it('a dependency only when the text says the project uses it', () => {
    assert.deepEqual(summary('It works with web apps (React, Vue.js, Angular) and servers.'), []);
    assert.deepEqual(summary('This project uses React for its views.'), [['dependency', 'react', false]]);
    assert.deepEqual(summary('We no longer use Redux.'), [['dependency', 'redux', true]]);
    assert.deepEqual(summary('Logging uses debug@2.6.9 everywhere.'), [['dependency', 'debug', false]]);
  });

  it('negation reaches only its object or subject, within its clause', () => {
    assert.deepEqual(summary('Keep them in sync so that there are no discrepancies in README.md files.'), [
      ['path', 'README.md', false],
    ]);
    assert.deepEqual(
      summary("`url`, `method` and `data` options don't need to be specified in config.").map((c) => c[2]),
      [false, false, false],
    );
    assert.deepEqual(summary('The `thelib.extreme` function has been completely removed.'), [
      ['symbol', 'thelib.extreme', true],
    ]);
  });

  it('"don\'t have to" is no denial, nor is a denial the text only supposes ("if it doesn\'t use X")', () => {
    // (Redux's names the package: a dependency claim if the manifest declared it then, not denied.)
    assert.deepEqual(summary("Build it so that we don't have to go through Redux's `createStore`."), [
      ['dependency', 'redux', false],
      ['symbol', 'createStore', false],
    ]);
    assert.deepEqual(summary("If the plugin doesn't use Redux hooks, name it after Rollup."), []);
    assert.deepEqual(summary("Unless you don't use Redux, keep it."), []);
    // A tool with a version is no dependency claim unless the text says the project uses it.
    assert.deepEqual(summary('JSX defaults to the React 16 flavor.'), []);
    assert.deepEqual(summary('We use Redux 4 for state.'), [['dependency', 'redux', false]]);
    // A config value is never a word of the sentence around it.
    assert.deepEqual(
      summary('`fileName` is the name option of package.json.').filter((c) => c[0] === 'config'),
      [],
    );
    // A denial ends where "and" starts another verb; a list after it is still denied.
    assert.deepEqual(
      summary('It writes `package.json` without the `scripts` key and adds a `"type": "module"`.')
        .filter((c) => c[0] === 'config')
        .map((c) => [c[1], c[2]]),
      [['type', false]],
    );
    assert.deepEqual(summary('There is no `thelib.alpha` and `thelib.beta`.'), [
      ['symbol', 'thelib.alpha', true],
      ['symbol', 'thelib.beta', true],
    ]);
    // Advice to the reader denies nothing.
    assert.deepEqual(summary('We strongly recommend you do not use `thelib.hash` unless you have to.'), [
      ['symbol', 'thelib.hash', false],
    ]);
    assert.deepEqual(summary('Do not use `thelib.hash` in tests.'), [['symbol', 'thelib.hash', false]]);
    assert.deepEqual(summary('We do not use `thelib.hash` any more.'), [['symbol', 'thelib.hash', true]]);
    // A relative clause's denial is about what it refers to; "run without X" is a way of running.
    assert.deepEqual(summary('Packages that do not have a `thelib.version` field are ignored.'), [
      ['symbol', 'thelib.version', false],
    ]);
    assert.deepEqual(summary('Run without `thelib.call` to get a shell.'), [
      ['symbol', 'thelib.call', false],
    ]);
    assert.deepEqual(summary('It is impossible without using `thelib.list`.'), [
      ['symbol', 'thelib.list', false],
    ]);
    assert.deepEqual(summary('It works without `thelib.list`.'), [['symbol', 'thelib.list', true]]);
    // Seen on redux (explore): a clause opened by "without" is a condition, "say you don't use X"
    // a supposition; neither says X is gone.
    assert.deepEqual(summary('Without `thelib.combine()` or similar code, the state always wins.'), [
      ['symbol', 'thelib.combine', false],
    ]);
    assert.deepEqual(summary("Say you don't use `thelib.combine()`."), [['symbol', 'thelib.combine', false]]);
    // Stated, the same words still deny.
    assert.deepEqual(summary("The app doesn't use Redux."), [['dependency', 'redux', true]]);
  });

  it('a template placeholder (`%sapper.head%`) or a package file (`README`) is no symbol of the code', () => {
    assert.deepEqual(summary('Replace `%sapper.head%` with `%svelte.head%`; call `thelib.head()`.'), [
      ['symbol', 'thelib.head', false],
    ]);
    assert.deepEqual(
      summary('`FROM`, `WHERE` and `JOIN` take subqueries; `DATETIME` is a string; see `Where`.'),
      [['symbol', 'Where', false]],
    );
    assert.deepEqual(summary('Always included: `README`, `LICENSE` and `thelib.files`.'), [
      ['path', 'LICENSE', false],
      ['symbol', 'thelib.files', false],
    ]);
  });

  it('markdown emphasis is no symbol; a bare word is a low-confidence claim unless named as API', () => {
    assert.deepEqual(summary('__DEPRECATED: use `transport` instead.__ This is _not_ needed.'), [
      ['symbol', 'transport', false],
    ]);
    const [event] = extractClaims('Emitted as `ready` when done.', OWN);
    assert.equal(event?.confidence, 'low');
    const [option] = extractClaims('Set the `prettifier` option to a module.', OWN);
    assert.equal(option?.confidence, undefined);
  });
});

const memoryIn = (report: DriftReport, id: string) => {
  const memory = report.memories.find((m) => m.id === id);
  assert.ok(memory, `no memory ${id}`);
  return memory;
};

describe('drift evidence is code, not text', () => {
  it('a renamed option stays gone although an error message, the docs, their site, a test and a lockfile still name it', async () => {
    const repo = new GitRepository();
    repo.commit('initial', '2025-01-01T00:00:00Z', {
      write: {
        'package.json': JSON.stringify({ name: 'thelib', version: '1.0.0' }),
        'lib/options.js':
          'export function normalize(options) {\n  return { retryLimit: options.retryLimit };\n}\n',
      },
    });
    const renaming = repo.commit('Rename retryLimit to retries', '2025-02-01T00:00:00Z', {
      write: {
        'lib/options.js': [
          'export function normalize(options) {',
          "  if (options.legacy) throw new Error('`retryLimit` has been renamed `retries`');",
          '  // the old name is refused above',
          '  return { retries: options.retries };',
          '}',
          '',
        ].join('\n'),
        'test/options.test.js': 'normalize({ retryLimit: 1 });\n',
        // The docs site's own code (Docusaurus and the like) is not the project's.
        'website/src/pages/options.js': 'export const shown = { retryLimit: 3 };\n',
        'package-lock.json': JSON.stringify({ packages: { 'node_modules/retryLimit': {} } }),
      },
    });
    repo.commit('Docs mention the old name', '2025-03-01T00:00:00Z', {
      write: { 'README.md': 'The `retryLimit` option was renamed.\n' },
    });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const id = await rememberAt(
      test,
      'Set the `retryLimit` option to retry failed requests.',
      '2025-01-15T00:00:00Z',
    );
    const claim = memoryIn(await test.call('drift', { all: true }), id).claims.find(
      (c) => c.subject === 'retryLimit',
    );
    assert.equal(claim?.verdict, 'stale');
    assert.equal(claim?.evidence.commit?.hash, renaming, 'the code commit, never the README edit');
  });

  it('a link relative to its document is repaired relative to it: text and URL, nothing else', async () => {
    const repo = new GitRepository();
    repo.commit('initial', '2025-01-01T00:00:00Z', {
      write: { 'docs/guide.md': 'x\n', 'docs/example/run.html': '<p>run</p>\n' },
    });
    repo.commit('Rename the example folder', '2025-03-01T00:00:00Z', {
      rename: [['docs/example/run.html', 'docs/examples/run.html']],
    });
    const test = await driftHost(repo.root);
    const original = 'Open [example/run.html](example/run.html) in a browser to see `it` run.';
    const { memory } = await test.call('remember', {
      content: original,
      validFrom: '2025-02-01T00:00:00Z',
      source: { file: 'docs/guide.md' },
      dedupe: false,
    });
    const fixed = await test.call('drift', { fix: true, ids: [memory.id] });
    assert.equal(fixed.fix?.actions[0]?.action, 'rewrite');
    assert.equal(
      (await test.call('get', { id: memory.id })).memory.content,
      'Open [examples/run.html](examples/run.html) in a browser to see `it` run.',
    );
  });

  it('a word that was never in the code is no drift; a path already gone before the memory blames no commit', async () => {
    const repo = new GitRepository();
    repo.commit('initial', '2025-01-01T00:00:00Z', {
      write: {
        'docs/guide.md': 'See example/run.html\n',
        'docs/example/run.html': '<p>run</p>\n',
        'old/a.txt': 'a\n',
      },
    });
    repo.commit('Move old', '2025-01-05T00:00:00Z', { remove: ['old/a.txt'], write: { 'new/a.txt': 'a\n' } });
    const deleting = repo.commit('Remove the example', '2025-03-01T00:00:00Z', {
      remove: ['docs/example/run.html'],
    });
    const test = await driftHost(repo.root);
    const id = await test.call('remember', {
      content: 'For a running example see [example/run.html](example/run.html); `someHelper()` is yours.',
      validFrom: '2025-02-01T00:00:00Z',
      source: { file: 'docs/guide.md' },
      dedupe: false,
    });
    const memory = memoryIn(await test.call('drift', { all: true }), id.memory.id);
    const paths = memory.claims.filter((c) => c.kind === 'path');
    assert.ok(paths.length > 0);
    for (const path of paths) {
      assert.equal(path.verdict, 'stale', 'resolved beside the memory source file');
      assert.equal(path.evidence.commit?.hash, deleting);
    }
    assert.notEqual(memory.claims.find((c) => c.subject === 'someHelper')?.verdict, 'stale');
    const before = await rememberAt(test, 'Old notes are in old/a.txt', '2025-02-01T00:00:00Z');
    const gone = memoryIn(await test.call('drift', { all: true }), before).claims[0];
    assert.equal(
      gone?.verdict,
      'unverifiable',
      'already gone before the memory: no commit before it is blamed',
    );
  });

  // Seen on redux (explore): `todo.text` in its tutorials, whose only other `text` was a gitbook
  // theme's CSS; when the theme went, eleven memories were called drifted.
  it('a stylesheet is no evidence of a name in the code', async () => {
    const repo = new GitRepository();
    repo.commit('initial', '2025-01-01T00:00:00Z', {
      write: {
        'package.json': JSON.stringify({ name: 'thelib', version: '1.0.0' }),
        'lib/index.js': 'export function createStore(reducer) { return { reducer }; }\n',
        'theme/book.css': '.page { text-align: left; color: #333; }\n',
      },
    });
    repo.commit('Remove dead theme CSS', '2025-03-01T00:00:00Z', { remove: ['theme/book.css'] });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const id = await rememberAt(
      test,
      'Each todo shows `todo.text` in its `todo.color`.',
      '2025-02-01T00:00:00Z',
    );
    const claims = memoryIn(await test.call('drift', { all: true }), id).claims;
    for (const claim of claims) assert.notEqual(claim.verdict, 'stale', JSON.stringify(claim));
  });
});
