import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { grepNeedles } from '../../engine/drift/gitGrep';
import { openGit } from '../../engine/drift/gitHistory';
import type { GitContext } from '../../engine/drift/gitHistory';
import { StoredHistory } from '../../engine/drift/historyStore';
import { GitRepository } from './gitRepository';

const T1 = '2025-01-10T12:00:00Z';

/**
 * Claims verified together ask for their words in one batch, and which claims share a batch
 * depends on timing (BatchLoader). A word's files must not depend on its batch: `keepAliveTimeout`
 * asked beside `keepAliveTimeoutThreshold`, or `foo.bar` beside `bar.baz`, is found where it is
 * found alone, or one run of a check flags what another calls ok.
 */
describe('a searched word is found in the same files whatever it is asked with', () => {
  const files = {
    'src/agent.js': 'const opts = { keepAliveTimeoutThreshold: 1000 };\n',
    'src/client.js': 'const keepAliveTimeout = 4e3;\n',
    'docs/chain.md': 'Call foo.bar.baz() once.\n',
    'docs/plain.md': 'Set bar.baz and move on.\n',
    'docs/words.md': 'allowHTTP1 is set; fallow fields lie.\n',
  };
  const needles = [
    'keepAliveTimeout',
    'keepAliveTimeoutThreshold',
    'foo.bar',
    'bar.baz',
    'o.ba',
    'allow',
    'allowHTTP1',
    'low',
    'HTTP',
    'fields lie',
    'lie.',
  ];

  const alone = async (git: GitContext, commit: string | undefined, wholeWord: boolean) =>
    new Map(
      await Promise.all(
        needles.map(async (n) => {
          const found = await grepNeedles(git, [n], { wholeWord, ...(commit ? { commit } : {}) });
          return [n, [...(found.get(n) ?? [])].sort()] as const;
        }),
      ),
    );

  for (const at of ['the working tree', 'a commit'])
    for (const wholeWord of [false, true])
      it(`in ${at}, ${wholeWord ? 'as whole words' : 'anywhere'}`, async () => {
        const repo = new GitRepository();
        const commit = repo.commit('initial', T1, { write: files });
        const asked = at === 'a commit' ? commit : undefined;
        // Separate contexts: answers at a commit are cached per needle and question.
        const single = await alone(
          (await openGit(repo.root, StoredHistory.empty(repo.root))) as GitContext,
          asked,
          wholeWord,
        );
        // A new repository root: openGit's process cache is per root and HEAD.
        const other = new GitRepository();
        other.commit('initial', T1, { write: files });
        const git = (await openGit(other.root, StoredHistory.empty(other.root))) as GitContext;
        const together = await grepNeedles(git, needles, {
          wholeWord,
          ...(asked ? { commit: other.git('rev-parse', 'HEAD') } : {}),
        });
        for (const needle of needles)
          assert.deepEqual(
            [...(together.get(needle) ?? [])].sort(),
            single.get(needle),
            `${needle} asked with the others`,
          );
        // The cases must exercise what they are about: found alone where another needle hides it.
        if (!wholeWord) assert.deepEqual(single.get('keepAliveTimeout'), ['src/agent.js', 'src/client.js']);
        assert.deepEqual(single.get('bar.baz'), ['docs/chain.md', 'docs/plain.md']);
      });
});
