import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractClaims } from '../../engine/drift/claimExtractor';
import { headingAbove } from '../../engine/drift/headingClaims';
import { BEFORE_CHANGE, BEFORE_COMMIT, CHANGE_COMMIT, driftHost, memoryIn } from './driftHost';
import { GitRepository } from './gitRepository';

/*
 * Seen on execa and lru-cache (development): an option reference documents `#### serialization`
 * and then, in a block of its own, "Type: `string` / Default: `'json'`"; a method list has
 * "* `reset()`" and then, indented, "Clear the cache entirely.". A memory taken from such a block
 * names nothing, while its document, as it was when the memory was written, says what it is about.
 */
const README = [
  '# thelib',
  '',
  '## Options',
  '',
  '#### serialization',
  '',
  'Type: `string`\\',
  "Default: `'json'`",
  '',
  '#### shell',
  '',
  'Type: `boolean`\\',
  'Default: `false`',
  '',
  '#### detached',
  '',
  'Type: `boolean`\\',
  'Default: `false`',
  '',
  '## Installation',
  '',
  'Default: `npm`',
  '',
  '## API',
  '',
  '* `reset()`',
  '',
  '    Clear the cache entirely, throwing away all values.',
  '',
  '* `itemCount`',
  '',
  '    Return total quantity of objects currently in cache. Its tests are in `test/count.js` today.',
  '',
  '```sh',
  '# keys()',
  '```',
  '',
  'Return the keys.',
  '',
].join('\n');

const code = (serialization: string, reset: boolean) =>
  [
    'class Cache {',
    `  constructor ({ serialization = '${serialization}', shell = false } = {}) {`,
    '    this.serialization = serialization',
    '    this.shell = shell',
    '  }',
    ...(reset
      ? [
          '  reset () {',
          '    this.items = []',
          '  }',
          '  get itemCount () {',
          '    return this.items.length',
          '  }',
        ]
      : ['  clear () {', '    this.items = []', '  }']),
    '}',
    'module.exports = Cache',
    '',
  ].join('\n');

describe('drift: the heading above a memory in its source document', () => {
  it('is the heading or code list item right above the block, and only a name', () => {
    const at = (text: string) => headingAbove(README, README.indexOf(text));
    assert.deepEqual(at("Type: `string`\\\nDefault: `'json'`"), {
      name: 'serialization',
      call: false,
      code: false,
    });
    assert.deepEqual(at('    Clear the cache'), { name: 'reset', call: true, code: true });
    assert.equal(at('Default: `npm`'), undefined, '"Installation" names no part of the API');
    assert.equal(at('Return the keys.'), undefined, 'a comment in a code block is no heading');
    assert.equal(at('## API'), undefined, 'a block after prose is not the first under a heading');
  });

  it('gives an unnamed default its option and a described method its name', () => {
    const text = "Type: `string`\\\nDefault: `'json'`";
    const defaults = extractClaims(text, { heading: { name: 'serialization', call: false, code: false } });
    assert.deepEqual(
      defaults.filter((c) => c.kind === 'config').map((c) => [c.subject, c.value, c.isDefault]),
      [['serialization', 'json', true]],
    );
    const described = '    Clear the cache entirely, throwing away all values.';
    const method = extractClaims(described, { heading: { name: 'reset', call: true, code: true } });
    assert.deepEqual(
      method.map((c) => [c.kind, c.subject, described.slice(c.span[0], c.span[1])]),
      [['symbol', 'reset', 'Clear']],
    );
  });

  it("checks the block's claims against the code, with the document as it was when the memory was written", async () => {
    const repo = new GitRepository();
    repo.commit('initial', BEFORE_COMMIT, {
      write: {
        'README.md': README,
        'lib/cache.js': code('json', true),
        'test/count.js': 'module.exports = 1\n',
      },
    });
    const changing = repo.commit('Serialize with the advanced format; reset() is clear()', CHANGE_COMMIT, {
      write: { 'README.md': '# thelib\n\nSee the website.\n', 'lib/cache.js': code('advanced', false) },
      remove: ['test/count.js'],
    });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const remember = async (content: string) =>
      (
        await test.call('remember', {
          content,
          validFrom: BEFORE_CHANGE,
          dedupe: false,
          source: { file: 'README.md' },
        })
      ).memory.id;
    const serialization = await remember("Type: `string`\\\nDefault: `'json'`");
    const reset = await remember('    Clear the cache entirely, throwing away all values.');
    // The same block stands under `shell` and `detached`: which one the memory is about is unknown.
    const ambiguous = await remember('Type: `boolean`\\\nDefault: `false`');

    const count = await remember(
      '    Return total quantity of objects currently in cache. Its tests are in `test/count.js` today.',
    );

    const report = await test.call('drift', { all: true });
    const option = memoryIn(report, serialization).claims.find((c) => c.kind === 'config');
    assert.deepEqual(
      [option?.subject, option?.verdict, option?.evidence.commit?.hash],
      ['serialization', 'stale', changing],
    );
    const method = memoryIn(report, reset).claims.find((c) => c.kind === 'symbol');
    assert.deepEqual(
      [method?.subject, method?.verdict, method?.evidence.commit?.hash],
      ['reset', 'stale', changing],
    );
    assert.deepEqual(
      memoryIn(report, ambiguous).claims.filter((c) => c.kind === 'config'),
      [],
    );
    // `itemCount` written without parameters may be another object's property: a doubtful finding,
    // which leaves its sentence said, so the memory is to review, not dead.
    const counted = memoryIn(report, count);
    assert.deepEqual(
      counted.claims.map((c) => [c.subject, c.verdict, c.evidence.doubtful === true]),
      [
        ['itemCount', 'stale', true],
        ['test/count.js', 'stale', false],
      ],
    );
    assert.equal(counted.status, 'stale');
    // A re-check reads the stored claims: the same report, claims in the same (text) order.
    const again = await test.call('drift', { all: true });
    assert.deepEqual(memoryIn(again, count).claims, counted.claims);
  });
});
