import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fixAccepted, driftHost, rememberAt } from './driftHost';
import { GitRepository } from './gitRepository';

const T1 = '2025-01-10T12:00:00Z';
const BEFORE_CHANGE = '2025-02-01T00:00:00Z';
const T2 = '2025-03-01T12:00:00Z';

describe('drift repairs rewrite declarations, never calls', () => {
  it('a usage example beside a changed declaration is left as written; the stated declaration is repaired', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: {
        'src/client.ts':
          'export interface Options { a?: number }\nexport function client(url: string, options: Options = {}): string {\n  return url;\n}\n',
      },
    });
    repo.commit('client takes one request object', T2, {
      write: {
        'src/client.ts':
          'export interface Request { url: string }\nexport function client(request: Request): string {\n  return request.url;\n}\n',
      },
    });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const example = "Call it as `client('https://x', {a: 1})` to fetch a page.";
    const usage = await rememberAt(test, example, BEFORE_CHANGE);
    const declaration = await rememberAt(
      test,
      'It is declared as `function client(url: string, options)` in src/client.ts.',
      BEFORE_CHANGE,
    );

    await fixAccepted(test);
    assert.equal((await test.call('get', { id: usage })).memory.content, example);
    assert.equal(
      (await test.call('get', { id: declaration })).memory.content,
      'It is declared as `function client(request: Request)` in src/client.ts.',
    );
  });
});
