import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { queryTerms, splitIdentifier, tokenize } from '../../engine/lexical/tokenizer';

describe('code-aware tokenizer', () => {
  it('splits camelCase, PascalCase, snake_case, kebab-case, dotted names and paths', () => {
    assert.deepEqual(splitIdentifier('getUserName'), ['get', 'user', 'name']);
    assert.deepEqual(splitIdentifier('HTTPServerError'), ['http', 'server', 'error']);
    assert.deepEqual(splitIdentifier('max_retry_count'), ['max', 'retry', 'count']);
    assert.deepEqual(splitIdentifier('rate-limiter'), ['rate', 'limiter']);
    assert.deepEqual(splitIdentifier('os.path.join'), ['os', 'path', 'join']);
    assert.deepEqual(splitIdentifier('src/auth/login.ts'), ['src', 'auth', 'login', 'ts']);
    assert.deepEqual(splitIdentifier('base64Encode'), ['base', '64', 'encode']);
  });

  it('indexes identifiers whole and as stemmed parts', () => {
    assert.deepEqual(tokenize('getUserName'), ['get', 'user', 'name', 'getusername']);
    assert.deepEqual(tokenize('See src/auth/login.ts'), [
      'see',
      'src',
      'auth',
      'login',
      'ts',
      'srcauthlogints',
    ]);
  });

  it('lets "user name" find getUserName', () => {
    const doc = new Set(tokenize('call getUserName() first'));
    for (const term of queryTerms('user name')) assert.ok(doc.has(term), term);
  });

  it('stems English words and drops stopwords', () => {
    assert.deepEqual(tokenize('The caches were running and parsing'), ['cach', 'run', 'pars']);
    assert.deepEqual(queryTerms('what is running?'), ['run']);
  });

  it('keeps meaningful short words like "not" and "never", and numbers', () => {
    assert.deepEqual(tokenize('never push on 2023-05-07, not v2'), [
      'never',
      'push',
      '2023',
      '05',
      '07',
      '20230507',
      'not',
      'v',
      '2',
      'v2',
    ]);
  });

  it('folds accents and case, and ignores punctuation', () => {
    assert.deepEqual(tokenize('Café! RÉSUMÉ...'), ['cafe', 'resum']);
  });

  it('produces terms of lower-case letters and digits only, keeping non-Latin scripts', () => {
    const terms = tokenize('@scope/pkg-name::Foo#bar $HOME C:\\x\\y.cs naïve 日本語');
    for (const term of terms) assert.match(term, /^[\p{Ll}\p{Lo}\p{N}]+$/u, term);
    assert.ok(terms.includes('日本語'));
    assert.ok(terms.includes('naiv'));
  });
});
