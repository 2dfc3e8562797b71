import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { CaptureEvent } from '../../engine/capture/events';
import { aiderFormat } from '../../engine/capture/readers/aider';
import { readAll } from '../../engine/capture/readers/captureFormat';
import type { CaptureFormat } from '../../engine/capture/readers/captureFormat';
import { claudeCodeFormat } from '../../engine/capture/readers/claudeCode';
import { codexFormat } from '../../engine/capture/readers/codex';
import { geminiFormat } from '../../engine/capture/readers/gemini';

const FIXTURES = path.join(__dirname, 'fixtures');
const SESSION = '5f0c2a4e-1111-4a2b-9c3d-000000000001';

function read(format: CaptureFormat, name: string, as = name) {
  const result = readAll(format, readFileSync(path.join(FIXTURES, name)), as);
  const events = result.records.flatMap((r) => r.events.map((e) => ({ ...e, sessionId: r.sessionId })));
  const statuses = result.records.map((r) => r.status);
  return { ...result, events, statuses };
}

const ofKind = <K extends CaptureEvent['kind']>(
  events: Array<CaptureEvent & { sessionId?: string }>,
  kind: K,
) => events.filter((e): e is Extract<CaptureEvent, { kind: K }> & { sessionId?: string } => e.kind === kind);

test('Claude Code: every record type becomes events; unknown and malformed lines are counted, not thrown', () => {
  const { events, statuses, records } = read(claudeCodeFormat, 'claude-session.jsonl', `${SESSION}.jsonl`);
  assert.equal(statuses.filter((s) => s === 'malformed').length, 1);
  assert.equal(statuses.filter((s) => s === 'unknown').length, 1, 'the made-up record type');
  assert.equal(statuses.filter((s) => s === 'understood').length, records.length - 2);

  const sessions = ofKind(events, 'session');
  assert.equal(
    sessions.find((s) => s.title)?.title,
    'Fix the flaky date parser test',
    'the summary names it',
  );
  assert.ok(sessions.some((s) => s.cwd === '/home/dev/shop' && s.gitBranch === 'fix/dates'));
  assert.ok(sessions.some((s) => s.model === 'claude-sonnet-4-5'));

  const turns = ofKind(events, 'turn');
  assert.deepEqual(
    turns.map((t) => t.role),
    ['summary', 'user', 'assistant', 'assistant', 'system', 'summary'],
  );
  assert.equal(turns[1]?.text, 'The date parser test fails on leap years. Use date-fns, not moment.');
  assert.equal(turns[2]?.thinking, 'I should read the parser first.');
  assert.ok(turns.every((t) => t.kind === 'turn' && (t.role === 'summary' || t.at !== undefined)));

  const calls = ofKind(events, 'tool-call').map((c) => c.name);
  assert.deepEqual(calls, ['Read', 'Bash', 'Edit', 'Bash']);
  const results = ofKind(events, 'tool-result');
  assert.deepEqual(
    results.map((r) => [r.callId, r.status, r.exitCode]),
    [
      ['toolu_read', 'ok', undefined],
      ['toolu_bash1', 'error', 1],
      ['toolu_edit', 'ok', undefined],
      ['toolu_bash2', 'ok', 0],
    ],
  );
  assert.deepEqual(
    ofKind(events, 'command').map((c) => c.command),
    ['npm test -- dates', 'npm test -- dates'],
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
  assert.deepEqual(touches[2]?.hunks?.[0], {
    oldStart: 1,
    oldLines: 1,
    newStart: 1,
    newLines: 1,
    lines: ['-export function parse() {}', '+export function parse(s: string) { return parseISO(s); }'],
  });
  // One API message split over two lines repeats its usage: it is counted once.
  const usage = ofKind(events, 'usage');
  assert.equal(usage.length, 4);
  assert.equal(
    usage.reduce((n, u) => n + u.input, 0),
    150,
  );
  assert.ok(events.every((e) => e.sessionId === SESSION));
});

test('Claude Code: a sub-agent transcript is its own session, linked to the one that spawned it', () => {
  const { events } = read(claudeCodeFormat, 'claude-subagents/agent-a1b2c3.jsonl');
  const sub = `${SESSION}/agent-a1b2c3`;
  assert.ok(events.every((e) => e.sessionId === sub));
  const session = ofKind(events, 'session')[0];
  assert.equal(session?.parentId, SESSION);
  assert.deepEqual(
    ofKind(events, 'turn').map((t) => t.text),
    ['Find every caller of parse()', 'parse() is called from src/orders.ts only.'],
  );
});

test('Claude Code: a line cut mid-way is left for the next read; the rest is read', () => {
  const whole = readFileSync(path.join(FIXTURES, 'claude-session.jsonl'));
  const cut = Buffer.concat([whole, Buffer.from('{"type":"user","sessionId":"x","mess')]);
  const { consumed, records } = readAll(claudeCodeFormat, cut, `${SESSION}.jsonl`);
  assert.equal(consumed, whole.length);
  assert.equal(records.length, whole.toString().trim().split('\n').length);
});

test('Codex (current shape): meta, context, messages, reasoning, shell and patch calls, exit codes, usage', () => {
  const { events, statuses } = read(
    codexFormat,
    'codex-rollout.jsonl',
    'rollout-2026-03-03T10-00-00-0199aa00-2222-7000-8000-000000000002.jsonl',
  );
  assert.equal(statuses.filter((s) => s === 'malformed').length, 1);
  assert.equal(statuses.filter((s) => s === 'unknown').length, 1);
  const session = ofKind(events, 'session');
  assert.equal(session[0]?.cwd, '/home/dev/shop');
  assert.equal(session[0]?.gitBranch, 'main');
  assert.equal(session[0]?.gitCommit, '4e1f0c9a');
  assert.ok(session.some((s) => s.model === 'gpt-5-codex'));
  const turns = ofKind(events, 'turn');
  assert.deepEqual(
    turns.map((t) => t.role),
    ['system', 'user', 'assistant', 'assistant', 'summary'],
    'the duplicate user_message event adds no turn',
  );
  assert.equal(turns[2]?.thinking, '**Looking at the import script**');
  assert.deepEqual(
    ofKind(events, 'command').map((c) => c.command),
    ['cat scripts/import.js', 'npm run lint'],
  );
  assert.deepEqual(
    ofKind(events, 'tool-result').map((r) => [r.callId, r.status, r.exitCode, r.durationMs]),
    [
      ['call_cat', 'ok', 0, 200],
      ['call_patch', 'ok', 0, 0],
      ['call_lint', 'error', 2, 1500],
    ],
  );
  const touches = ofKind(events, 'file-touch');
  assert.deepEqual(
    touches.map((t) => [t.action, t.path]),
    [
      ['edit', 'scripts/import.js'],
      ['create', 'scripts/README.md'],
      ['delete', 'scripts/old.js'],
    ],
  );
  assert.deepEqual(touches[0]?.hunks?.[0]?.lines, [
    '-const run = () => {}',
    '+const run = (dryRun) => { if (dryRun) return; }',
  ]);
  const usage = ofKind(events, 'usage');
  assert.deepEqual(
    usage.map((u) => [u.mode, u.input, u.output, u.cacheRead, u.reasoning]),
    [['total', 3000, 400, 1000, 100]],
  );
  assert.ok(events.every((e) => e.sessionId === '0199aa00-2222-7000-8000-000000000002'));
});

test('Codex (older shape): bare meta line, state markers, bare items, cwd from the environment block', () => {
  const { events, statuses } = read(
    codexFormat,
    'codex-legacy.jsonl',
    'rollout-2025-06-01T08-00-00-legacy.jsonl',
  );
  assert.ok(statuses.every((s) => s === 'understood'));
  const sessions = ofKind(events, 'session');
  assert.equal(sessions[0]?.gitBranch, 'dev');
  assert.equal(sessions.find((s) => s.cwd)?.cwd, '/home/dev/shop/api');
  assert.deepEqual(
    ofKind(events, 'command').map((c) => c.command),
    ['curl -s localhost:8080/health'],
  );
  assert.equal(ofKind(events, 'tool-result')[0]?.exitCode, 0);
  assert.deepEqual(
    ofKind(events, 'turn')
      .filter((t) => t.role !== 'system')
      .map((t) => t.role),
    ['user', 'assistant'],
  );
  assert.ok(events.every((e) => e.sessionId === '0199aa00-3333-7000-8000-000000000003'));
});

test('Aider: sessions by their start line, user input, tool output, replies and SEARCH/REPLACE edits', () => {
  const { events, statuses } = read(
    aiderFormat,
    'aider.chat.history.md',
    '/home/dev/shop/.aider.chat.history.md',
  );
  assert.ok(statuses.every((s) => s === 'understood'));
  const sessions = ofKind(events, 'session');
  assert.deepEqual(
    [...new Set(events.map((e) => e.sessionId))],
    ['aider-2026-03-04T14:00:00', 'aider-2026-03-05T09:30:00'],
  );
  assert.equal(sessions[0]?.cwd, '/home/dev/shop');
  assert.ok(sessions.some((s) => s.model === 'anthropic/claude-sonnet-4-5'));
  const turns = ofKind(events, 'turn');
  assert.deepEqual(
    turns.map((t) => t.role),
    ['system', 'user', 'assistant', 'system', 'user', 'system', 'user', 'assistant'],
  );
  assert.equal(turns[1]?.text, 'Rename the `total` helper to `sumPrices`');
  assert.deepEqual(
    ofKind(events, 'command').map((c) => c.command),
    ['pytest -q'],
  );
  const touch = ofKind(events, 'file-touch')[0];
  assert.equal(touch?.path, 'src/cart.py');
  assert.deepEqual(touch?.hunks?.[0]?.lines, ['-def total(items):', '+def sumPrices(items):']);
});

test('readers never throw, whatever the bytes', () => {
  const junk = [
    '{}\n',
    'null\n',
    '[1,2]\n',
    '{"type":"assistant","message":{"content":[null,{"type":"tool_use"}]}}\n',
    '{"type":"user","message":{"content":[{"type":"tool_result"}]},"toolUseResult":{"structuredPatch":7}}\n',
    '{"type":"response_item","payload":{"type":"function_call","arguments":"{"}}\n',
    '{"type":"response_item","payload":{"type":"function_call","name":"shell","call_id":"c","arguments":"{\\"command\\":5}"}}\n',
    '{"type":"event_msg","payload":{"type":"token_count","info":null}}\n',
    '#### \n> \n<<<<<<< SEARCH\n=======\n',
    '\u0000\uffff\n',
  ].join('');
  for (const format of [claudeCodeFormat, codexFormat, aiderFormat, geminiFormat]) {
    assert.doesNotThrow(() => readAll(format, Buffer.from(junk)));
  }
});

test('Gemini CLI: metadata, messages appended again as they change, each call and result once', () => {
  const { events, statuses } = read(
    geminiFormat,
    'gemini-session.jsonl',
    '/h/.gemini/tmp/x/chats/session-2026-03-06T08-00-7c1e9d20.jsonl',
  );
  assert.deepEqual(
    statuses.filter((s) => s !== 'understood'),
    ['unknown'],
  );
  assert.ok(events.every((e) => e.sessionId === '7c1e9d20-4444-4b5c-8d6e-000000000004'));
  const sessions = ofKind(events, 'session');
  assert.ok(sessions.some((s) => s.model === 'gemini-2.5-pro'));
  assert.ok(sessions.some((s) => s.title === 'Drop structuredClone for Node 18'));
  const turns = ofKind(events, 'turn');
  assert.deepEqual(
    turns.map((t) => t.role),
    ['user', 'assistant', 'assistant', 'system'],
    'the message appended twice is one turn',
  );
  assert.equal(turns[1]?.thinking, 'Locating the call: It is in src/copy.ts.');
  assert.deepEqual(
    ofKind(events, 'tool-call').map((c) => c.name),
    ['replace', 'run_shell_command'],
  );
  assert.deepEqual(
    ofKind(events, 'tool-result').map((r) => [r.callId, r.status, r.exitCode]),
    [
      ['replace-1', 'ok', undefined],
      ['shell-1', 'error', 2],
    ],
  );
  assert.deepEqual(ofKind(events, 'file-touch')[0]?.hunks?.[0]?.lines, [
    '-structuredClone(v)',
    '+JSON.parse(JSON.stringify(v))',
  ]);
  assert.deepEqual(
    ofKind(events, 'command').map((c) => c.command),
    ['npm run build'],
  );
  assert.deepEqual(
    ofKind(events, 'usage').map((u) => [u.input, u.output, u.cacheRead, u.reasoning]),
    [[900, 60, 300, 20]],
  );
});
