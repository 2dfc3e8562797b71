import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BEFORE_COMMIT,
  BEFORE_CHANGE as WRITTEN,
  driftHost,
  memoryIn,
  rememberAt,
  scannedAfterChange,
} from './driftHost';
import { GitRepository } from './gitRepository';

const pkg = `${JSON.stringify({ name: 'thelib', main: 'index.js' }, null, 2)}\n`;
const READS_STALE = [
  "'use strict';",
  'function Cache(options) {',
  '  this.max = options.max;',
  '  this.allowStale = options.stale || false;',
  '}',
  'module.exports = Cache;',
  '',
].join('\n');

/** lru-cache's README form: a plain word in a list of options. */
const OPTION_LIST =
  'Options:\n* `max` The most items kept.\n* `stale` If set, an expired value is returned once before it is deleted.';

/*
 * An option the code only ever read (`options.stale`), never declared: the memory's claim held
 * while the code read it. Renamed (`options.allowStale`), the word lives on in a status string
 * and a comment; no code reads or defines it, so the claim is false since the renaming commit.
 */
describe('drift: an option the code read when the memory was written and no longer reads', () => {
  it('`stale` read from the options then, renamed since, the word left in strings and comments: stale', async () => {
    const { test, changing } = await scannedAfterChange(
      { 'package.json': pkg, 'index.js': READS_STALE },
      'Rename the stale option to allowStale',
      {
        write: {
          'index.js': [
            "'use strict';",
            'function Cache(options) {',
            '  this.max = options.max;',
            '  // allowStale: return a stale value once before deleting it',
            '  this.allowStale = options.allowStale || false;',
            '}',
            "Cache.prototype.status = function (expired) { return expired ? 'stale' : 'hit'; };",
            'module.exports = Cache;',
            '',
          ].join('\n'),
        },
      },
    );
    // A plain word in a list of options: whose word it is was in doubt; the code's reads settle it.
    const id = await rememberAt(test, OPTION_LIST, WRITTEN);
    const report = await test.call('drift', { all: true });
    const claim = memoryIn(report, id).claims.find((c) => c.subject === 'stale');
    assert.equal(claim?.verdict, 'stale', JSON.stringify(claim));
    assert.equal(claim?.evidence.doubtful, undefined, JSON.stringify(claim));
    assert.equal(claim?.evidence.commit?.hash, changing);
    assert.match(claim?.evidence.reason ?? '', /no longer read/);
    assert.equal(memoryIn(report, id).status, 'stale');
  });

  it('an option still read from the options in another file: present', async () => {
    const { test } = await scannedAfterChange(
      { 'package.json': pkg, 'index.js': READS_STALE },
      'Move option handling to lib/options.js',
      {
        write: {
          'index.js': "'use strict';\nmodule.exports = require('./lib/cache');\n",
          'lib/cache.js': [
            "'use strict';",
            "const { allowsStale } = require('./options');",
            'function Cache(options) { this.allowStale = allowsStale(options); }',
            'module.exports = Cache;',
            '',
          ].join('\n'),
          'lib/options.js': 'exports.allowsStale = (opts) => opts.stale === true;\n',
        },
      },
    );
    const id = await rememberAt(
      test,
      'Set the `stale` option to get an expired value back once before it is deleted.',
      WRITTEN,
    );
    const report = await test.call('drift', { all: true });
    const claim = memoryIn(report, id).claims.find((c) => c.subject === 'stale');
    assert.equal(claim?.verdict ?? 'ok', 'ok', JSON.stringify(claim));
  });

  it('a word the code read from something other than options then (`res.stale`): not decided by this rule', async () => {
    const { test } = await scannedAfterChange(
      {
        'package.json': pkg,
        'index.js': "'use strict';\nexports.fresh = (res) => !res.stale;\n",
      },
      'Compute freshness from the age',
      {
        write: {
          'index.js': "'use strict';\nexports.fresh = (res) => res.age < 60 && res.status !== 'stale';\n",
        },
      },
    );
    const id = await rememberAt(test, 'A response marked `stale` is never fresh.', WRITTEN);
    const report = await test.call('drift', { all: true });
    const claim = memoryIn(report, id).claims.find((c) => c.subject === 'stale');
    assert.equal(claim?.verdict ?? 'ok', 'ok', JSON.stringify(claim));
  });
});

/* Which commit a removal is blamed on: the one after which the claim stayed false. */
describe('drift: the commit that broke a claim for good', () => {
  it('removed, restored a release later as a deprecated alias, removed again: the second removal broke it', async () => {
    const repo = new GitRepository();
    repo.commit('initial', BEFORE_COMMIT, { write: { 'package.json': pkg, 'index.js': READS_STALE } });
    const rewrite = [
      "'use strict';",
      'function Cache(options) { this.allowStale = options.allowStale || false; }',
      'module.exports = Cache;',
      '',
    ].join('\n');
    repo.commit('Start over for v7', '2025-03-01T12:00:00Z', { write: { 'index.js': rewrite } });
    repo.commit('Keep stale as a deprecated alias', '2025-04-01T12:00:00Z', {
      write: {
        'index.js': [
          "'use strict';",
          'function Cache(options) {',
          '  const { allowStale, stale } = options;',
          "  if (stale) process.emitWarning('stale is deprecated: use allowStale');",
          '  this.allowStale = !!allowStale || !!stale;',
          '}',
          'module.exports = Cache;',
          '',
        ].join('\n'),
      },
    });
    const dropped = repo.commit('Drop deprecated options', '2025-05-01T12:00:00Z', {
      write: { 'index.js': `${rewrite}Cache.prototype.status = () => 'stale';\n` },
    });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const id = await rememberAt(test, OPTION_LIST, WRITTEN);
    const report = await test.call('drift', { all: true });
    const claim = memoryIn(report, id).claims.find((c) => c.subject === 'stale');
    assert.equal(claim?.verdict, 'stale', JSON.stringify(claim));
    assert.equal(claim?.evidence.commit?.hash, dropped);
  });

  it('a definition moved to another file, then removed: the removal broke it, not the move', async () => {
    const repo = new GitRepository();
    repo.commit('initial', BEFORE_COMMIT, {
      write: {
        'package.json': pkg,
        'src/react/Hydrate.js': 'export const Hydrate = ({ children }) => children;\n',
        'index.js': "export * from './src/react/Hydrate.js';\n",
      },
    });
    repo.commit('Move the React bindings to their own package', '2025-03-01T12:00:00Z', {
      rename: [['src/react/Hydrate.js', 'packages/react/src/Hydrate.js']],
      write: { 'index.js': "export * from './packages/react/src/Hydrate.js';\n" },
    });
    const removed = repo.commit('Rename Hydrate to HydrationBoundary', '2025-04-01T12:00:00Z', {
      write: {
        'packages/react/src/Hydrate.js': [
          'export const HydrationBoundary = ({ children }) => children;',
          "export const renamed = ['Hydrate', 'HydrationBoundary'];",
          '',
        ].join('\n'),
      },
    });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const id = await rememberAt(test, 'Wrap the page in `Hydrate` to hydrate its queries.', WRITTEN);
    const report = await test.call('drift', { all: true });
    const claim = memoryIn(report, id).claims.find((c) => c.subject === 'Hydrate');
    assert.equal(claim?.verdict, 'stale', JSON.stringify(claim));
    assert.equal(claim?.evidence.commit?.hash, removed);
  });
});
