import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { CaptureEvent } from '../../engine/capture/events';
import { sessionRecords, STALE_MS } from '../../engine/capture/openCode/openCodeRecords';
import type { OpenCodePart, OpenCodeRow } from '../../engine/capture/openCode/openCodeRecords';
import { applyWal } from '../../engine/capture/openCode/sqliteWal';
import { openCodeFormat } from '../../engine/capture/readers/openCode';
import { privateSqlJs } from '../../engine/store/sqlite';
import { SQL_WASM_PATH } from '../support/temp';
import { FIXTURES } from './captureDb';
import { openCodeFixture } from './openCodeStore';
import type { ExportedSession } from './openCodeStore';

/** The fixture session's rows as the database gives them (ids apart from the data). */
function rowsOf(session: ExportedSession): { messages: OpenCodeRow[]; parts: OpenCodePart[] } {
  const messages = session.messages.map(({ info: { id, ...data } }) => ({ id, data }));
  const parts = session.messages.flatMap((m) =>
    m.parts.map(({ id, ...data }) => ({ id, messageId: m.info.id, data })),
  );
  return { messages, parts };
}

const LONG_AFTER = 1772442600000 + 2 * STALE_MS;

function parsedFixture() {
  const [main] = openCodeFixture();
  const { messages, parts } = rowsOf(main as ExportedSession);
  const info = (main as ExportedSession).info;
  const session = {
    id: info.id,
    directory: '/home/dev/shop',
    title: 'Fix the leap-year date parser',
    created: 1772442000000,
    updated: 1772442600000,
  };
  const { records } = sessionRecords(session, messages, parts, LONG_AFTER);
  const state = openCodeFormat.initialState(`/data/opencode.db#${info.id}`);
  return records.map((r) => openCodeFormat.parse(r.text, state));
}

test('opencode: every part type of a session becomes the events the other readers make', () => {
  const parsed = parsedFixture();
  const events = parsed.flatMap((p) => p.events);
  const of = <K extends CaptureEvent['kind']>(kind: K) =>
    events.filter((e): e is Extract<CaptureEvent, { kind: K }> => e.kind === kind);
  assert.deepEqual(
    parsed.map((p) => p.status).filter((s) => s !== 'understood'),
    ['unknown'],
    'the one part of a type this reader does not know is counted',
  );
  assert.ok(parsed.every((p) => p.sessionId === 'ses_3a1f0c2e4ffeQk7n2Lm8Pq4Rs1'));
  const session = of('session')[0];
  assert.equal(session?.cwd, '/home/dev/shop');
  assert.equal(session?.title, 'Fix the leap-year date parser');
  assert.deepEqual(
    of('session').flatMap((s) => (s.model ? [s.model] : [])),
    ['claude-sonnet-4-5', 'claude-opus-4-1'],
  );
  assert.deepEqual(
    of('turn').map((t) => [t.role, t.text.slice(0, 30), t.thinking?.slice(0, 8)]),
    [
      ['user', 'The date parser fails on leap ', undefined],
      ['system', 'Called the Read tool with the ', undefined],
      ['assistant', '', 'February'],
      ['assistant', 'Fixed: February now has 29 day', undefined],
      ['user', 'Ask a sub-agent to review it.', undefined],
      ['system', 'retry 1: Overloaded', undefined],
      ['summary', 'We fixed the leap-year bug in ', undefined],
      ['system', 'ProviderAuthError: Invalid API', undefined],
    ],
  );
  assert.deepEqual(
    of('tool-call').map((c) => c.name),
    ['read', 'edit', 'bash', 'bash', 'write', 'apply_patch', 'grep', 'task'],
  );
  assert.deepEqual(
    of('tool-result').map((r) => [r.callId, r.status, r.exitCode, r.durationMs]),
    [
      ['toolu_read_1', 'ok', undefined, 50],
      ['toolu_edit_1', 'ok', undefined, 100],
      ['toolu_bash_1', 'error', 1, 3000],
      ['toolu_bash_2', 'ok', 0, 3000],
      ['toolu_write_1', 'ok', undefined, 10],
      ['toolu_patch_1', 'ok', undefined, 20],
      ['toolu_grep_1', 'error', undefined, 5],
      ['toolu_task_1', 'ok', undefined, 88000],
    ],
  );
  assert.deepEqual(
    of('command').map((c) => c.command),
    ['npm test -- dates', 'TZ=UTC npm test -- dates'],
  );
  assert.deepEqual(
    of('file-touch').map((f) => [f.action, path.basename(f.path), f.hunks?.[0]?.lines.length]),
    [
      ['read', 'dates.ts', undefined], // the user's @mention
      ['read', 'dates.ts', undefined],
      ['edit', 'dates.ts', 2],
      ['create', 'leap.ts', undefined],
      ['edit', 'index.ts', 3],
      ['edit', 'dates.ts', undefined], // the step's patch: every file it changed
      ['edit', 'leap.ts', undefined],
    ],
  );
  assert.deepEqual(
    of('usage').map((u) => [u.input, u.output, u.cacheRead, u.cacheWrite, u.reasoning]),
    [[1200, 300, 800, 100, 40]],
  );
});

test('opencode: a sub-agent session names its parent; a bad record is counted, never thrown', () => {
  const child = (openCodeFixture()[1] as ExportedSession).info;
  const { records } = sessionRecords(
    { id: child.id, directory: '/home/dev/shop', parentID: child['parentID'] as string },
    [],
    [],
    LONG_AFTER,
  );
  const state = openCodeFormat.initialState(`/data/opencode.db#${child.id}`);
  const first = openCodeFormat.parse((records[0] as { text: string }).text, state);
  assert.equal(
    first.events[0]?.kind === 'session' && first.events[0].parentId,
    'ses_3a1f0c2e4ffeQk7n2Lm8Pq4Rs1',
  );
  for (const [line, status] of [
    ['{"type":"part","id":"prt_1","data":{"type":"tool","state":"not an object"', 'malformed'],
    ['{"type":"part","id":"prt_1","data":{"type":"tool","tool":"bash","state":"odd"}}', 'understood'],
    ['{"type":"part","id":"prt_1","data":"text"}', 'unknown'],
    ['{"type":"message","id":"msg_1","data":{"role":"system"}}', 'unknown'],
    ['{"type":"todo","id":"x"}', 'unknown'],
    ['[1,2]', 'unknown'],
  ] as const) {
    assert.equal(openCodeFormat.parse(line, state).status, status, line);
  }
});

test('opencode: rows still being written are held back until they finish, or the session went quiet', () => {
  const session = { id: 'ses_1', directory: '/w', created: 1000, updated: 2000 };
  const messages: OpenCodeRow[] = [
    { id: 'msg_1', data: { role: 'user', time: { created: 1000 } } },
    { id: 'msg_2', data: { role: 'assistant', time: { created: 1100 } } },
  ];
  const parts: OpenCodePart[] = [
    { id: 'prt_1', messageId: 'msg_1', data: { type: 'text', text: 'Go' } },
    {
      id: 'prt_2',
      messageId: 'msg_2',
      data: { type: 'text', text: 'Done', time: { start: 1200, end: 1300 } },
    },
    { id: 'prt_3', messageId: 'msg_2', data: { type: 'text', text: 'Stream', time: { start: 1400 } } },
    {
      id: 'prt_4',
      messageId: 'msg_2',
      data: { type: 'tool', tool: 'bash', state: { status: 'running', input: {} } },
    },
    { id: 'prt_5', messageId: 'msg_2', data: { type: 'step-start' } },
  ];
  const live = sessionRecords(session, messages, parts, 2000 + 1000);
  assert.deepEqual(
    live.records.map((r) => r.key),
    ['session:ses_1', 'message:msg_1', 'part:prt_1', 'part:prt_2', 'part:prt_5'],
  );
  assert.equal(live.pending, true);
  const over = sessionRecords(session, messages, parts, 2000 + STALE_MS + 1);
  assert.equal(over.records.length, 8, 'a session untouched for long is over: all of it is taken');
  assert.equal(over.pending, false);
});

test("opencode: a database in WAL mode is read with the log's committed frames, not a torn tail", async () => {
  const main = readFileSync(path.join(FIXTURES, 'opencode-wal.db'));
  const wal = readFileSync(path.join(FIXTURES, 'opencode-wal.db-wal'));
  const SQL = await privateSqlJs(SQL_WASM_PATH);
  const notes = (image: Uint8Array) => {
    const db = new SQL.Database(image);
    try {
      return db.exec('SELECT text FROM note ORDER BY id')[0]?.values.map((v) => v[0]);
    } finally {
      db.close();
    }
  };
  assert.deepEqual(notes(applyWal(main, undefined)), ['checkpointed into the main file']);
  const all = ['checkpointed into the main file', 'committed, still in the log', 'second commit in the log'];
  assert.deepEqual(notes(applyWal(main, wal)), all);
  // A frame being written (cut short) and one of an older log generation (other salts) are left out.
  const torn = Buffer.concat([wal, wal.subarray(32, 32 + 24 + 500)]);
  assert.deepEqual(notes(applyWal(main, torn)), all);
  const lastFrameOnly = Buffer.from(wal);
  lastFrameOnly.writeUInt32BE(lastFrameOnly.readUInt32BE(32 + 24 + 1024 + 8) ^ 1, 32 + 24 + 1024 + 8);
  assert.deepEqual(
    notes(applyWal(main, lastFrameOnly)),
    all.slice(0, 2),
    'a frame whose salt differs ends the log',
  );
  const damaged = Buffer.from(wal);
  const at = 32 + 24 + 1024 + 24 + 1000; // a byte of the last frame's page
  damaged.writeUInt8(damaged.readUInt8(at) ^ 0xff, at);
  assert.deepEqual(
    notes(applyWal(main, damaged)),
    all.slice(0, 2),
    'a frame whose checksum fails ends the log',
  );
  assert.deepEqual(notes(applyWal(main, Buffer.from('not a log'))), all.slice(0, 1));
});

test('opencode: a message of the first format (its parts inside it) is read too', () => {
  const state = openCodeFormat.initialState('/data/storage/session/p/ses_1.json');
  const message = {
    id: 'msg_1',
    role: 'assistant',
    parts: [
      { type: 'step-start' },
      { type: 'reasoning', text: 'Check the test first.' },
      {
        type: 'tool-invocation',
        toolInvocation: {
          state: 'result',
          toolCallId: 'c1',
          toolName: 'bash',
          args: { command: 'npm test' },
          result: 'fail',
        },
      },
      {
        type: 'tool-invocation',
        toolInvocation: {
          state: 'call',
          toolCallId: 'c2',
          toolName: 'edit',
          args: { filePath: '/w/a.ts', oldString: 'a', newString: 'b' },
        },
      },
      { type: 'text', text: 'The test fails.' },
    ],
    metadata: {
      time: { created: 1000, completed: 5000 },
      sessionID: 'ses_1',
      tool: { c1: { title: 'npm test', exit: 1, time: { start: 2000, end: 3000 } } },
      assistant: {
        modelID: 'gpt-4.1',
        providerID: 'openai',
        path: { cwd: '/w', root: '/w' },
        cost: 0,
        tokens: { input: 10, output: 5, reasoning: 0, cache: { read: 2, write: 0 } },
      },
    },
  };
  const { id, ...data } = message;
  const { records } = sessionRecords({ id: 'ses_1', directory: '/w' }, [{ id, data }], [], 6000);
  assert.equal(records.length, 2, 'completed: taken');
  const parsed = openCodeFormat.parse((records[1] as { text: string }).text, state);
  assert.equal(parsed.status, 'understood');
  assert.deepEqual(
    parsed.events.map((e) => (e.kind === 'turn' ? `${e.role}:${e.text || e.thinking}` : e.kind)),
    [
      'session',
      'assistant:Check the test first.',
      'tool-call',
      'command',
      'tool-result',
      'tool-call',
      'file-touch',
      'assistant:The test fails.',
      'usage',
    ],
  );
  const result = parsed.events.find((e) => e.kind === 'tool-result');
  assert.deepEqual(result?.kind === 'tool-result' && [result.status, result.exitCode, result.durationMs], [
    'error',
    1,
    1000,
  ]);
  const running = sessionRecords(
    { id: 'ses_1', directory: '/w', updated: 6000 },
    [{ id, data: { ...data, metadata: { ...data.metadata, time: { created: 1000 } } } }],
    [],
    6000,
  );
  assert.equal(running.pending, true, 'not completed yet: waits');
});
