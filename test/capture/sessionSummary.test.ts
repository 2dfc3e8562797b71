import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { test } from 'node:test';
import { ingestSource } from '../../engine/capture/ingest';
import { summaryKey, writeSessionSummaries } from '../../engine/capture/sessionSummary';
import { openTestHost } from '../support/host';
import { tempDir } from '../support/temp';
import { SESSION, SHOP, copyFixture } from './captureDb';

test('a session summary: the goal as first asked, files changed, commands by their last outcome', async () => {
  const t = await openTestHost();
  const store = t.host.store;
  const dir = tempDir();
  const file = copyFixture('claude-session.jsonl', dir, `${SESSION}.jsonl`);
  await ingestSource(store, { agent: 'claude-code', path: file }, { root: SHOP });
  const codex = copyFixture(
    'codex-rollout.jsonl',
    dir,
    'rollout-2026-03-03T10-00-00-0199aa00-2222-7000-8000-000000000002.jsonl',
  );
  await ingestSource(store, { agent: 'codex', path: codex }, { root: SHOP });
  assert.equal(await writeSessionSummaries(store, [SESSION, '0199aa00-2222-7000-8000-000000000002']), 2);

  const [claude] = await t
    .call('list', { kind: 'summary', limit: 10 })
    .then((p) => p.items.filter((m) => m.session === SESSION));
  assert.equal(
    claude?.content,
    'Claude Code session on 2026-03-02 (branch fix/dates): "The date parser test fails on leap years. Use date-fns, not moment.". ' +
      'Files changed: src/dates.ts. Commands that passed: `npm test -- dates`.',
  );
  assert.equal(claude?.layer, 'episodic');
  assert.equal(claude?.trust, 'ingest', 'below what people and agents write');
  assert.equal(claude?.agent, 'claude-code');
  assert.deepEqual(claude?.source, { conversation: SESSION });
  assert.equal(claude?.validFrom, Date.parse('2026-03-02T09:00:00.000Z'));
  const page = await t.call('list', { kind: 'summary', limit: 10 });
  const codexSummary = page.items.find((m) => m.session !== SESSION);
  assert.equal(
    codexSummary?.content,
    'Codex session on 2026-03-03 (branch main): "Add a --dry-run flag to the import script". ' +
      'Files changed: scripts/import.js, scripts/README.md, scripts/old.js. ' +
      'Commands that passed: `cat scripts/import.js`. Commands that failed: `npm run lint` (exit 2).',
  );

  // Nothing new: nothing written. The session goes on: its summary is superseded, not duplicated.
  assert.equal(await writeSessionSummaries(store, [SESSION]), 0);
  appendFileSync(
    file,
    `${JSON.stringify({ type: 'assistant', sessionId: SESSION, cwd: SHOP, timestamp: '2026-03-02T09:05:00Z', message: { content: [{ type: 'tool_use', id: 'toolu_b3', name: 'Bash', input: { command: 'npm run build' } }] } })}\n` +
      `${JSON.stringify({ type: 'user', sessionId: SESSION, cwd: SHOP, timestamp: '2026-03-02T09:05:09Z', message: { content: [{ type: 'tool_result', tool_use_id: 'toolu_b3', is_error: true, content: 'Exit code 2\nerror TS2304' }] } })}\n`,
  );
  await ingestSource(store, { agent: 'claude-code', path: file }, { root: SHOP });
  assert.equal(await writeSessionSummaries(store, [SESSION]), 1);
  const versions = store.read((r) =>
    r.all<{ status: string; content: string }>(
      'SELECT status, content FROM memories WHERE conflict_key = ? AND superseded_at IS NULL ORDER BY rowid',
      [summaryKey(SESSION)],
    ),
  );
  assert.deepEqual(
    versions.map((v) => v.status),
    ['superseded', 'active'],
  );
  assert.match(versions[1]?.content ?? '', /Commands that failed: `npm run build` \(exit 2\)\.$/);
  await t.host.close();
});
