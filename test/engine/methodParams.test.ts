import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EngramError } from '../../engine/errors';
import { toolsFor } from '../../engine/mcp/toolRegistry';
import { openTestHost } from '../support/host';

/** A tool's input schema by name, as the bridge checks a call's arguments. */
function toolInput(name: string) {
  const tool = toolsFor('full').find((t) => t.name === name);
  assert.ok(tool, name);
  return tool.input;
}

test('the MCP recall and context tools take the limits of the recall and context methods', () => {
  const recall = toolInput('memory_recall');
  assert.equal(recall.safeParse({ query: 'auth', k: 1000 }).success, true, 'k up to 1000, as recall()');
  const tooMany = recall.safeParse({ query: 'auth', k: 1001 });
  assert.equal(tooMany.error?.issues[0]?.message, 'must be 1 to 1000');
  const context = toolInput('memory_context');
  assert.equal(context.safeParse({ query: 'auth', budget: 200_000 }).success, true, 'budget up to 200,000');
  const tooLarge = context.safeParse({ query: 'auth', budget: 200_001 });
  assert.equal(tooLarge.error?.issues[0]?.message, 'must be a whole number of tokens from 50 to 200000');
});

test('the MCP memory tools take the fields and limits of their methods', () => {
  const remember = toolInput('memory_remember');
  const tags = Array.from({ length: 33 }, (_, i) => `tag${i}`);
  assert.equal(
    remember.safeParse({ content: 'x', tags }).error?.issues[0]?.message,
    'must hold at most 32 tags',
    'tags as remember() takes them',
  );
  assert.equal(
    remember.safeParse({ content: 'x', importance: 2 }).error?.issues[0]?.message,
    'must be a number from 0 to 1',
  );
  const related = toolInput('memory_related');
  assert.equal(related.safeParse({ entity: 'auth', hops: 5 }).error?.issues[0]?.message, 'must be 1 to 4');
  const get = toolInput('memory_get');
  assert.equal(get.safeParse({ id: '   ' }).error?.issues[0]?.message, 'is required (text)');
});

test('every converted method refuses bad parameters with one line naming the field; nothing changes', async () => {
  const t = await openTestHost();
  const { memory } = await t.call('remember', { content: 'Deploys go through the release train' });
  const before = await t.call('stats');
  const refusals: Array<[string, Record<string, unknown>, string]> = [
    ['list', { kind: 'rumour' }, 'kind must be one of'],
    [
      'list',
      { status: 'sleeping' },
      'status must be one of active, invalidated, superseded, forgotten, archived, all; got "sleeping"',
    ],
    ['remember', { content: 'x', tags: ['a', 3] }, 'tags must be a list of text; got 3'],
    ['remember', { content: 'x', source: { file: 'a.ts', line: 3 } }, 'source has a field it does not know'],
    ['rememberMany', { memories: { content: 'x' } }, 'memories must be a list; got an object'],
    ['edit', { id: memory.id, changes: { layer: 'cortex' } }, 'changes.layer must be one of'],
    ['invalidate', { id: memory.id }, 'reason is required (text); got nothing'],
    ['asOf', { time: '2026-02-30' }, 'time must be a time (ISO 8601'],
    ['related', { entity: 'release', hops: 9 }, 'hops must be 1 to 4; got 9'],
    ['injectionMark', { conversation: 'c1', ids: 'm_1' }, 'ids must be a list of text; got "m_1"'],
    ['events', { from: 'yesterday' }, 'from must be a time'],
    ['timeline', { limit: 0 }, 'limit must be a whole number from 1 to 10000; got 0'],
    ['export', { format: 'pdf' }, 'format must be one of jsonl, md; got "pdf"'],
    [
      'graphCreateEntities',
      { entities: [{ name: 'a', observations: [] }] },
      'entities[0].entityType is required (text); got nothing',
    ],
    ['graphRead', { names: 'a' }, 'names must be a list; got "a"'],
    ['forget', { id: 42 }, 'id must be text; got 42'],
    ['skills', { query: 'release', limit: 0 }, 'limit must be 1 to 10; got 0'],
    ['skills', { query: 'release', threshold: 2 }, 'threshold must be a number from 0 to 1; got 2'],
    ['skills', { query: '  ' }, 'query is required (text)'],
    ['contextLevels', { budget: 10 }, 'budget must be a whole number of tokens from 50 to 200000; got 10'],
  ];
  for (const [method, params, message] of refusals) {
    await assert.rejects(
      t.call(method as 'list', params),
      (error: unknown) =>
        EngramError.is(error, 'INVALID_INPUT') &&
        error.message.startsWith(message) &&
        !error.message.includes('\n'),
      `${method} ${JSON.stringify(params)} -> ${message}`,
    );
  }
  const after = await t.call('stats');
  assert.equal(after.events, before.events, 'no event recorded');
  assert.equal(after.database.journalRecords, before.database.journalRecords, 'nothing journaled');
  await t.host.close();
});

test('the dispatcher refuses bad parameters with one line naming the field, and nothing changes', async () => {
  const t = await openTestHost();
  await t.call('remember', { content: 'Sessions are stored in Redis with a one-day expiry' });
  const before = await t.call('stats');
  const refusals: Array<[Promise<unknown>, string]> = [
    [
      t.call('context', { query: 'sessions', budget: 10 }),
      'budget must be a whole number of tokens from 50 to 200000; got 10',
    ],
    [t.call('context', { query: 'sessions', k: 0 }), 'k must be 1 to 1000; got 0'],
    [
      t.call('recall', { query: 'sessions', channels: ['telepathy'] }),
      'channels must be one of lexical, dense, graph, ppr, code, neighbours; got "telepathy"',
    ],
    [t.call('recall', { query: 'sessions', explain: 'yes' }), 'explain must be true or false; got "yes"'],
    [t.call('recall', { k: 3 }), 'query is required (text); got nothing'],
    [
      t.call('recall', { query: 'sessions', actor: 'me' }),
      'actor must be an object {agent, session}; got "me"',
    ],
  ];
  for (const [call, message] of refusals) {
    await assert.rejects(
      call,
      (error: unknown) => EngramError.is(error, 'INVALID_INPUT') && error.message === message,
      message,
    );
  }
  const after = await t.call('stats');
  assert.equal(after.events, before.events, 'no event recorded');
  assert.equal(after.database.journalRecords, before.database.journalRecords, 'nothing journaled');
  await t.host.close();
});
