import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ENVELOPE_TOKENS, fitToBudget, jsonTokens, strictlyWithin } from '../../engine/mcp/budget';
import { seededRandom } from '../support/seededRandom';

const tokenizerLoaded = () => Object.keys(require.cache).some((file) => file.includes('gpt-tokenizer'));

/** fitToBudget as it was before pages that fit in bytes were taken uncounted: every item counted. */
function countedFit<T>(items: T[], budget: number): number {
  let left = budget - ENVELOPE_TOKENS;
  let taken = 0;
  for (const item of items) {
    const cost = jsonTokens(item) + 1;
    if (cost > left) return Math.max(taken, 1);
    left -= cost;
    taken++;
  }
  return taken;
}

describe('token budgets (engine/mcp/budget.ts)', () => {
  // First, while no test in this process has counted a token yet.
  it('takes a page whose JSON is within the budget in bytes without loading the tokenizer', () => {
    const hits = Array.from({ length: 10 }, (_, i) => ({ id: `m_${i}`, content: `a short memory ${i}` }));
    assert.equal(fitToBudget(hits, 4000).taken, 10);
    assert.equal(strictlyWithin(hits, 4000).length, 10);
    assert.equal(tokenizerLoaded(), false, 'gpt-tokenizer was loaded for a page that fits in bytes');
    const long = Array.from({ length: 10 }, (_, i) => ({ id: `m_${i}`, content: 'word '.repeat(200) }));
    fitToBudget(long, 4000);
    assert.equal(tokenizerLoaded(), true);
  });

  it('gives the pages that counting every item gives, at and around the budget', () => {
    const random = seededRandom(18);
    const words = [
      'postgres',
      'migration',
      '\u00e9t\u00e9',
      '\u65e5\u672c',
      '{"a":1}',
      'x'.repeat(40),
      '\u{1F600}',
    ];
    for (let round = 0; round < 200; round++) {
      const items = Array.from({ length: 1 + Math.floor(random() * 12) }, (_, i) => ({
        id: i,
        text: Array.from(
          { length: Math.floor(random() * 60) },
          () => words[Math.floor(random() * words.length)],
        ).join(' '),
      }));
      const bytes = items.reduce((sum, item) => sum + Buffer.byteLength(JSON.stringify(item)) + 1, 0);
      const budget = 200 + Math.floor(random() * (bytes + ENVELOPE_TOKENS));
      const expected = countedFit(items, budget);
      assert.equal(fitToBudget(items, budget).taken, expected, `round ${round}, budget ${budget}`);
      const within = strictlyWithin(items, budget - ENVELOPE_TOKENS).length;
      assert.equal(Math.max(within, 1), expected, `round ${round}: strictlyWithin`);
    }
  });

  it('takes a page holding a special token, counted as the text it is', () => {
    const items = [{ content: 'ends here <|endoftext|>' }, { content: 'and <|fim_prefix|> here' }];
    assert.equal(fitToBudget(items, 4000).taken, 2);
    // Counted when the byte bound cannot decide: the tokens of the text, never a refusal.
    const tokens = jsonTokens(items[0]);
    assert.ok(tokens > 5, `${tokens} tokens`);
    assert.equal(fitToBudget(items, ENVELOPE_TOKENS + tokens + 1).taken, 1);
  });
});
