import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EngramError } from '../../engine/errors';
import type { MethodName } from '../../engine/api/methods';
import { recall } from '../../engine/retrieval/recall';
import { MAX_ISSUE_CHARS, MAX_QUERY_CHARS } from '../../engine/retrieval/queryLimit';
import { openTestHost } from '../support/host';

const OVER = 'a'.repeat(MAX_QUERY_CHARS + 1);

test('every engine method taking a query refuses one past MAX_QUERY_CHARS with TOO_LARGE, naming it', async () => {
  const t = await openTestHost();
  const methods: MethodName[] = ['recall', 'context', 'entities', 'graphRead', 'symbols', 'files', 'map'];
  for (const method of methods) {
    await assert.rejects(
      t.call(method, { query: OVER }),
      (error: unknown) =>
        EngramError.is(error, 'TOO_LARGE') &&
        error.message === `query is ${OVER.length} characters; the limit is ${MAX_QUERY_CHARS}`,
      method,
    );
  }
  // The function itself too, for callers inside the engine.
  await assert.rejects(recall(t.host.engine, { query: OVER }), (error: unknown) =>
    EngramError.is(error, 'TOO_LARGE'),
  );
  const { hits } = await t.call('recall', { query: OVER.slice(1) });
  assert.deepEqual(hits, []);
});

test('locate takes a whole issue report, up to MAX_ISSUE_CHARS, and refuses more with TOO_LARGE', async () => {
  const t = await openTestHost();
  const { files } = await t.call('locate', { query: OVER });
  assert.deepEqual(files, []);
  const tooLong = 'a'.repeat(MAX_ISSUE_CHARS + 1);
  await assert.rejects(
    t.call('locate', { query: tooLong }),
    (error: unknown) =>
      EngramError.is(error, 'TOO_LARGE') &&
      error.message === `query is ${tooLong.length} characters; the limit is ${MAX_ISSUE_CHARS}`,
  );
});
