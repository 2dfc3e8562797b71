import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CaptureEvent } from '../../engine/capture/events';
import { readAll } from '../../engine/capture/readers/captureFormat';
import { clineFormat } from '../../engine/capture/readers/cline';
import { codexFormat } from '../../engine/capture/readers/codex';

// Record types first met in real public sessions (docs/capture-formats.md, "Parse coverage"), each
// in a record written here by hand in the shape the tool writes: none is a copy of a real one.

const ofKind = <K extends CaptureEvent['kind']>(events: CaptureEvent[], kind: K) =>
  events.filter((e): e is Extract<CaptureEvent, { kind: K }> => e.kind === kind);

function read(format: Parameters<typeof readAll>[0], text: string, file: string) {
  const { records } = readAll(format, Buffer.from(text), file);
  return { statuses: records.map((r) => r.status), events: records.flatMap((r) => r.events) };
}

test('Codex: ghost snapshots and compactions are understood; an aborted turn is a system turn', () => {
  const lines = [
    { type: 'session_meta', payload: { id: 'c-1', cwd: '/home/dev/shop', cli_version: '0.60.1' } },
    {
      type: 'response_item',
      payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Add a dark theme' }] },
    },
    {
      type: 'response_item',
      payload: {
        type: 'ghost_snapshot',
        ghost_commit: {
          id: '1f2e3d4c',
          parent: null,
          preexisting_untracked_files: ['notes.txt'],
          preexisting_untracked_dirs: [],
        },
      },
    },
    { type: 'event_msg', payload: { type: 'turn_aborted', reason: 'interrupted' } },
    { type: 'response_item', payload: { type: 'compaction', encrypted_content: 'gAAAAB...' } },
  ].map((l) => `${JSON.stringify({ timestamp: '2025-11-22T20:45:35.610Z', ...l })}\n`);
  const { statuses, events } = read(
    codexFormat,
    lines.join(''),
    '/h/.codex/sessions/2025/11/22/rollout-2025-11-22T21-45-35-c-1.jsonl',
  );
  assert.deepEqual(statuses, ['understood', 'understood', 'understood', 'understood', 'understood']);
  assert.deepEqual(
    ofKind(events, 'turn').map((t) => [t.role, t.text]),
    [
      ['user', 'Add a dark theme'],
      ['system', 'Turn aborted (interrupted)'],
    ],
  );
});

test('Cline: automatic API retries are understood; a reason or a final failure is a system turn', () => {
  const say = (ts: number, text: object) => ({
    ts,
    type: 'say',
    say: 'error_retry',
    text: JSON.stringify(text),
  });
  const messages = [
    { ts: 1767000000000, type: 'say', say: 'task', text: 'Fix the login redirect' },
    say(1767000001000, { attempt: 1, maxAttempts: 3, delaySeconds: 2 }),
    say(1767000003000, {
      attempt: 2,
      maxAttempts: 3,
      delaySeconds: 4,
      errorMessage: '429 Too Many Requests',
    }),
    say(1767000007000, { attempt: 3, maxAttempts: 3, delaySeconds: 8, failed: true }),
  ];
  const { statuses, events } = read(
    clineFormat,
    JSON.stringify(messages),
    '/g/tasks/1767000000000/ui_messages.json',
  );
  assert.deepEqual(statuses, ['understood', 'understood', 'understood', 'understood']);
  assert.deepEqual(
    ofKind(events, 'turn').map((t) => [t.role, t.text]),
    [
      ['user', 'Fix the login redirect'],
      ['system', 'API request retried (attempt 2 of 3): 429 Too Many Requests'],
      ['system', 'API request failed after attempt 3 of 3'],
    ],
  );
});
