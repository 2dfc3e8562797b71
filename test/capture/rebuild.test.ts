import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { test } from 'node:test';
import { ingestSource } from '../../engine/capture/ingest';
import { rebuildCapture } from '../../engine/capture/rebuild';
import type { SourceFile } from '../../engine/capture/workspaceSources';
import { openTestHost } from '../support/host';
import { tempDir } from '../support/temp';
import { SESSION, SHOP, copyFixture, dumpCapture } from './captureDb';

test('rebuild derives from the ledger alone exactly what ingest derived', async () => {
  const t = await openTestHost();
  const store = t.host.store;
  const dir = tempDir();
  const sources: SourceFile[] = [
    { agent: 'claude-code', path: copyFixture('claude-session.jsonl', dir, `${SESSION}.jsonl`) },
    { agent: 'claude-code', path: copyFixture('claude-subagents/agent-a1b2c3.jsonl', dir) },
    {
      agent: 'codex',
      path: copyFixture(
        'codex-rollout.jsonl',
        dir,
        'rollout-2026-03-03T10-00-00-0199aa00-2222-7000-8000-000000000002.jsonl',
      ),
    },
    { agent: 'codex', path: copyFixture('codex-legacy.jsonl', dir) },
    { agent: 'aider', path: copyFixture('aider.chat.history.md', dir, '.aider.chat.history.md') },
    {
      agent: 'gemini',
      path: copyFixture('gemini-session.jsonl', dir, 'session-2026-03-06T08-00-7c1e9d20.jsonl'),
    },
  ];
  for (const source of sources) await ingestSource(store, source, { root: SHOP });
  const ingested = dumpCapture(store);
  // The agents' files are gone: the ledger is all there is.
  rmSync(dir, { recursive: true, force: true });
  store.write((tx) => tx.run('DELETE FROM capture_turns'));
  const report = await rebuildCapture(store, SHOP);
  assert.deepEqual(report, { files: 6, records: 64, sessions: 7, summaries: 6, links: 0 });
  assert.deepEqual(dumpCapture(store), ingested);
  await t.host.close();
});
