import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tokenCount } from '../../engine/retrieval/tokenCount';

/** Modules of gpt-tokenizer's encoder in this process: its rank list alone is the table's source. */
const encoderModules = () =>
  Object.keys(require.cache).filter((file) => file.includes('gpt-tokenizer') && !file.includes('bpeRanks'));

describe('token counts (engine/retrieval/tokenCount.ts)', () => {
  // First, while nothing in this process has loaded gpt-tokenizer.
  it('counts special tokens and lone surrogates with the rank table, without gpt-tokenizer', () => {
    const texts = [
      'The sampler stops at <|endoftext|> and <|fim_prefix|> marks the infill prompt',
      '<|im_start|>user\nhello<|im_end|>',
      'half an emoji: \ud83d and a low half \ude00 alone',
    ];
    for (const text of texts) assert.ok(tokenCount(text) > 0);
    assert.deepEqual(encoderModules(), []);
  });

  it('counts a byte order mark as o200k lists it: `\\ufeffusing` is one token', () => {
    // gpt-tokenizer reads its byte tokens through a TextDecoder that drops a leading U+FEFF, so it
    // never finds the nine o200k tokens that begin with one and counts this as three.
    assert.equal(tokenCount('\ufeffusing'), 1);
    assert.equal(tokenCount('\ufeff'), 1);
  });
});
