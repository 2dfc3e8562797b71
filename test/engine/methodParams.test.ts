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
      'channels must be one of lexical, dense, graph, ppr, neighbours; got "telepathy"',
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
