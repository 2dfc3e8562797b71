import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { CaptureEvent } from '../../engine/capture/events';
import { readAll } from '../../engine/capture/readers/captureFormat';
import type { CaptureFormat } from '../../engine/capture/readers/captureFormat';
import { clineFormat, rooCodeFormat } from '../../engine/capture/readers/cline';
import { copilotFormat } from '../../engine/capture/readers/copilotChat';
import { splitJsonArray } from '../../engine/capture/readers/jsonElements';

const FIXTURES = path.join(__dirname, 'fixtures');
const COPILOT = '0b5e7a1c-7c1d-4e8a-9f00-5e55c0ff1ce0';

function read(
  format: CaptureFormat,
  name: string,
  as: string,
  bytes = readFileSync(path.join(FIXTURES, name)),
) {
  const result = readAll(format, bytes, as);
  const events = result.records.flatMap((r) => r.events.map((e) => ({ ...e, sessionId: r.sessionId })));
  return { ...result, events, statuses: result.records.map((r) => r.status) };
}

const ofKind = <K extends CaptureEvent['kind']>(events: CaptureEvent[], kind: K) =>
  events.filter((e): e is Extract<CaptureEvent, { kind: K }> => e.kind === kind);

test('Copilot Chat log: requests, streamed responses, agent-mode tools; bad and unknown lines counted', () => {
  const file = `/ws/chatSessions/${COPILOT}.jsonl`;
  const { events, statuses, records } = read(copilotFormat, 'copilot-session.jsonl', file);
  assert.equal(statuses.filter((s) => s === 'malformed').length, 1);
  assert.equal(statuses.filter((s) => s === 'unknown').length, 1, 'the made-up entry kind');
  assert.equal(records.length, 11, 'the line cut mid-write waits for its end');
  assert.ok(events.every((e) => e.sessionId === COPILOT));

  const turns = ofKind(events, 'turn');
  assert.deepEqual(
    turns.filter((t) => t.role === 'user').map((t) => t.text),
    ['Why does the date test fail on CI?', 'Fix it and run the tests'],
  );
  const said = turns.filter((t) => t.role === 'assistant');
  assert.equal(said[0]?.text, 'The test builds dates in local time; CI runs in UTC. See `dates.test.ts`.');
  // The Markdown streamed in twice; it is taken once, whole, when the response is over.
  assert.equal(said[1]?.text, 'I will update the parser to build dates in UTC.');
  assert.equal(said[1]?.thinking, 'The parser uses new Date(y, m, d).');
  assert.equal(said[1]?.model, 'copilot/claude-sonnet-4');
  assert.equal(said.at(-1)?.text, 'Fixed: the tests pass in UTC.');

  const calls = ofKind(events, 'tool-call');
  assert.deepEqual(
    calls.map((c) => c.name),
    [
      'copilot_readFile',
      'copilot_replaceString',
      'run_in_terminal',
      'run_in_terminal',
      'mcp_github_get_issue',
    ],
  );
  assert.deepEqual(calls[4]?.arguments, { issue: 42 }, 'an MCP tool keeps its raw input');
  const results = ofKind(events, 'tool-result');
  assert.deepEqual(
    results.map((r) => [r.callId, r.status, r.exitCode]),
    [
      ['call_read', 'ok', undefined],
      ['call_edit', 'ok', undefined],
      ['call_test1', 'error', 1],
      ['call_test2', 'ok', 0],
      ['call_mcp', 'error', undefined],
    ],
  );
  assert.deepEqual(
    ofKind(events, 'command').map((c) => c.command),
    ['npm test', 'TZ=UTC npm test'],
    'the command as the tool ran it',
  );
  const touches = ofKind(events, 'file-touch');
  assert.deepEqual(
    touches.map((t) => [t.action, t.path]),
    [
      ['read', '/home/dev/shop/src/dates.ts'],
      ['edit', '/home/dev/shop/src/dates.ts'],
      ['edit', '/home/dev/shop/src/dates.ts'],
    ],
  );
  assert.deepEqual(touches[1]?.hunks?.[0]?.lines, [
    '-  return new Date(y, m - 1, d);',
    '+  return new Date(Date.UTC(y, m - 1, d));',
  ]);
  assert.equal(touches[2]?.hunks?.[0]?.newStart, 12, 'the edit group keeps its line');
  const sessions = ofKind(events, 'session');
  assert.ok(sessions.some((s) => s.title === 'Fix the date parser'));
  assert.ok(sessions.some((s) => s.model === 'copilot/gpt-4.1'));
});

test('Copilot Chat log: a compacted rewrite read with the same state takes nothing twice', () => {
  const file = `/ws/chatSessions/${COPILOT}.jsonl`;
  const format = copilotFormat.variant?.(file) ?? copilotFormat;
  const state = format.initialState(file);
  const bytes = readFileSync(path.join(FIXTURES, 'copilot-session.jsonl'));
  for (const r of format.split(bytes, 0).records) format.parse(r.text, state);
  // VS Code compacts: one kind-0 line with both requests, complete.
  const again = format.parse(
    JSON.stringify({
      kind: 0,
      v: {
        sessionId: COPILOT,
        requests: [
          { requestId: 'request_0a1', message: { text: 'Why does the date test fail on CI?' }, result: {} },
          { requestId: 'request_0b2', message: { text: 'Fix it and run the tests' }, result: {} },
          { requestId: 'request_0c3', message: { text: 'Now the changelog' }, response: [] },
        ],
      },
    }),
    state,
  );
  assert.deepEqual(
    again.events.filter((e) => e.kind === 'turn').map((e) => (e as { text: string }).text),
    ['Now the changelog'],
  );
});

test('Copilot Chat document (older .json): one record per request; a rewrite keeps earlier records as they were', () => {
  const file = '/ws/chatSessions/7d0c1b2a-2222-4c3d-8e4f-0000000000aa.json';
  const bytes = readFileSync(path.join(FIXTURES, 'copilot-session.json'));
  const { events, statuses, records } = read(copilotFormat, 'copilot-session.json', file, bytes);
  assert.deepEqual(statuses, ['understood', 'understood', 'understood', 'understood']);
  const turns = ofKind(events, 'turn');
  assert.deepEqual(
    turns.map((t) => [t.role, t.text]),
    [
      ['user', 'Which logger do we use?'],
      ['assistant', 'The project uses pino (see src/log.ts).'],
      ['user', 'Write a migration for the orders table'],
      ['assistant', 'Starting'],
      ['system', 'error: Sorry, the response was cancelled.'],
    ],
  );
  assert.ok(ofKind(events, 'session').some((s) => s.title === 'Logging questions'));

  const doc = JSON.parse(bytes.toString('utf8')) as { requests: unknown[]; lastMessageDate: number };
  doc.requests.push({ requestId: 'request_1c', message: { text: 'And in tests?' }, result: {} });
  doc.lastMessageDate += 1000;
  const rewritten = splitJsonArray('requests')(Buffer.from(JSON.stringify(doc, null, 2)), 0).records;
  assert.equal(rewritten.length, 5);
  for (const i of [0, 1, 2]) {
    assert.equal(rewritten[i]?.offset, records[i]?.offset);
    assert.equal(rewritten[i]?.text, splitJsonArray('requests')(bytes, 0).records[i]?.text);
  }

  const cut = read(
    copilotFormat,
    'copilot-session.json',
    file,
    bytes.subarray(0, bytes.indexOf('request_1b')),
  );
  assert.equal(cut.records.length, 2, 'a cut file: the head and the one complete request');
});

test('splitJsonArray: continues inside the array after an element, and strings may hold brackets', () => {
  const doc = Buffer.from('[{"a":"]}\\""},{"b":[1,2]} , 3,"x"]');
  const first = splitJsonArray()(doc.subarray(0, 14), 0);
  assert.deepEqual(
    first.records.map((r) => r.text),
    ['{"a":"]}\\""}'],
  );
  const rest = splitJsonArray()(doc.subarray(first.consumed), first.consumed);
  assert.deepEqual(
    rest.records.map((r) => r.text),
    ['{"b":[1,2]}', '3', '"x"'],
  );
  assert.equal(rest.consumed, doc.length);
  assert.deepEqual(splitJsonArray()(Buffer.from('not json'), 0).records, []);
});

test('Cline: every message kind, commands with exit codes, tool diffs; partial, unknown and broken counted', () => {
  const file = '/g/saoudrizwan.claude-dev/tasks/1764330000000/ui_messages.json';
  const { events, statuses } = read(clineFormat, 'cline-ui_messages.json', file);
  assert.equal(statuses.filter((s) => s === 'malformed').length, 1);
  assert.equal(statuses.filter((s) => s === 'unknown').length, 1, 'the made-up say');
  assert.ok(events.every((e) => e.sessionId === '1764330000000'));
  const turns = ofKind(events, 'turn');
  assert.deepEqual(
    turns.filter((t) => t.role === 'user').map((t) => t.text),
    [
      'Add a --dry-run flag to the deploy script\nIt should print the plan only.',
      'No, you used an env var. Use a real --dry-run flag instead.',
    ],
  );
  assert.ok(
    turns.some((t) => t.role === 'assistant' && t.thinking === 'The script lives in scripts/deploy.sh.'),
  );
  assert.ok(
    turns.some((t) => t.role === 'assistant' && t.text === 'Should the flag also skip the cache purge?'),
  );
  assert.ok(!turns.some((t) => t.text === 'Still typing'), 'a partial message waits');
  assert.ok(turns.some((t) => t.role === 'system' && t.text.startsWith('error: Cline tried')));
  const results = ofKind(events, 'tool-result');
  assert.deepEqual(
    results.map((r) => [r.status, r.exitCode]),
    [
      ['error', 2],
      ['ok', undefined],
    ],
  );
  assert.deepEqual(
    ofKind(events, 'command').map((c) => c.command),
    ['bash scripts/deploy.sh --dry-run', 'DRY_RUN=1 bash scripts/deploy.sh'],
  );
  const touches = ofKind(events, 'file-touch');
  assert.deepEqual(
    touches.map((t) => [t.action, t.path]),
    [
      ['read', 'scripts/deploy.sh'],
      ['edit', 'scripts/deploy.sh'],
      ['create', 'docs/deploy.md'],
    ],
  );
  assert.deepEqual(touches[1]?.hunks?.[0]?.lines, ['-set -e', '+set -e', '+DRY_RUN=${DRY_RUN:-0}']);
  assert.deepEqual(
    ofKind(events, 'usage').map((u) => [u.input, u.output, u.cacheWrite]),
    [[1200, 300, 1000]],
  );
  const sessions = ofKind(events, 'session');
  assert.equal(sessions[0]?.title, 'Add a --dry-run flag to the deploy script');
  assert.ok(sessions.some((s) => s.model === 'claude-sonnet-4'));
});

test('Cline: a file cut mid-message (a crash during a rewrite) gives its complete messages', () => {
  const file = '/g/tasks/1764330000000/ui_messages.json';
  const bytes = readFileSync(path.join(FIXTURES, 'cline-ui_messages.json'));
  const cut = bytes.subarray(0, bytes.indexOf('"say":"command_output"'));
  const { records, statuses, consumed } = read(clineFormat, 'cline-ui_messages.json', file, cut);
  assert.equal(records.length, 7, 'up to the command before the cut');
  assert.ok(statuses.every((s) => s === 'understood'));
  assert.ok(consumed < cut.length, 'the cut message waits');
});

test('Cline: the file read again after a rewrite takes only what changed', () => {
  const file = '/g/tasks/1764330000000/ui_messages.json';
  const bytes = readFileSync(path.join(FIXTURES, 'cline-ui_messages.json'));
  const state = clineFormat.initialState(file);
  for (const r of clineFormat.split(bytes, 0).records) clineFormat.parse(r.text, state);
  const messages = bytes.toString('utf8').replace(/"Still typing","partial":true/, '"Done typing"');
  const again = clineFormat
    .split(Buffer.from(messages), 0)
    .records.flatMap((r) => clineFormat.parse(r.text, state).events);
  assert.deepEqual(
    again.map((e) => (e.kind === 'turn' ? e.text : e.kind)),
    ['Done typing'],
  );
});

test('Roo Code: the task said as text, batch reads, unified diffs, condensed context', () => {
  const file = '/g/rooveterinaryinc.roo-cline/tasks/5e6f/ui_messages.json';
  const { events, statuses } = read(rooCodeFormat, 'roo-ui_messages.json', file);
  assert.ok(statuses.every((s) => s === 'understood'));
  const turns = ofKind(events, 'turn');
  assert.deepEqual(turns[0], {
    kind: 'turn',
    role: 'user',
    text: 'Refactor the cart totals',
    at: 1764330001000,
    sessionId: '5e6f',
  });
  assert.ok(turns.some((t) => t.role === 'summary' && t.text === 'We refactored cart totals to use sum().'));
  const touches = ofKind(events, 'file-touch');
  assert.deepEqual(
    touches.map((t) => [t.action, t.path]),
    [
      ['read', 'src/cart.ts'],
      ['read', 'src/money.ts'],
      ['edit', 'src/cart.ts'],
    ],
  );
  assert.deepEqual(touches[2]?.hunks?.[0], {
    oldStart: 10,
    oldLines: 2,
    newStart: 10,
    newLines: 2,
    lines: ['-  return items.reduce((s, i) => s + i.price, 0);', '+  return sum(items.map((i) => i.price));'],
  });
});
