import assert from 'node:assert/strict';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { CaptureEvent } from '../../engine/capture/events';
import { ingestSource } from '../../engine/capture/ingest';
import { formatOf, readAll } from '../../engine/capture/readers/captureFormat';
import { geminiFormat } from '../../engine/capture/readers/gemini';
import { openTestHost } from '../support/host';
import { tempDir } from '../support/temp';
import { SHOP, copyFixture, dumpCapture } from './captureDb';

// Gemini CLI's older whole-file chats (`chats/session-*.json`, before its JSONL logs) and its
// `/chat save` checkpoints, in both their shapes. The fixtures were written by hand from the
// writer's source (chatRecordingService.ts before f744913584, logger.ts `saveCheckpoint`).

const FIXTURES = path.join(__dirname, 'fixtures');
const CHATS = '/h/.gemini/tmp/0f3a/chats';

function read(name: string, as: string) {
  const result = readAll(geminiFormat, readFileSync(path.join(FIXTURES, name)), as);
  const events = result.records.flatMap((r) => r.events.map((e) => ({ ...e, sessionId: r.sessionId })));
  return { ...result, events, statuses: result.records.map((r) => r.status) };
}

const ofKind = <K extends CaptureEvent['kind']>(events: CaptureEvent[], kind: K) =>
  events.filter((e): e is Extract<CaptureEvent, { kind: K }> => e.kind === kind);

test('Gemini CLI, older whole chat: head, every message, tail; unknown types counted', () => {
  const { events, statuses, consumed } = read(
    'gemini-session.json',
    `${CHATS}/session-2025-10-01T09-00-1a2b3c4d.json`,
  );
  assert.equal(consumed, readFileSync(path.join(FIXTURES, 'gemini-session.json')).length);
  assert.deepEqual(statuses, [
    'understood',
    'understood',
    'understood',
    'understood',
    'understood',
    'unknown',
    'understood',
  ]);
  assert.ok(
    events.every((e) => (e as { sessionId?: string }).sessionId === '1a2b3c4d-5555-4e6f-8a9b-000000000005'),
  );
  const sessions = ofKind(events, 'session');
  assert.ok(
    sessions.some((s) => s.title === 'Close the file watcher after its test'),
    'the summary after the messages',
  );
  assert.ok(sessions.some((s) => s.model === 'gemini-2.5-flash'));
  const turns = ofKind(events, 'turn');
  assert.deepEqual(
    turns.map((t) => [t.role, t.text]),
    [
      ['user', 'Why does `npm test` hang on the watcher test?'],
      ['assistant', ''],
      ['assistant', 'The watcher is now closed after the test; `npm test` exits.'],
      ['system', 'Memory refreshed.'],
    ],
  );
  assert.equal(turns[1]?.thinking, 'Reading the test: The watcher is never closed.');
  assert.deepEqual(
    ofKind(events, 'file-touch').map((t) => [t.action, t.path]),
    [
      ['read', '/home/dev/shop/test/watch.test.js'],
      ['edit', '/home/dev/shop/test/watch.test.js'],
    ],
  );
  assert.deepEqual(
    ofKind(events, 'tool-result').map((r) => [r.status, r.exitCode]),
    [
      ['ok', undefined],
      ['ok', undefined],
      ['ok', 0],
    ],
  );
  assert.deepEqual(
    ofKind(events, 'command').map((c) => c.command),
    ['npm test'],
  );
  assert.deepEqual(
    ofKind(events, 'usage').map((u) => [u.input, u.output, u.reasoning]),
    [[1200, 80, 40]],
  );
});

test('Gemini CLI, older whole chat rewritten: earlier messages keep their bytes, only the new one is read', () => {
  const file = `${CHATS}/session-2025-10-01T09-00-1a2b3c4d.json`;
  const format = formatOf(geminiFormat, file);
  const state = format.initialState(file);
  const before = readFileSync(path.join(FIXTURES, 'gemini-session.json'), 'utf8');
  const doc = JSON.parse(before) as { lastUpdated: string; messages: unknown[] };
  const first = format.split(Buffer.from(before), 0).records;
  for (const r of first) format.parse(r.text, state);
  // What the writer does on the next message: push it, stamp lastUpdated, write the whole file anew.
  doc.messages.push({ id: 'm-6', timestamp: '2025-10-01T09:01:00.000Z', type: 'user', content: 'Thanks' });
  doc.lastUpdated = '2025-10-01T09:01:00.000Z';
  const after = format.split(Buffer.from(JSON.stringify(doc, null, 2)), 0).records;
  const had = new Set(first.map((r) => `${r.offset}:${r.text}`));
  const fresh = after.filter((r) => !had.has(`${r.offset}:${r.text}`));
  // The head changed (lastUpdated), the tail moved; every earlier message is where it was.
  assert.equal(fresh.length, 3);
  const events = fresh.flatMap((r) => format.parse(r.text, state).events);
  assert.deepEqual(
    ofKind(events, 'turn').map((t) => [t.role, t.text]),
    [['user', 'Thanks']],
  );
});

test('Gemini CLI checkpoint, first shape: setup as system, calls paired with responses by name', () => {
  const { events, statuses } = read(
    'gemini-checkpoint-legacy.json',
    '/h/.gemini/tmp/0f3a9c/checkpoint-rename.json',
  );
  assert.deepEqual(
    statuses.filter((s) => s !== 'understood'),
    ['unknown'],
    'the made-up role',
  );
  assert.ok(events.every((e) => (e as { sessionId?: string }).sessionId === 'checkpoint-rename-0f3a9c'));
  assert.equal(ofKind(events, 'session').length, 1);
  const turns = ofKind(events, 'turn');
  assert.deepEqual(
    turns.map((t) => t.role),
    ['system', 'assistant', 'user', 'assistant', 'assistant'],
  );
  assert.equal(turns[3]?.thinking, 'Looking for its uses first.');
  assert.deepEqual(
    ofKind(events, 'tool-result').map((r) => [r.callId, r.status, r.exitCode]),
    [
      ['run_shell_command-1', 'error', 1],
      ['write_file-2', 'error', undefined],
    ],
  );
  assert.deepEqual(
    ofKind(events, 'command').map((c) => c.command),
    ['grep -rn loadConfig src'],
  );
  assert.deepEqual(
    ofKind(events, 'file-touch').map((t) => [t.action, t.path]),
    [['create', '/home/dev/shop/src/settings.js']],
  );
});

test('Gemini CLI checkpoint, later shape {history, authType}: every record understood', () => {
  const { events, statuses } = read(
    'gemini-checkpoint.json',
    '/h/.gemini/tmp/0f3a9c/checkpoint-scripts.json',
  );
  assert.ok(statuses.length === 6 && statuses.every((s) => s === 'understood'), statuses.join());
  assert.deepEqual(
    ofKind(events, 'tool-result').map((r) => [r.callId, r.status]),
    [['read_file-1-1', 'ok']],
  );
  assert.deepEqual(
    ofKind(events, 'turn').map((t) => t.role),
    ['user', 'assistant'],
  );
});

test('ingest: an older Gemini CLI chat rewritten whole is read again, nothing stored twice', async () => {
  const t = await openTestHost();
  const store = t.host.store;
  const file = copyFixture(
    'gemini-session.json',
    path.join(tempDir(), 'chats'),
    'session-2025-10-01T09-00-1a2b3c4d.json',
  );
  const first = await ingestSource(store, { agent: 'gemini', path: file }, { root: SHOP });
  assert.deepEqual([first.records, first.understood, first.unknown, first.malformed], [7, 6, 1, 0]);
  const turns = (dumpCapture(store)['capture_turns'] ?? []).length;
  assert.equal(turns, 4);

  const doc = JSON.parse(readFileSync(file, 'utf8')) as { lastUpdated: string; messages: unknown[] };
  doc.messages.push({ id: 'm-6', timestamp: '2025-10-01T09:01:00.000Z', type: 'user', content: 'Thanks' });
  doc.lastUpdated = '2025-10-01T09:01:00.000Z';
  writeFileSync(file, JSON.stringify(doc, null, 2));
  utimesSync(file, new Date(), new Date(Date.now() + 5000));
  const second = await ingestSource(store, { agent: 'gemini', path: file }, { root: SHOP });
  assert.ok(second.skipped >= 5, 'the messages the ledger had are skipped');
  const after = dumpCapture(store);
  assert.equal((after['capture_turns'] ?? []).length, turns + 1);
  assert.equal((after['capture_tool_calls'] ?? []).length, 3);
  const session = store.read((r) => r.get<Record<string, unknown>>('SELECT * FROM capture_sessions'));
  assert.equal(session?.['title'], 'Close the file watcher after its test');
  assert.equal(session?.['input_tokens'], 1200, 'usage once');
});
