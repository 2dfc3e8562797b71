import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DataReply, malformedReply, SearchReply } from '../../webview/graph/protocol';

// The Graph panel answers a malformed request in the reply its sender waits for
// (extension/webviews/graphPanel.ts, refuse): one table, not a branch per request type.

test('a malformed graph query gets a data reply saying so, with its id', () => {
  const reply = malformedReply({ type: 'graph/data/get', id: 9, query: { hops: 9 } });
  assert.deepEqual(reply, { type: 'graph/data/reply', id: 9, ok: false, error: 'malformed graph query' });
  assert.ok(DataReply.is(reply), 'the webview accepts it as the reply to its request');
});

test('a malformed search gets an entities reply saying so, with its id', () => {
  const reply = malformedReply({ type: 'graph/entities/search', id: 2 });
  assert.deepEqual(reply, { type: 'graph/entities/reply', id: 2, ok: false, error: 'malformed search' });
  assert.ok(SearchReply.is(reply), 'the webview accepts it as the reply to its request');
});

test('a message that is not a request, or has no usable id, gets no reply', () => {
  for (const raw of [
    { type: 'graph/memory/open', id: 2 },
    { type: 'graph/data/get', id: 'x' },
    { type: 'graph/entities/search' },
    null,
    'graph/data/get',
  ])
    assert.equal(malformedReply(raw), undefined, JSON.stringify(raw));
});
