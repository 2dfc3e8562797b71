import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tokenize } from '../../engine/lexical/tokenizer';

// tokenize caches each raw token's terms; these pin that the cache never changes an answer.
describe('tokenize with its per-token cache', () => {
  it('answers the same the first and the second time, with repeats kept', () => {
    const text = 'The getUserName helper calls getUserName twice in src/auth/login.ts';
    const first = tokenize(text);
    const second = tokenize(text);
    assert.deepEqual(second, first);
    assert.equal(first.filter((t) => t === 'getusername').length, 2);
  });

  it('keeps stopwords only when asked, whatever was cached before', () => {
    tokenize('the cache is warm for these words');
    assert.deepEqual(tokenize('the is'), []);
    assert.deepEqual(tokenize('the is', { keepStopwords: true }), ['the', 'is']);
    assert.deepEqual(tokenize('the is'), []);
  });

  it('hands out fresh arrays: changing a result does not change the next one', () => {
    const first = tokenize('vector index');
    first.push('tampered');
    first[0] = 'x';
    assert.deepEqual(tokenize('vector index'), ['vector', 'index']);
  });
});
