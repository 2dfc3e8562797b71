import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RecallResult } from '../../engine/retrieval/recall';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';
import { tempDir } from '../support/temp';
import { grammarsDirectory, writeFiles } from './codeWorkspace';
import { PROJECT } from './locateFixture';

describe("recall's code channel", () => {
  let test: TestHost;
  before(async () => {
    // The code channel reads the files' text when it first ranks: the folder must outlive this hook.
    const root = tempDir('engram-recall-code-', { afterTest: false });
    writeFiles(root, PROJECT);
    test = await openTestHost({ code: { root, grammarsDirectory: grammarsDirectory(), runner: 'inline' } });
    await test.call('scan');
  });
  after(() => test.host.close());

  it('answers a question about code with the module memory of the implementation, explained', async () => {
    const result: RecallResult = await test.call('recall', {
      query: 'where is the backoff delay of a retry attempt computed?',
      explain: true,
    });
    assert.equal(result.trace?.intent, 'where-in-code');
    const top = result.hits[0]!;
    assert.equal(top.memory.conflictKey, 'code:file:pkg/retry.py');
    assert.equal(top.channels.code?.rank, 1);
    assert.equal(result.trace?.channels.find((c) => c.name === 'code')?.weight, 2);
    const why = result.trace?.code?.find((c) => c.memoryId === top.memory.id);
    assert.equal(why?.path, 'pkg/retry.py');
    assert.equal(why?.role, 'implementation');
    assert.ok((why?.fields.names ?? 0) > 0);
    assert.ok(why?.symbols.includes('RetryPolicy.backoff_delay:11'), why?.symbols.join(', '));
    const testFile = result.hits.findIndex((h) => h.memory.conflictKey === 'code:file:tests/test_retry.py');
    assert.ok(testFile === -1 || testFile > 0);
  });

  it('stays out of questions that are not about code, and out when the caller names the channels', async () => {
    const when: RecallResult = await test.call('recall', {
      query: 'when did the retries start?',
      explain: true,
    });
    assert.notEqual(when.trace?.intent, 'where-in-code');
    assert.ok(!when.trace?.channels.some((c) => c.name === 'code'));
    assert.equal(when.trace?.code, undefined);
    const lexical: RecallResult = await test.call('recall', {
      query: 'where is the backoff delay of a retry attempt computed?',
      channels: ['lexical'],
      explain: true,
    });
    assert.deepEqual(
      lexical.trace?.channels.map((c) => c.name),
      ['lexical'],
    );
  });
});
