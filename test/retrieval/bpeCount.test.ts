import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { countTokens } from 'gpt-tokenizer';
import o200k from 'gpt-tokenizer/bpeRanks/o200k_base';
import { bpeTokenCounter } from '../../engine/retrieval/bpeCount';
import { decodeRankTable, rankTableFromRanks } from '../../engine/retrieval/bpeRankTable';
import { syntheticMemories } from '../bench/syntheticMemories';
import { seededRandom } from '../support/seededRandom';

const root = path.join(__dirname, '..', '..');

/** Texts of every kind a budget meets: code, prose, JSON, other scripts, emoji, long runs. */
function corpus(): string[] {
  const files = ['engine/retrieval', 'engine/mcp', 'docs']
    .flatMap((dir) => readdirSync(path.join(root, dir)).map((name) => path.join(root, dir, name)))
    .filter((file) => /\.(ts|md)$/.test(file))
    .map((file) => readFileSync(file, 'utf8'));
  const memories = syntheticMemories(300, 5);
  const random = seededRandom(18);
  const alphabets = [
    'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ',
    '0123456789.,;:!?-_/\\\'"()[]{}<>|=+*&^%$#@~`',
    ' \t\r\n',
    '\u00e9\u00e8\u00fc\u00f6\u00df\u00e7\u0301\u0300',
    '\u65e5\u672c\u8a9e\u4e2d\u6587\ud55c\uad6d\uc5b4',
    '\u041f\u0440\u0438\u0432\u0435\u0442\u0645\u0631\u062d\u0628\u0627',
    '\u{1F600}\u{1F469}\u200d\u{1F467}\u{1F44D}\u{1F3FD}',
  ];
  const mixed = Array.from({ length: 300 }, () => {
    const chars = [...alphabets.slice(0, 1 + Math.floor(random() * alphabets.length)).join('')];
    return Array.from(
      { length: Math.floor(random() * 400) },
      () => chars[Math.floor(random() * chars.length)],
    ).join('');
  });
  const runs = [
    ' '.repeat(500),
    'ab'.repeat(700),
    '\n\n\r\n\t  x',
    '1234567890'.repeat(30),
    'z'.repeat(3000),
  ];
  return [
    ...files,
    JSON.stringify(memories.map((content, i) => ({ id: `m_${i}`, content }))),
    ...memories,
    ...mixed,
    ...runs,
  ].filter((text) => !text.includes('<|'));
}

describe('token counts from the rank table (engine/retrieval/bpeCount.ts)', () => {
  const texts = corpus();

  it('counts every text as gpt-tokenizer does, with the table made from its ranks', () => {
    const count = bpeTokenCounter(rankTableFromRanks(o200k));
    let tokens = 0;
    for (const [i, text] of texts.entries()) {
      const expected = countTokens(text);
      tokens += expected;
      assert.equal(count(text), expected, `text ${i}: ${JSON.stringify(text.slice(0, 80))}`);
      // Again, now from the counts it keeps of each piece.
      assert.equal(count(text), expected, `text ${i}, counted twice`);
    }
    assert.ok(tokens > 100_000, `only ${tokens} tokens compared`);
  });

  it('reads the table the build writes (dist/lazy/o200k.bin) as the same ranks', () => {
    // The test runner builds dist/ before any test runs (scripts/runTests.mjs).
    const built = decodeRankTable(readFileSync(path.join(root, 'dist', 'lazy', 'o200k.bin')));
    assert.equal(built.size, o200k.length);
    const fromRanks = rankTableFromRanks(o200k);
    const count = bpeTokenCounter(built);
    for (const text of texts.slice(-400)) assert.equal(count(text), countTokens(text));
    const probe = Buffer.from('function budget');
    assert.equal(built.rankOf(probe, 0, probe.length), fromRanks.rankOf(probe, 0, probe.length));
  });

  it('refuses a table that holds one token twice', () => {
    assert.throws(() => rankTableFromRanks(['a', 'b', 'ab', 'a']), /rank 3 repeats a token/);
  });
});
