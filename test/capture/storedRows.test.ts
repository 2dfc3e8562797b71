import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ingestSource } from '../../engine/capture/ingest';
import { linkCommits } from '../../engine/capture/link/commitLinks';
import { writeSessionLessons } from '../../engine/capture/sessionLessons';
import { writeSessionSummaries } from '../../engine/capture/sessionSummary';
import { writeStatedConventions } from '../../engine/capture/statedConventions';
import type { SourceFile } from '../../engine/capture/workspaceSources';
import type { MemoryStore } from '../../engine/memory/memoryStore';
import { GitRepository } from '../drift/gitRepository';
import { openTestHost } from '../support/host';
import { tempDir } from '../support/temp';
import { FIXTURES, SHOP, copyFixture, dumpCapture, fileFixtures } from './captureDb';
import { claudeEditSession, ingestEditSession } from './editSession';
import { NEW_DATES as NEW, OLD_DATES as OLD } from './linkedWorkspace';

/**
 * What ingest stored from the hand-written fixtures (every file format, a session with secrets
 * and personal data, a session linked to a commit), written by main's ingest at d0c1e41 before
 * the ingest was made faster. Regenerate only for a change that means to store something else:
 * ENGRAM_WRITE_STORED_ROWS=1 node scripts/runTests.mjs storedRows.
 */
const EXPECTED = path.join(FIXTURES, 'stored-rows.json');

const LINKED = 'cccc0000-1111-4a2b-9c3d-00000000000c';
/** A Claude Code session full of what redaction removes: a key, a URL password, mail, a phone, a pasted image. */
function secretSession(): string {
  const key = 'sk-' + 'ant-' + 'api03-Zq8xWv2Ty6Rp4Nm0Lk3Jh7Gf5Ds1Aa9';
  const at = (s: number) => new Date(Date.parse('2026-03-04T09:00:00Z') + s * 1000).toISOString();
  const base = { sessionId: 'secrets-1', cwd: SHOP, gitBranch: 'main' };
  const lines = [
    {
      ...base,
      type: 'user',
      timestamp: at(0),
      message: {
        role: 'user',
        content: `Always use ${key}, never the old one. Mail jane.roe@example.org or call (415) 555-0100. <private>pin 4321</private>`,
      },
    },
    {
      ...base,
      type: 'assistant',
      timestamp: at(1),
      message: {
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [
          { type: 'thinking', thinking: `The password: "hunter2hunter2" should not be kept` },
          {
            type: 'tool_use',
            id: 'toolu_s1',
            name: 'Bash',
            input: {
              command: `curl -H "Authorization: Bearer ${key}" https://api.example.org/v1 | tee out.txt`,
            },
          },
        ],
        usage: { input_tokens: 40, output_tokens: 12 },
      },
    },
    {
      ...base,
      type: 'user',
      timestamp: at(3),
      message: {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_s1',
            is_error: true,
            content: `Exit code 22\nDATABASE_URL=postgres://app:Sup3rS3cret!@db:5432/app\n${'x'.repeat(5000)}`,
          },
        ],
      },
    },
    {
      ...base,
      type: 'user',
      timestamp: at(4),
      message: {
        role: 'user',
        content: [
          { type: 'text', text: 'Here is the screenshot, we decided to keep the old layout.' },
          {
            type: 'image',
            source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo'.repeat(200) },
          },
        ],
      },
    },
  ];
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

/**
 * The capture rows, the memories and the commit links, without ids, the temp directories named
 * `<dir>` and `<repo>`, and without content hashes (of texts that hold those directories; the
 * texts themselves are compared).
 */
function storedRows(store: MemoryStore, dirs: Record<string, string>): unknown {
  const rows = store.read((r) => ({
    ...dumpCapture(store),
    memories: r.all(
      `SELECT version, layer, kind, content, context, tags, importance, trust, critical, scope, agent,
         session, conflict_key, source, status, status_reason, valid_from, valid_to,
         recorded_at, superseded_at, change FROM memories ORDER BY content, version`,
    ),
    links: r.all('SELECT * FROM capture_commit_links ORDER BY session_id, commit_sha, path'),
  }));
  let text = JSON.stringify(rows, (key, value: unknown) => (key === 'content_hash' ? undefined : value));
  for (const [name, dir] of Object.entries(dirs)) text = text.split(dir).join(`<${name}>`);
  return JSON.parse(text) as unknown;
}

test('ingest stores, row for row, what main stored from the fixtures of every format (ledger, memories, links)', async () => {
  const t = await openTestHost();
  const store = t.host.store;
  const dir = tempDir();
  const sources: SourceFile[] = [
    ...fileFixtures(dir),
    {
      agent: 'cline',
      path: copyFixture(
        'cline-ui_messages.json',
        path.join(dir, 'tasks', '1764330000000'),
        'ui_messages.json',
      ),
    },
    {
      agent: 'roo-code',
      path: copyFixture('roo-ui_messages.json', path.join(dir, 'roo', '1764340000000'), 'ui_messages.json'),
    },
    {
      agent: 'copilot',
      path: copyFixture('copilot-session.jsonl', dir, '0b5e7a1c-7c1d-4e8a-9f00-5e55c0ff1ce0.jsonl'),
    },
    {
      agent: 'copilot',
      path: copyFixture('copilot-session.json', dir, '7d0c1b2a-2222-4c3d-8e4f-0000000000aa.json'),
    },
  ];
  const secrets = path.join(dir, 'secrets-1.jsonl');
  writeFileSync(secrets, secretSession());
  sources.push({ agent: 'claude-code', path: secrets });
  // Small batches too: a session's rows are written across several transactions.
  for (const [i, source] of sources.entries())
    await ingestSource(store, source, { root: SHOP, ...(i % 2 === 0 ? { batchRecords: 3 } : {}) });

  const repo = new GitRepository();
  repo.commit('Add dates', '2026-01-05T10:00:00Z', { write: { 'src/dates.ts': OLD } });
  repo.git('checkout', '-q', '-b', 'fix/leap');
  const text = claudeEditSession(LINKED, repo.root, 'fix/leap', Date.parse('2026-01-06T09:00:00Z'), [
    { user: 'isLeap is wrong for 1900. Use the Gregorian rule, not the Julian one.' },
    { edit: 'src/dates.ts', old: '  return year % 4 === 0;', new: NEW.split('\n').slice(1, 4).join('\n') },
    { bash: 'npm run build', exit: 2 },
    { bash: 'npm run build -- --force', exit: 0 },
  ]);
  await ingestEditSession(store, dir, repo.root, LINKED, text);
  repo.commit('Fix leap years for centuries', '2026-01-06T10:00:00Z', { write: { 'src/dates.ts': NEW } });

  const sessions = store
    .read((r) => r.all<{ id: string }>('SELECT id FROM capture_sessions ORDER BY id'))
    .map((s) => s.id);
  await linkCommits(store, repo.root, sessions, Date.parse('2026-01-07T10:00:00Z'));
  await writeSessionSummaries(store, sessions);
  await writeStatedConventions(store, sessions);
  await writeSessionLessons(store, sessions);
  const rows = storedRows(store, { repo: repo.root, dir });
  await t.host.close();

  if (process.env['ENGRAM_WRITE_STORED_ROWS'] !== undefined) {
    writeFileSync(EXPECTED, JSON.stringify(rows, null, 1) + '\n');
  }
  const expected = JSON.parse(readFileSync(EXPECTED, 'utf8')) as { links: unknown[]; memories: unknown[] };
  assert.ok(expected.links.length > 0 && expected.memories.length > 5, 'the fixture links and remembers');
  assert.deepEqual(rows, expected);
});
