import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tokenCount, truncateToTokens } from '../../engine/retrieval/tokenCount';
import { openTestHost } from '../support/host';

describe('context for agents', () => {
  it('counts tokens with a real tokenizer and truncates within a budget', () => {
    assert.equal(tokenCount('hello world'), 2);
    const long = 'The quick brown fox jumps over the lazy dog. '.repeat(50);
    const cut = truncateToTokens(long, 20);
    assert.ok(tokenCount(cut) <= 20, `${tokenCount(cut)}`);
    assert.ok(cut.endsWith('…'));
    assert.equal(truncateToTokens('short', 20), 'short');
  });

  it('puts pinned and critical memories first, then relevant ones, each with its id', async () => {
    const t = await openTestHost();
    const pinned = (await t.call('remember', { content: 'Never force-push to main', pinned: true })).memory
      .id;
    const critical = (
      await t.call('remember', { content: 'Production database is read-only for agents', critical: true })
    ).memory.id;
    const relevant = (await t.call('remember', { content: 'Rate limiting lives in src/api/rateLimit.ts' }))
      .memory.id;
    await t.call('remember', { content: 'Lunch is at noon' });
    const block = await t.call('context', { query: 'rate limiting', budget: 400 });
    assert.deepEqual(block.included.map((m) => m.id).slice(0, 3), [critical, pinned, relevant]);
    assert.match(
      block.text,
      /### Pinned and critical\n- \[m_\w+\] \(fact, \d{4}-\d\d-\d\d\) Production database/,
    );
    assert.match(block.text, new RegExp(`### Relevant to: rate limiting\\n- \\[${relevant}\\]`));
    assert.ok(block.tokens <= 400);
  });

  it('stays within small budgets, truncating or skipping what does not fit', async () => {
    const t = await openTestHost();
    for (let i = 0; i < 12; i++)
      await t.call('remember', {
        content: `Deployment note ${i}: ${'the staging cluster needs a manual approval step before promotion '.repeat(4)}`,
      });
    for (const budget of [100, 200, 400]) {
      const block = await t.call('context', { query: 'deployment staging approval', budget });
      assert.ok(block.tokens <= budget, `${block.tokens} > ${budget}`);
      assert.ok(block.included.length > 0);
    }
    const small = await t.call('context', { query: 'deployment staging approval', budget: 120 });
    assert.ok(
      small.skipped.some((s) => s.reason === 'over budget') || small.included.some((m) => m.truncated),
    );
  });

  it('skips what the conversation already received, and includes it again after eviction or change', async () => {
    const t = await openTestHost();
    const id = (await t.call('remember', { content: 'The API gateway enforces rate limits per token' }))
      .memory.id;
    const first = await t.call('context', { query: 'rate limits', conversation: 'c1' });
    assert.deepEqual(
      first.included.map((m) => m.id),
      [id],
    );
    const second = await t.call('context', { query: 'rate limits', conversation: 'c1' });
    assert.deepEqual(second.included, []);
    assert.deepEqual(second.skipped, [{ id, reason: 'already injected' }]);
    assert.deepEqual(
      (await t.call('context', { query: 'rate limits', conversation: 'c2' })).included.map((m) => m.id),
      [id],
    );
    await t.call('edit', { id, changes: { content: 'The API gateway enforces rate limits per user' } });
    assert.deepEqual(
      (await t.call('context', { query: 'rate limits', conversation: 'c1' })).included.map((m) => m.id),
      [id],
    );
  });

  it('rejects a budget that is not a sensible token count', async () => {
    const t = await openTestHost();
    await assert.rejects(
      t.call('context', { query: 'x', budget: 5 }),
      /budget must be a whole number of tokens from 50 to 200000; got 5/,
    );
  });
});
