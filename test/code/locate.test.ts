import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { codeSearchIndexOf } from '../../engine/code/search/codeSearchIndex';
import type { LocateResult } from '../../engine/code/search/locate';
import { openTestHost } from '../support/host';
import type { TestHost } from '../support/host';
import { tempDir } from '../support/temp';
import { grammarsDirectory, writeFiles } from './codeWorkspace';
import { ISSUE, PROJECT } from './locateFixture';

const paths = (result: LocateResult) => result.files.map((f) => f.path);

describe('locate: where to look for a question or an issue', () => {
  let root: string;
  let test: TestHost;
  before(async () => {
    // The code channel reads the files' text when it first ranks: the folder must outlive this hook.
    root = tempDir('engram-locate-', { afterTest: false });
    writeFiles(root, PROJECT);
    test = await openTestHost({ code: { root, grammarsDirectory: grammarsDirectory(), runner: 'inline' } });
    await test.call('scan');
  });
  after(() => test.host.close());

  it('ranks the implementation above the test, docs and example that repeat its words', async () => {
    const result: LocateResult = await test.call('locate', { query: ISSUE });
    assert.equal(paths(result)[0], 'pkg/retry.py');
    for (const other of ['tests/test_retry.py', 'docs/retries.md', 'examples/retry_example.py'])
      assert.ok(paths(result).includes(other), `${other} is still listed, below`);
    assert.deepEqual(
      result.files.map((f) => f.role),
      ['implementation', ...result.files.slice(1).map((f) => f.role)],
    );
  });

  it('gives the tests first when the question asks for tests', async () => {
    const result: LocateResult = await test.call('locate', {
      query: 'where are the tests for backoff_delay?',
    });
    assert.equal(paths(result)[0], 'tests/test_retry.py');
    assert.deepEqual(result.trace.rolesAskedFor, ['test']);
  });

  it('explains each file: the channel, the fields that matched and the symbols to open', async () => {
    const result: LocateResult = await test.call('locate', { query: ISSUE });
    const top = result.files[0]!;
    assert.equal(top.channels.code?.rank, 1);
    assert.equal(top.channels.code?.prior, 1);
    assert.ok((top.channels.code?.fields.names ?? 0) > 0, 'the symbol names matched');
    assert.ok((top.channels.code?.fields.body ?? 0) > 0, 'the text matched');
    assert.equal(top.symbols[0]?.name, 'backoff_delay');
    assert.equal(top.symbols[0]?.container, 'RetryPolicy');
    assert.equal(top.symbols[0]?.line, 11);
    const test_ = result.files.find((f) => f.path === 'tests/test_retry.py')!;
    assert.equal(test_.role, 'test');
    assert.ok((test_.channels.code?.prior ?? 1) < 1, 'the test file was demoted by its role');
    assert.deepEqual(
      result.trace.channels.map((c) => c.name),
      ['code'],
    );
  });

  it('fuses recall over the codebase memories when asked, and says which memories matched', async () => {
    const result: LocateResult = await test.call('locate', { query: ISSUE, channels: ['code', 'recall'] });
    assert.deepEqual(result.trace.channels.map((c) => c.name).sort(), ['code', 'recall']);
    const retry = result.files.find((f) => f.path === 'pkg/retry.py')!;
    assert.ok(retry.channels.recall !== undefined && retry.channels.recall.memories.length > 0);
  });

  it('ranks by one channel alone when asked, and traces only the channels that ran', async () => {
    const recalled: LocateResult = await test.call('locate', { query: ISSUE, channels: ['recall'] });
    assert.deepEqual(
      recalled.trace.channels.map((c) => [c.name, c.weight]),
      [['recall', 1]],
    );
    assert.ok(recalled.files.length > 0 && recalled.files.every((f) => f.channels.code === undefined));
    assert.ok(recalled.files.every((f, i) => f.channels.recall?.rank === i + 1));
    assert.equal(recalled.files.find((f) => f.path === 'tests/test_retry.py')?.role, 'test');
    const mapped: LocateResult = await test.call('locate', { query: ISSUE, channels: ['map'] });
    assert.deepEqual(
      mapped.trace.channels.map((c) => c.name),
      ['map'],
    );
  });

  it('keeps its index over a rescan that changed nothing', async () => {
    const { store } = test.host.engine;
    const built = store.read((r) => codeSearchIndexOf(store, r, root));
    await test.call('scan');
    assert.equal(
      store.read((r) => codeSearchIndexOf(store, r, root)),
      built,
    );
  });

  it('finds a file added since, once it is scanned', async () => {
    const before_: LocateResult = await test.call('locate', { query: 'jitter randomises the wait' });
    assert.ok(!paths(before_).includes('pkg/jitter.py'));
    writeFiles(root, {
      'pkg/jitter.py': 'def add_jitter(delay):\n    """Jitter randomises the wait."""\n    return delay\n',
    });
    await test.call('scan');
    const after_: LocateResult = await test.call('locate', { query: 'jitter randomises the wait' });
    assert.equal(paths(after_)[0], 'pkg/jitter.py');
  });

  it('takes an issue report longer than a recall query, and refuses bad input in one line', async () => {
    const long = `${ISSUE}\n${'Traceback line with nothing in it.\n'.repeat(200)}`;
    assert.ok(long.length > 4000);
    const result: LocateResult = await test.call('locate', { query: long });
    assert.equal(paths(result)[0], 'pkg/retry.py');
    await assert.rejects(test.call('locate', { query: '  ' }), /query is required/);
    await assert.rejects(test.call('locate', { query: 'retry', limit: 0 }), /limit must be 1 to 1000/);
    await assert.rejects(test.call('locate', { query: 'retry', channels: ['dense'] }), /channels/);
  });
});
