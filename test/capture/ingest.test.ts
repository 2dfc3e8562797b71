import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { pathMatcher } from '../../engine/capture/captureExcludes';
import { ingestSource } from '../../engine/capture/ingest';
import { purgeSessions } from '../../engine/capture/purge';
import { longTextScans } from '../../engine/extract/storedText';
import { scanJournal } from '../../engine/store/journalScan';
import type { SourceFile } from '../../engine/capture/workspaceSources';
import { openTestHost } from '../support/host';
import { tempDir } from '../support/temp';
import { FIXTURES, SESSION, SHOP, copyFixture, dumpCapture } from './captureDb';

const claudeFile = (dir: string): SourceFile => ({
  agent: 'claude-code',
  path: copyFixture('claude-session.jsonl', dir, `${SESSION}.jsonl`),
});

test('ingest stores the session, its turns, tool calls, commands, file touches and usage', async () => {
  const t = await openTestHost();
  const store = t.host.store;
  const report = await ingestSource(store, claudeFile(tempDir()), { root: SHOP });
  assert.equal(report.records, 17);
  assert.equal(report.malformed, 1);
  assert.equal(report.unknown, 1);
  assert.deepEqual(report.sessions, [SESSION]);
  const session = store.read((r) => r.get<Record<string, unknown>>('SELECT * FROM capture_sessions'));
  assert.equal(session?.['agent'], 'claude-code');
  assert.equal(session?.['model'], 'claude-sonnet-4-5');
  assert.equal(session?.['cwd'], SHOP);
  assert.equal(session?.['git_branch'], 'fix/dates');
  assert.equal(session?.['title'], 'Fix the flaky date parser test');
  assert.equal(session?.['started_at'], Date.parse('2026-03-02T09:00:00.000Z'));
  assert.equal(session?.['ended_at'], Date.parse('2026-03-02T09:01:01.000Z'));
  assert.equal(session?.['input_tokens'], 150, 'usage repeated on the lines of one message counts once');
  const dump = dumpCapture(store);
  assert.deepEqual(
    dump['capture_commands']?.map((c) => [
      (c as { command: string }).command,
      (c as { exit_code: number }).exit_code,
    ]),
    [
      ['npm test -- dates', 1],
      ['npm test -- dates', 0],
    ],
  );
  const touches = dump['capture_file_touches'] as Array<{
    path: string;
    action: string;
    hunks: string | null;
  }>;
  assert.deepEqual(
    touches.map((f) => [f.action, f.path]),
    [
      ['read', 'src/dates.ts'],
      ['edit', 'src/dates.ts'],
    ],
    'workspace-relative paths; the edit is one row completed by its structured patch',
  );
  assert.equal((JSON.parse(touches[1]?.hunks ?? '[]') as Array<{ oldStart: number }>)[0]?.oldStart, 1);
  const calls = dump['capture_tool_calls'] as Array<{ call_id: string; status: string; duration_ms: number }>;
  assert.deepEqual(
    calls.map((c) => [c.call_id, c.status, c.duration_ms]),
    [
      ['toolu_bash1', 'error', 3000],
      ['toolu_bash2', 'ok', 3000],
      ['toolu_edit', 'ok', 1000],
      ['toolu_read', 'ok', 1000],
    ],
  );
  await t.host.close();
});

test('appending and reading again gives what one read of the whole file gives; a re-read adds nothing', async () => {
  const whole = readFileSync(path.join(FIXTURES, 'claude-session.jsonl'));
  const once = await openTestHost();
  await ingestSource(once.host.store, claudeFile(tempDir()), { root: SHOP });
  const expected = dumpCapture(once.host.store);
  await once.host.close();

  const t = await openTestHost();
  const file = path.join(tempDir(), `${SESSION}.jsonl`);
  const cut = whole.indexOf('"type":"assistant","message":{"model":"claude-sonnet-4-5","id":"msg_03"') - 10;
  writeFileSync(file, whole.subarray(0, cut)); // ends mid-line
  const first = await ingestSource(t.host.store, { agent: 'claude-code', path: file }, { root: SHOP });
  const firstLines = whole.subarray(0, cut).toString().split('\n').length - 1;
  assert.equal(first.records, firstLines, 'the unfinished line waits');
  appendFileSync(file, whole.subarray(cut));
  const second = await ingestSource(t.host.store, { agent: 'claude-code', path: file }, { root: SHOP });
  assert.equal(first.records + second.records, 17);
  assert.deepEqual(dumpCapture(t.host.store), expected);

  const again = await ingestSource(t.host.store, { agent: 'claude-code', path: file }, { root: SHOP });
  assert.equal(again.records, 0, 'nothing new');
  // Lost progress (or a replaced file) means reading from the start: the ledger skips what it has.
  t.host.store.write((tx) => tx.run('UPDATE capture_sources SET offset = 0, state = NULL'));
  const reread = await ingestSource(t.host.store, { agent: 'claude-code', path: file }, { root: SHOP });
  assert.equal(reread.skipped, 17);
  assert.deepEqual(dumpCapture(t.host.store), expected);
  await t.host.close();
});

test('an ingest that dies between batches resumes with neither duplicates nor gaps', async () => {
  const once = await openTestHost();
  await ingestSource(once.host.store, claudeFile(tempDir()), { root: SHOP });
  const expected = dumpCapture(once.host.store);
  await once.host.close();

  const t = await openTestHost();
  const store = t.host.store;
  const source = claudeFile(tempDir());
  const write = store.write.bind(store);
  let writes = 0;
  store.write = (fn, options) => {
    if (++writes === 4) throw new Error('killed');
    return write(fn, options);
  };
  await assert.rejects(ingestSource(store, source, { root: SHOP, batchRecords: 3 }), /killed/);
  store.write = write;
  // Three batches committed (of up to 3 records: fewer when preparing took long), the fourth not:
  // the ledger holds exactly the records before the saved offset.
  const { partial, offset } = store.read((r) => ({
    partial: r.value<number>('SELECT count(*) FROM capture_records') ?? 0,
    offset: r.value<number>('SELECT offset FROM capture_sources') ?? 0,
  }));
  const before = readFileSync(source.path).subarray(0, offset).toString().split('\n').length - 1;
  assert.ok(partial >= 3 && partial <= 9, `${partial} records`);
  assert.equal(partial, before);
  await ingestSource(store, source, { root: SHOP, batchRecords: 3 });
  assert.deepEqual(dumpCapture(store), expected);
  await t.host.close();
});

test('Codex and Aider files are ingested into sessions of their own', async () => {
  const t = await openTestHost();
  const dir = tempDir();
  const codex = copyFixture(
    'codex-rollout.jsonl',
    dir,
    'rollout-2026-03-03T10-00-00-0199aa00-2222-7000-8000-000000000002.jsonl',
  );
  await ingestSource(t.host.store, { agent: 'codex', path: codex }, { root: SHOP });
  const aider = copyFixture('aider.chat.history.md', dir, '.aider.chat.history.md');
  await ingestSource(t.host.store, { agent: 'aider', path: aider }, { root: dir });
  const sessions = t.host.store.read((r) =>
    r.all<{ id: string; agent: string; input_tokens: number; git_commit: string | null }>(
      'SELECT id, agent, input_tokens, git_commit FROM capture_sessions ORDER BY id',
    ),
  );
  assert.deepEqual(sessions, [
    {
      id: '0199aa00-2222-7000-8000-000000000002',
      agent: 'codex',
      input_tokens: 3000,
      git_commit: '4e1f0c9a',
    },
    { id: 'aider-2026-03-04T14:00:00', agent: 'aider', input_tokens: 0, git_commit: null },
    { id: 'aider-2026-03-05T09:30:00', agent: 'aider', input_tokens: 0, git_commit: null },
  ]);
  const touches = t.host.store.read((r) =>
    r.all<{ path: string; action: string }>('SELECT path, action FROM capture_file_touches ORDER BY id'),
  );
  assert.deepEqual(
    touches.map((x) => `${x.action} ${x.path}`),
    ['edit scripts/import.js', 'create scripts/README.md', 'delete scripts/old.js', 'edit src/cart.py'],
  );
  await t.host.close();
});

test('secrets, e-mail addresses, phone numbers and private spans never reach the database or its journal', async () => {
  const t = await openTestHost();
  const dir = tempDir();
  const key = 'sk-' + 'ant-' + 'api03-Zq8xWv2Ty6Rp4Nm0Lk3Jh7Gf5Ds1Aa9';
  const lines = [
    {
      type: 'user',
      sessionId: 's1',
      cwd: SHOP,
      timestamp: '2026-03-02T09:00:00Z',
      message: {
        content: `use ${key} and mail me at jane.roe@example.org <private>pin 4321 is my bank pin</private>`,
      },
    },
    {
      type: 'assistant',
      sessionId: 's1',
      cwd: SHOP,
      timestamp: '2026-03-02T09:00:01Z',
      message: {
        content: [
          {
            type: 'tool_use',
            id: 't1',
            name: 'Bash',
            input: {
              command: `curl -H "Authorization: Bearer ${key}" https://api.example.org --data phone=+1-415-555-0100`,
            },
          },
        ],
      },
    },
    {
      type: 'user',
      sessionId: 's1',
      cwd: SHOP,
      timestamp: '2026-03-02T09:00:02Z',
      message: {
        content: [
          {
            type: 'tool_result',
            tool_use_id: 't1',
            content: 'DATABASE_URL=postgres://app:Sup3rS3cret!@db:5432/app',
          },
        ],
      },
    },
  ];
  const file = path.join(dir, 's1.jsonl');
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  await ingestSource(t.host.store, { agent: 'claude-code', path: file }, { root: SHOP });
  const everything = JSON.stringify(dumpCapture(t.host.store));
  for (const needle of [
    'Zq8xWv2Ty6Rp4Nm0Lk3Jh7Gf5Ds1Aa9',
    'jane.roe@example.org',
    '415-555-0100',
    'bank pin',
    'Sup3rS3cret!',
  ]) {
    assert.ok(!everything.includes(needle), `${needle} was stored`);
  }
  assert.match(everything, /REDACTED:email/);
  assert.match(everything, /REDACTED:phone/);
  await t.host.close();
  for (const stored of [t.dbPath, `${t.dbPath}.journal`]) {
    const bytes = readFileSync(stored, { flag: 'r' }).toString('latin1');
    assert.ok(
      !bytes.includes('Zq8xWv2Ty6Rp4Nm0Lk3Jh7Gf5Ds1Aa9') && !bytes.includes('jane.roe@example.org'),
      stored,
    );
  }
});

test('a file replaced by a shorter one is read again from its start, and its new records are kept', async () => {
  const t = await openTestHost();
  const dir = tempDir();
  const file = path.join(dir, '.aider.chat.history.md');
  writeFileSync(file, readFileSync(path.join(FIXTURES, 'aider.chat.history.md')));
  await ingestSource(t.host.store, { agent: 'aider', path: file }, { root: dir });
  // The user deleted the history; aider starts a new one.
  writeFileSync(file, '\n# aider chat started at 2026-04-01 10:00:00\n\n#### add a README  \n\nDone.\n');
  const report = await ingestSource(t.host.store, { agent: 'aider', path: file }, { root: dir });
  assert.equal(report.records, 3);
  assert.equal(report.skipped, 0, 'new text at offsets the ledger already had');
  const turns = t.host.store.read((r) =>
    r.all<{ text: string }>(
      "SELECT text FROM capture_turns WHERE session_id = 'aider-2026-04-01T10:00:00' ORDER BY id",
    ),
  );
  assert.deepEqual(
    turns.map((x) => x.text),
    ['add a README', 'Done.'],
  );
  await t.host.close();
});

test('a record that touches an excluded path keeps only its place, and so does its call result', async () => {
  const t = await openTestHost();
  const report = await ingestSource(t.host.store, claudeFile(tempDir()), {
    root: SHOP,
    excludePath: pathMatcher(['src/dates.ts']),
  });
  assert.equal(report.excluded, 4, 'the Read and Edit calls and their two results');
  const dump = dumpCapture(t.host.store);
  // The edit's new text and the file's content were only in the excluded records.
  const everything = JSON.stringify(dump);
  assert.ok(!everything.includes('return parseISO(s)') && !everything.includes('1→export'), everything);
  assert.deepEqual(dump['capture_file_touches'], []);
  assert.deepEqual(
    (dump['capture_tool_calls'] as Array<{ call_id: string }>).map((c) => c.call_id),
    ['toolu_bash1', 'toolu_bash2'],
  );
  await t.host.close();
});

test('a session file deleted since it was listed is skipped, not an error', async () => {
  const t = await openTestHost();
  const report = await ingestSource(
    t.host.store,
    { agent: 'claude-code', path: path.join(tempDir(), 'gone.jsonl') },
    { root: SHOP },
  );
  assert.equal(report.records, 0);
  await t.host.close();
});

test('purging a session purges its sub-agents, and a re-read brings neither back', async () => {
  const t = await openTestHost();
  const store = t.host.store;
  const dir = tempDir();
  const main = claudeFile(dir);
  const sub: SourceFile = {
    agent: 'claude-code',
    path: copyFixture('claude-subagents/agent-a1b2c3.jsonl', dir),
  };
  for (const source of [main, sub]) await ingestSource(store, source, { root: SHOP });
  const report = store.write((tx, now) => purgeSessions(tx, [SESSION], now));
  assert.deepEqual(report.sessions.sort(), [SESSION, `${SESSION}/agent-a1b2c3`]);
  assert.equal(report.records, 19);
  store.write((tx) => tx.run('UPDATE capture_sources SET offset = 0, state = NULL'));
  for (const source of [main, sub]) await ingestSource(store, source, { root: SHOP });
  const left = dumpCapture(store);
  for (const [table, rows] of Object.entries(left)) assert.equal(rows.length, 0, table);
  await t.host.close();
});

test('the write policy does not scan a record again that redaction found clean, however long', async () => {
  const t = await openTestHost();
  const dir = tempDir();
  // Longer than the clean-text cache keeps (storedText.ts): before, the policy scanned it again.
  const output = 'lorem ipsum dolor sit amet '.repeat(60_000);
  const record = (type: string, content: unknown, s: number) =>
    JSON.stringify({
      type,
      sessionId: 's2',
      cwd: SHOP,
      timestamp: `2026-03-02T09:00:0${s}Z`,
      message: { role: type, content },
    });
  const file = path.join(dir, 's2.jsonl');
  writeFileSync(
    file,
    [
      record(
        'assistant',
        [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'cat big.txt' } }],
        1,
      ),
      record('user', [{ type: 'tool_result', tool_use_id: 't1', content: output }], 2),
    ].join('\n') + '\n',
  );
  const before = longTextScans();
  await ingestSource(t.host.store, { agent: 'claude-code', path: file }, { root: SHOP });
  // The long record and its output once each, to redact them; the call's first 4,000 characters once.
  assert.equal(longTextScans() - before, 3);
  const raw = t.host.store.read((r) => r.value<string>('SELECT raw FROM capture_records WHERE offset > 0'));
  assert.ok(raw?.includes(output), 'the output is kept whole in the ledger');
  await t.host.close();
});

test("a transaction creates a session's row once and widens its times once, whatever its records", async () => {
  const t = await openTestHost();
  await ingestSource(t.host.store, claudeFile(tempDir()), { root: SHOP });
  const journal = scanJournal(readFileSync(`${t.dbPath}.journal`));
  const statements = journal.frames.flatMap((f) => f.record.statements.map(([sql]) => sql));
  const count = (re: RegExp) => statements.filter((sql) => re.test(sql)).length;
  assert.equal(count(/^INSERT INTO capture_sources/), 1, 'the fixture is one transaction');
  assert.equal(count(/^INSERT OR IGNORE INTO capture_sessions/), 1);
  assert.equal(count(/^UPDATE capture_sessions SET started_at/), 1);
  const times = t.host.store.read((r) => r.get('SELECT started_at, ended_at FROM capture_sessions'));
  assert.deepEqual(times, {
    started_at: Date.parse('2026-03-02T09:00:00.000Z'),
    ended_at: Date.parse('2026-03-02T09:01:01.000Z'),
  });
  await t.host.close();
});
