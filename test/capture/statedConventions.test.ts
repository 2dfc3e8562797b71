import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ingestSource } from '../../engine/capture/ingest';
import { statedConventions, writeStatedConventions } from '../../engine/capture/statedConventions';
import { openTestHost } from '../support/host';
import { tempDir } from '../support/temp';
import { SESSION, SHOP, copyFixture } from './captureDb';

test('conventions are the rules a user states, at the start of a sentence or clause', () => {
  const cases: Array<[string, Array<[string, string]>]> = [
    [
      'The date parser test fails on leap years. Use date-fns, not moment.',
      [['decision', 'Use date-fns, not moment.']],
    ],
    [
      'never use print for logging here, always use the logger',
      [['preference', 'never use print for logging here, always use the logger']],
    ],
    [
      'We decided to keep the API v1 routes until March.',
      [['decision', 'We decided to keep the API v1 routes until March.']],
    ],
    [
      'Please use pnpm instead of npm in this repo',
      [['decision', 'Please use pnpm instead of npm in this repo']],
    ],
    ["Fix the bug; don't touch the generated files.", [['preference', "don't touch the generated files."]]],
  ];
  for (const [turn, expected] of cases) {
    assert.deepEqual(
      statedConventions(turn).map((c) => [c.kind, c.text]),
      expected,
      turn,
    );
  }
});

test('what only mentions always, never or use is not a rule', () => {
  for (const turn of [
    'This test always fails on CI.',
    'I never saw this error before',
    'Can you use the logger here?',
    'We use moment today.',
    'It has never worked, use your judgement',
    'ok',
  ]) {
    assert.deepEqual(statedConventions(turn), [], turn);
  }
});

test('a session read again does not confirm its conventions again; another session stating one does', async () => {
  const t = await openTestHost();
  const store = t.host.store;
  const dir = tempDir();
  const file = copyFixture('claude-session.jsonl', dir, `${SESSION}.jsonl`);
  await ingestSource(store, { agent: 'claude-code', path: file }, { root: SHOP });
  assert.equal(await writeStatedConventions(store, [SESSION]), 1);
  assert.equal(await writeStatedConventions(store, [SESSION]), 0);
  const memory = store.read((r) =>
    r.get<{ id: string; kind: string; trust: string; layer: string }>(
      "SELECT id, kind, trust, layer FROM memories WHERE content = 'Use date-fns, not moment.' AND superseded_at IS NULL",
    ),
  );
  assert.deepEqual([memory?.kind, memory?.trust, memory?.layer], ['decision', 'ingest', 'procedural']);
  const confirmations = () =>
    store.read((r) =>
      r.value<number>('SELECT confirmations FROM memory_state WHERE id = ?', [memory?.id ?? '']),
    );
  assert.equal(confirmations(), 1);
  const other = path.join(dir, 'other.jsonl');
  writeFileSync(
    other,
    `${JSON.stringify({ type: 'user', sessionId: 'other', cwd: SHOP, timestamp: '2026-03-09T09:00:00Z', message: { content: 'Use date-fns, not moment.' } })}\n`,
  );
  await ingestSource(store, { agent: 'claude-code', path: other }, { root: SHOP });
  assert.equal(await writeStatedConventions(store, ['other']), 0, 'a restatement is not a new memory');
  assert.equal(confirmations(), 2, 'but it confirms the one there');
  await t.host.close();
});
