import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cosineOfUnitVectors } from '../../engine/embedding/unitVector';
import type { EmbeddingProvider } from '../../engine/embedding/types';
import { distinguishingDifference } from '../../engine/memory/distinguishingTokens';
import { openTestHost, useLiteProvider } from '../support/host';
import type { TestHost } from '../support/host';

/** Two facts each: the default model scores every pair at or above the 0.92 merge threshold. */
const DISTINCT: Array<[string, string]> = [
  ['Ticket 101 is assigned to the billing team', 'Ticket 102 is assigned to the billing team'],
  ['The dev server runs on port 3000', 'The dev server runs on port 3001'],
  ['Pin the SDK to v1.2', 'Pin the SDK to v1.3'],
  ['The config loader lives in `src/a.ts`', 'The config loader lives in `src/b.ts`'],
  ['Mail alice@example.com for access', 'Mail bob@example.com for access'],
];

/** One fact said twice: case, punctuation, number words, inline code and word order aside. */
const RESTATED: Array<[string, string]> = [
  ['Use pnpm for installs.', 'Use pnpm for installs'],
  ['Use pnpm for installs.', 'For installs, use pnpm.'],
  ['Use pnpm for installs', 'use pnpm for installs!'],
  ['In CI, use pnpm', 'Use pnpm in CI'],
  ['Use `pnpm` for installs', 'Use pnpm for installs'],
  ['Melanie has two kids', 'Melanie has 2 kids'],
  ['Alice reviews the database migrations', 'The database migrations are reviewed by Alice'],
  [
    'The API listens on port 3000 and the UI on port 3001',
    'The UI listens on port 3001 and the API on port 3000',
  ],
];

describe('distinguishing tokens of a text', () => {
  it('tell two facts apart when a number, version, path, email or name differs', () => {
    const writers: Array<[string, string]> = [
      ['writer 1 note 1', 'writer 1 note 2'],
      ['writer 2 note 1', 'writer 1 note 2'],
    ];
    for (const [a, b] of [
      ...writers,
      ...DISTINCT,
      ['Alice prefers tabs over spaces', 'Bob prefers tabs over spaces'],
    ])
      assert.ok(distinguishingDifference(a!, b!) !== undefined, `"${a}" and "${b}" read as one fact`);
    assert.equal(distinguishingDifference('ticket 101', 'ticket 102'), '"101" vs "102"');
    assert.equal(distinguishingDifference('writer 2 note 1', 'writer 1 note 2'), '"writer 2" vs "writer 1"');
    assert.equal(
      distinguishingDifference('Edit `src/a.ts` first', 'Edit `src/b.ts` first'),
      '"src/a.ts" vs "src/b.ts"',
    );
    assert.equal(distinguishingDifference('Alice prefers tabs', 'Bob prefers tabs'), '"alice" vs "bob"');
  });

  it('find nothing between restatements of one fact', () => {
    for (const [a, b] of RESTATED)
      assert.equal(distinguishingDifference(a, b), undefined, `"${a}" and "${b}" read as two facts`);
  });
});

describe('remember with the default embedding model never merges distinct facts', () => {
  let provider: EmbeddingProvider;
  let test: TestHost;
  before(async () => {
    provider = useLiteProvider();
    test = await openTestHost({ embedding: provider });
  });
  after(() => test.host.close());

  const activeCount = async () => (await test.call('stats')).memories;

  it('keeps all 48 notes of four writers that each remember twelve ("writer P note I")', async () => {
    const outcomes: string[] = [];
    // Interleaved, as four concurrent writers land: each note meets its near twins of every writer.
    for (let note = 1; note <= 12; note++)
      for (let writer = 1; writer <= 4; writer++) {
        const result = await test.call('remember', { content: `writer ${writer} note ${note}` });
        outcomes.push(result.outcome);
      }
    assert.deepEqual(
      outcomes.filter((o) => o !== 'added'),
      [],
    );
    assert.equal(await activeCount(), 48);
  });

  it('adds the second of each near-identical pair that differs in a number, version, path or email', async () => {
    const vectors = await provider.embed(DISTINCT.flat());
    for (const [i, [a, b]] of DISTINCT.entries()) {
      // Without this the test could pass for the wrong reason: the model alone would keep them apart.
      const cosine = cosineOfUnitVectors(vectors[2 * i]!, vectors[2 * i + 1]!);
      assert.ok(cosine >= 0.92, `"${a}" / "${b}": cosine ${cosine.toFixed(3)} is below the threshold`);
      const first = await test.call('remember', { content: a });
      const second = await test.call('remember', { content: b });
      assert.equal(first.outcome, 'added', a);
      assert.equal(second.outcome, 'added', `"${b}" was merged into "${a}"`);
      assert.equal(second.merged, undefined);
      assert.equal((await test.call('get', { id: first.memory.id })).memory.content, a);
    }
  });

  it('still merges a true restatement, and says into which memory, replacing what, and why', async () => {
    const first = await test.call('remember', { content: 'Use pnpm for installs.', tags: ['tooling'] });
    assert.equal(first.outcome, 'added');
    const again = await test.call('remember', { content: 'Use pnpm for installs' });
    assert.equal(again.outcome, 'updated');
    assert.equal(again.memory.id, first.memory.id);
    assert.equal(again.merged?.into, first.memory.id);
    assert.equal(again.merged?.previousContent, 'Use pnpm for installs.');
    assert.equal(again.merged?.similarity, again.similarity);
    assert.match(again.merged.reason, /^restatement: similarity 0\.\d\d >= 0\.92 and no number/);
    const reordered = await test.call('remember', { content: 'For installs, use pnpm.' });
    assert.equal(reordered.outcome, 'updated');
    assert.equal(reordered.merged?.into, first.memory.id);
    assert.equal(reordered.merged?.previousContent, 'Use pnpm for installs');
  });
});

describe('remember with a low merge threshold', () => {
  it('keeps apart texts that name different people even when the threshold lets them merge', async () => {
    // USE-lite scores "Alice ..." / "Bob ..." about 0.7: a lower threshold shows the names decide.
    const test = await openTestHost({
      embedding: useLiteProvider(),
      limits: { nearDuplicateThreshold: 0.6 },
    });
    after(() => test.host.close());
    const alice = await test.call('remember', { content: 'Alice prefers tabs over spaces' });
    const bob = await test.call('remember', { content: 'Bob prefers tabs over spaces' });
    assert.equal(alice.outcome, 'added');
    assert.equal(bob.outcome, 'added');
    const restated = await test.call('remember', { content: 'Alice prefers tabs to spaces' });
    assert.equal(restated.outcome, 'updated');
    assert.equal(restated.merged?.into, alice.memory.id);
  });
});
