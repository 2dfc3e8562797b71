import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { countTokens as libraryCount } from 'gpt-tokenizer';
import o200k from 'gpt-tokenizer/bpeRanks/o200k_base';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { bpeTokenCounter, O200K_PIECES } from '../../engine/retrieval/bpeCount';
import { decodeRankTable, rankTableFromRanks } from '../../engine/retrieval/bpeRankTable';
import { syntheticMemories } from '../bench/syntheticMemories';
import { seededRandom } from '../support/seededRandom';

const root = path.join(__dirname, '..', '..');

/** gpt-tokenizer's count with special tokens read as text, as Engram's budgets read them. */
const countTokens = (text: string) => libraryCount(text, { disallowedSpecial: new Set() });

/**
 * Where gpt-tokenizer is not the oracle: it looks its byte tokens up through a TextDecoder that
 * drops a leading U+FEFF, so the nine o200k tokens that begin with one are never found (`\ufeff`
 * is one token in its table, two in its count). The table counts them as o200k lists them.
 */
const BYTE_ORDER_MARK = '\ufeff';

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
    ...specialTokenTexts(random),
    ...loneSurrogateTexts(random),
  ].filter((text) => !text.includes(BYTE_ORDER_MARK));
}

/** Every special token of the o200k and harmony encodings, parts of them and look-alikes, amid other text. */
function specialTokenTexts(random: () => number): string[] {
  const names = ['endoftext', 'fim_prefix', 'fim_middle', 'fim_suffix', 'im_start', 'im_end', 'im_sep'];
  names.push('endofprompt', 'startoftext', 'start', 'end', 'message', 'channel', 'return', 'call');
  const parts = [
    ...names.map((name) => `<|${name}|>`),
    ...['<|', '|>', '<||>', '<|endof', 'endoftext|>', '<|<|endoftext|>|>', '<| im_end |>', '<|ENDOFTEXT|>'],
    ...['<<|>>', '<|\u65e5\u672c|>', '<|\u{1F600}|>', 'hello', ' world', '\n', '  ', '\r\n', "it's", '12345'],
    ...['caf\u00e9', '\u041f\u0440\u0438', '\u{1F469}\u200d\u{1F467}', '\u0301', '<', '|', '>', '\t'],
  ];
  return Array.from({ length: 3000 }, () =>
    Array.from(
      { length: 1 + Math.floor(random() * 30) },
      () => parts[Math.floor(random() * parts.length)],
    ).join(''),
  );
}

/**
 * Lone surrogates, which both encode as U+FFFD's bytes: cut emoji, every surrogate beside letters,
 * digits and spaces, and each o200k token holding U+FFFD with a lone surrogate in its place (gpt-tokenizer
 * merges that piece's bytes where the table finds it whole: the same count only if the merges reach it).
 */
function loneSurrogateTexts(random: () => number): string[] {
  const astral = 'a \u{1F600}b\u{1F469}\u200d\u{1F467} \u{1F44D}\u{1F3FD}x \u{20000}';
  const cuts = Array.from({ length: astral.length + 1 }, (_, i) => [
    astral.slice(0, i),
    astral.slice(i),
  ]).flat();
  const units = Array.from({ length: 0x800 / 7 }, (_, i) => String.fromCharCode(0xd800 + i * 7));
  const beside = units.flatMap((c) => [c, ` ${c}`, `a${c}b`, `${c}${c}`, `\u65e5${c}`, `${c}'s`, `${c}123`]);
  const fromTokens = o200k
    .filter((token): token is string => typeof token === 'string' && token.includes('\ufffd'))
    .flatMap((token) => ['\ud800', '\udfff'].map((lone) => token.replaceAll('\ufffd', lone)));
  const mixed = Array.from({ length: 1000 }, () =>
    Array.from({ length: 1 + Math.floor(random() * 20) }, () =>
      random() < 0.3 ? units[Math.floor(random() * units.length)] : 'word ',
    ).join(''),
  );
  return [...cuts, ...beside, ...fromTokens, ...mixed];
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

  it('the build stores the table, hash table included, as the engine encodes it from the ranks', () => {
    const stored = gunzipSync(readFileSync(path.join(root, 'dist', 'lazy', 'o200k.bin')));
    const encoded = rankTableFromRanks(o200k).encode();
    assert.equal(stored.length, encoded.length);
    assert.ok(stored.equals(encoded), 'dist/lazy/o200k.bin differs from the encoded ranks');
  });

  it('a stored table answers from the hash table it stores, without hashing its tokens again', () => {
    const ranks = ['a', 'b', 'ab', 'abc', [0xff, 0xfe]];
    const file = rankTableFromRanks(ranks).encode();
    const table = decodeRankTable(file);
    ranks.forEach((token, rank) => {
      const bytes = typeof token === 'string' ? Buffer.from(token) : Uint8Array.from(token);
      assert.equal(table.rankOf(bytes, 0, bytes.length), rank);
    });
    // Its 16 slots emptied (after the count and 6 offsets): nothing is found any more.
    const slotsAt = 4 * (1 + ranks.length + 1);
    const emptied = decodeRankTable(file.fill(0, slotsAt, slotsAt + 4 * 16));
    assert.equal(emptied.rankOf(Buffer.from('ab'), 0, 2), -1);
    assert.equal(emptied.size, ranks.length);
  });

  it('refuses a stored table cut short', () => {
    const file = rankTableFromRanks(['a', 'b', 'ab']).encode();
    assert.throws(() => decodeRankTable(file.subarray(0, 40)), /not a rank table/);
  });

  it('splits a text into pieces with the pattern gpt-tokenizer splits o200k text with', () => {
    assert.equal(O200K_PIECES.source, O200K_TOKEN_SPLIT_REGEX.source);
    assert.equal(O200K_PIECES.flags, O200K_TOKEN_SPLIT_REGEX.flags);
  });

  it('refuses a table that holds one token twice', () => {
    assert.throws(() => rankTableFromRanks(['a', 'b', 'ab', 'a']), /rank 3 repeats a token/);
  });
});
