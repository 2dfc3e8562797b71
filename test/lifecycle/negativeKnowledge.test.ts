import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { negativeInput, NEGATIVE_PREFIX } from '../../engine/memory/negativeKnowledge';
import { EngramError } from '../../engine/errors';
import { openTestHost } from '../support/host';

/** A project that mentions caches a lot, and says once that it has no Redis. */
const PROJECT = [
  'HTTP responses for /api/catalog are cached by the CDN for five minutes',
  'The build cache lives in .turbo; clear it with npm run clean when builds act strange',
  'Feature flags are read through the in-process LRU cache in src/cache/lru.ts',
  'Cache keys for the catalog include the locale and the currency',
  'Invalidate the catalog cache after a price import with npm run cache:bust',
  'Session tokens are stored in Postgres in the sessions table',
  // Mentions the thing without saying it is absent: a shorter text, so BM25 ranks it above the negative one.
  'Read the Redis docs on eviction policies while comparing caches',
];
const NEGATIVE =
  'There is no Redis here: the LRU in src/cache/lru.ts is the only server-side store for hot keys';

async function projectWithNegative() {
  const t = await openTestHost();
  for (const content of PROJECT) await t.call('remember', { content });
  const negative = await t.call('remember', negativeInput({ content: NEGATIVE }));
  return { t, id: negative.memory.id };
}

describe('negative knowledge', () => {
  it('is stored as a semantic memory of kind negative, its prefix never stored', async () => {
    const t = await openTestHost();
    const { memory } = await t.call(
      'remember',
      negativeInput({ content: `${NEGATIVE_PREFIX}We do not use GraphQL; the API is REST only` }),
    );
    assert.equal(memory.kind, 'negative');
    assert.equal(memory.layer, 'semantic');
    assert.equal(memory.content, 'We do not use GraphQL; the API is REST only');
    assert.throws(
      () => negativeInput({ content: 'x', kind: 'fact' }),
      (e: unknown) =>
        EngramError.is(e, 'INVALID_INPUT') && /kind "negative"; got kind "fact"/.test(e.message),
    );
  });

  it('comes first when someone asks for the thing that does not exist', async () => {
    const { t, id } = await projectWithNegative();
    for (const query of ['redis', 'how do I flush the Redis cache?', 'redis cache keys']) {
      const { hits } = await t.call('recall', { query, k: 5, explain: true });
      assert.equal(hits[0]?.memory.id, id, `${query}: ${hits.map((h) => h.memory.content).join(' | ')}`);
      assert.ok((hits[0]?.boosts?.negative ?? 1) > 1, query);
    }
  });

  it('is marked in the context block, and the write policy redacts it like any memory', async () => {
    const { t, id } = await projectWithNegative();
    const block = await t.call('context', { query: 'redis cache', budget: 400 });
    assert.match(
      block.text,
      new RegExp(`- \\[${id}\\] \\(negative, [\\d-]+\\) ${NEGATIVE_PREFIX}There is no Redis`),
    );
    const secret = await t.call(
      'remember',
      negativeInput({
        content: 'Never commit the key sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD to the repo',
      }),
    );
    assert.equal(secret.memory.kind, 'negative');
    assert.doesNotMatch(secret.memory.content, /sk-proj-abcdef/);
    assert.ok(secret.redacted.length > 0);
  });
});
