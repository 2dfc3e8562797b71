import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { driftHost, memoryIn, rememberAt } from './driftHost';
import { GitRepository } from './gitRepository';
import { optionForm } from '../../engine/drift/optionPresence';

const T1 = '2025-01-10T12:00:00Z';
const BETWEEN = '2025-02-01T00:00:00Z';
const T2 = '2025-03-01T12:00:00Z';
const T3 = '2025-04-01T12:00:00Z';
const PKG = `${JSON.stringify({ name: 'thelib', main: 'index.js' }, null, 2)}\n`;

/** An example passing `length` to the package, and prose calling it an option. */
const PASSED =
  '```js\nvar LRU = require("thelib")\n  , options = { max: 500, length: function (n) { return n.length } }\n  , cache = new LRU(options)\n```';
const NAMED = 'Return the total length of the cache, taking into account the `length` options function.';

const OLD_CACHE = [
  'class Cache {',
  '  constructor(options) {',
  '    this.max = options.max',
  '    this.lengthCalculator = options.length || (() => 1)',
  '    this.list = []',
  '  }',
  '  get size() { return this.list.length }',
  '}',
  'module.exports = Cache',
  '',
].join('\n');

/** The option renamed; `.length` of arrays and an object key `length` stay everywhere. */
const RENAMED = (option: string) =>
  [
    'class Cache {',
    '  constructor(options) {',
    `    const { max, ${option} } = options`,
    '    this.max = max',
    `    this.sizeCalculation = ${option}`,
    '    this.list = Array.from({ length: max })',
    '  }',
    '  get size() { return this.list.length }',
    '}',
    'module.exports = Cache',
    '',
  ].join('\n');

async function claimsOf(repo: GitRepository, text: string, source?: string) {
  const test = await driftHost(repo.root);
  await test.call('scan', { tokens: false });
  const id = source
    ? (
        await test.call('remember', {
          content: text,
          validFrom: BETWEEN,
          dedupe: false,
          source: { file: source },
        })
      ).memory.id
    : await rememberAt(test, text, BETWEEN);
  return memoryIn(await test.call('drift', { all: true }), id).claims.filter((c) => c.subject === 'length');
}

const ITEMS =
  '* `max` The maximum size of the cache.\n* `length` Function that is used to calculate the length of stored items.';
const README = (heading: string) => `# thelib\n\n## ${heading}\n\n${ITEMS}\n`;

function history(option: string, heading = 'Options'): { repo: GitRepository; renamed: string } {
  const repo = new GitRepository();
  repo.commit('initial', T1, {
    write: { 'package.json': PKG, 'index.js': OLD_CACHE, 'README.md': README(heading) },
  });
  const renamed = repo.commit('rename length to sizeCalculation', T2, {
    write: { 'index.js': RENAMED(option) },
  });
  repo.commit('unrelated', T3, { write: { 'lib/util.js': 'exports.count = (xs) => xs.length\n' } });
  return { repo, renamed };
}

/**
 * lru-cache's `length` option became `sizeCalculation`; the word `length` lives on in every
 * array's `.length` and `{ length: max }`, so a presence check by the word kept it "present".
 */
describe('drift: an option is present while the code takes it from its options', () => {
  it('an option renamed away from a common member name is stale, blamed on the rename', async () => {
    const { repo, renamed } = history('sizeCalculation');
    const text = `${PASSED}\n\n${NAMED}`;
    const claims = await claimsOf(repo, text);
    const at = [text.indexOf('length:'), text.indexOf('`length` options') + 1];
    const options = claims.filter((c) => at.includes(c.span[0]));
    assert.equal(options.length, 2, 'the object key and the option named in prose');
    for (const claim of options) {
      assert.equal(claim.verdict, 'stale', JSON.stringify(claim.evidence));
      assert.equal(claim.evidence?.doubtful, undefined, 'decided, not only asked');
      assert.equal(claim.evidence?.commit?.hash, renamed);
    }
  });

  it('a name opening an item of a list under an "Options" heading is an option', async () => {
    const { repo, renamed } = history('sizeCalculation');
    const item = (await claimsOf(repo, ITEMS, 'README.md')).find(
      (c) => c.span[0] === ITEMS.indexOf('length'),
    );
    assert.equal(item?.verdict, 'stale', JSON.stringify(item));
    assert.equal(item?.evidence.commit?.hash, renamed);
    // The same list under another heading names nothing known to be an option.
    const elsewhere = (await claimsOf(history('sizeCalculation', 'API').repo, ITEMS, 'README.md')).find(
      (c) => c.span[0] === ITEMS.indexOf('length'),
    );
    assert.equal(elsewhere?.verdict, 'ok', 'under "## API": the word `length` is still in the code');
  });

  it('holds while the code still destructures it from its options', async () => {
    const { repo } = history('length');
    for (const claim of await claimsOf(repo, `${PASSED}\n\n${NAMED}`))
      assert.equal(claim.verdict, 'ok', JSON.stringify(claim.evidence));
  });
});

describe('drift: the forms in which code takes an option', () => {
  it('reads, destructurings and typed keys of options; other uses of the word are not', () => {
    assert.equal(optionForm('const lc = options.length || naive', 'length'), 'options');
    assert.equal(optionForm('this.#opts?.length', 'length'), 'options');
    assert.equal(optionForm('const {\n  max = 0,\n  length,\n} = options', 'length'), 'options');
    assert.equal(
      optionForm('interface CacheOptions<K> { max?: number; length?: (v: K) => number }', 'length'),
      'options',
    );
    assert.equal(
      optionForm(
        'export interface DispatchHandlers {\n  onConnect?(abort: () => void): void;\n}',
        'onConnect',
      ),
      'options',
    );
    assert.equal(optionForm('const { length } = opts || {}', 'length'), 'options');
    const csp = [
      'export type CspOptions = { reportOnly?: boolean } & (',
      '  | { useDefaults?: true; directives?: Directives }',
      '  | { useDefaults: false; directives: Directives }',
      ');',
    ].join('\n');
    assert.equal(optionForm(csp, 'useDefaults'), 'options', "a type alias's joined object types");
    const parameter =
      'const parse = ({\n  useDefaults = true,\n  directives: raw = {},\n}: Readonly<CspOptions>) => raw';
    assert.equal(optionForm(parameter, 'directives'), 'options', 'a typed parameter pattern');
    assert.equal(optionForm('const { length } = list', 'length'), 'maybe');
    assert.equal(optionForm("warn('length')", 'length'), 'maybe');
    assert.equal(
      optionForm('Array.from({ length: max }); xs.length; class Stack { length: number }', 'length'),
      'none',
    );
  });
});
