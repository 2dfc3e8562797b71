import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { claudeProjectName } from '../../engine/capture/workspaceSources';
import { sinceValue } from '../../engine/bin/captureCommands';
import { engram } from '../cli/engramCli';
import { tempDir } from '../support/temp';
import { FIXTURES, SESSION, SHOP } from './captureDb';
import { openCodeFixture, writeDatabase } from './openCodeStore';

/** A home with this workspace's Claude Code and Codex sessions, one of another folder, and Aider's history. */
function agentHome(): { home: string; root: string; env: Record<string, string> } {
  const home = tempDir();
  const root = path.join(home, 'work', 'shop');
  const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8').replaceAll(SHOP, root);
  const put = (file: string, text: string) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  put(
    path.join(home, '.claude', 'projects', claudeProjectName(root), `${SESSION}.jsonl`),
    fixture('claude-session.jsonl'),
  );
  put(
    path.join(home, '.claude', 'projects', '-elsewhere', 'other.jsonl'),
    `${JSON.stringify({ type: 'user', sessionId: 'other', cwd: '/elsewhere', message: { content: 'not this workspace' } })}\n`,
  );
  put(
    path.join(
      home,
      '.codex',
      'sessions',
      '2026',
      '03',
      '03',
      'rollout-2026-03-03T10-00-00-0199aa00-2222-7000-8000-000000000002.jsonl',
    ),
    fixture('codex-rollout.jsonl'),
  );
  put(path.join(root, '.aider.chat.history.md'), fixture('aider.chat.history.md'));
  const projectHash = createHash('sha256').update(root).digest('hex');
  put(
    path.join(home, '.gemini', 'tmp', 'shop', 'chats', 'session-2026-03-06T08-00-7c1e9d20.jsonl'),
    fixture('gemini-session.jsonl').replace('PROJECT_HASH', projectHash),
  );
  mkdirSync(path.join(root, '.git'));
  return {
    home,
    root,
    env: { HOME: home, CLAUDE_CONFIG_DIR: '', CODEX_HOME: '', GEMINI_CLI_HOME: '', XDG_DATA_HOME: '' },
  };
}

test('capture is off until enabled: run refuses and reads nothing', async () => {
  const { root, env } = agentHome();
  const run = await engram(root, ['capture', 'run'], env);
  assert.equal(run.code, 1);
  assert.equal(run.err, 'engram: capture is off for this workspace: run `engram capture enable` first\n');
  const status = await engram(root, ['capture', 'status'], env);
  assert.match(status.out, /^capture is off for .*\n0 files read, 0 records in the ledger\n/);
});

test('enable, run, run again: this workspace sessions once, no other folder', async () => {
  const { root, env } = agentHome();
  assert.match((await engram(root, ['capture', 'enable'], env)).out, /^capture is on for /);
  const first = await engram(root, ['capture', 'run'], env);
  assert.equal(first.code, 0, first.err);
  assert.match(
    first.out,
    /read 4 session sources of .*: \d+ bytes, 54 records \(49 understood, 3 unknown, 2 malformed, 0 excluded, 0 already stored or purged\), 5 sessions updated, 5 summary memories written/,
  );
  assert.ok(!first.out.includes('elsewhere'));
  const second = await engram(root, ['capture', 'run'], env);
  assert.match(second.out, /0 bytes, 0 records/);
  const status = await engram(root, ['--json', 'capture', 'status'], env);
  const parsed = JSON.parse(status.out) as {
    records: number;
    sessions: Array<{ agent: string; sessions: number }>;
  };
  assert.equal(parsed.records, 54);
  assert.deepEqual(
    parsed.sessions.map((s) => [s.agent, s.sessions]),
    [
      ['aider', 2],
      ['claude-code', 1],
      ['codex', 1],
      ['gemini', 1],
    ],
  );
  const sessions = await engram(root, ['capture', 'sessions', '--agent', 'claude-code'], env);
  assert.equal(
    sessions.out,
    `${SESSION}  claude-code  2026-03-02 09:00  6 turns, 4 tool calls, 1 file changed, 1 failed command  "Fix the flaky date parser test"\n`,
  );
  const listed = await engram(root, ['--json', 'capture', 'sessions', '--limit', '2'], env);
  assert.deepEqual(
    (JSON.parse(listed.out) as Array<{ id: string }>).map((x) => x.id),
    ['7c1e9d20-4444-4b5c-8d6e-000000000004', 'aider-2026-03-05T09:30:00'],
    'the most recent first',
  );
  const badLimit = await engram(root, ['capture', 'sessions', '--limit', '0'], env);
  assert.equal(badLimit.err, 'engram: --limit must be 1 to 1000; got 0\n');
  const only = await engram(root, ['capture', 'run', '--agent', 'cursor'], env);
  assert.equal(only.code, 1);
  assert.equal(
    only.err,
    'engram: --agent must be one of claude-code, codex, aider, gemini, copilot, cline, roo-code, opencode; got "cursor"\n',
  );
});

test("run --agent opencode reads the sessions of this workspace in OpenCode's database, once", async () => {
  const { home, root, env } = agentHome();
  await writeDatabase(path.join(home, '.local', 'share', 'opencode', 'opencode.db'), openCodeFixture(root));
  await engram(root, ['capture', 'enable'], env);
  const first = await engram(root, ['capture', 'run', '--agent', 'opencode'], env);
  assert.equal(first.code, 0, first.err);
  assert.match(
    first.out,
    /read 2 session sources of .*: \d+ bytes, 35 records \(34 understood, 1 unknown, 0 malformed.*, 1 stated convention remembered, 1 lesson remembered/,
  );
  const again = await engram(root, ['capture', 'run', '--agent', 'opencode'], env);
  assert.match(again.out, /0 bytes, 0 records/);
  const sessions = await engram(root, ['capture', 'sessions', '--agent', 'opencode'], env);
  assert.match(
    sessions.out,
    /^ses_3a1f0c2e4ffeQk7n2Lm8Pq4Rs1 {2}opencode {2}.*"Fix the leap-year date parser"\n/,
  );
});

test('purge deletes a session and what was derived from it, says what, and no store file keeps it', async () => {
  const { root, env } = agentHome();
  await engram(root, ['capture', 'enable'], env);
  await engram(root, ['capture', 'run', '--agent', 'claude-code'], env);
  const summaries = await engram(root, ['--json', 'list', '--kind', 'summary'], env);
  const summary = (JSON.parse(summaries.out) as { items: Array<{ id: string; session: string }> }).items[0];
  assert.equal(summary?.session, SESSION);
  const named = (out: string) => (JSON.parse(out) as Array<{ name: string }>).map((e) => e.name);
  assert.ok(named((await engram(root, ['--json', 'entities'], env)).out).includes('src/dates.ts'));
  const neither = await engram(root, ['capture', 'purge'], env);
  assert.equal(neither.code, 1);
  assert.equal(neither.err, 'engram: give --session ID or --before TIME (one of them)\n');
  const unknown = await engram(root, ['capture', 'purge', '--session', 'no-such-session'], env);
  assert.equal(unknown.code, 2);
  assert.equal(unknown.err, 'engram: no captured session "no-such-session"\n');

  const purge = await engram(root, ['capture', 'purge', '--session', SESSION.slice(0, 8)], env);
  assert.equal(purge.code, 0, purge.err);
  assert.equal(
    purge.out,
    `purged 1 session (${SESSION}): 17 records, 6 turns, 4 tool calls, 2 file touches, 2 commands, 2 memories\n`,
  );
  const dir = path.join(root, '.engram');
  for (const file of readdirSync(dir)) {
    const bytes = readFileSync(path.join(dir, file)).toString('latin1');
    assert.ok(!bytes.includes('leap years'), `${file} still holds the purged session`);
  }
  assert.equal(
    (await engram(root, ['history', summary.id], env)).code,
    2,
    'the summary memory is gone, not hidden',
  );
  assert.deepEqual(
    named((await engram(root, ['--json', 'entities'], env)).out),
    [],
    'and the entities only it named',
  );
  // Reading the file again does not bring it back.
  const again = await engram(root, ['capture', 'run', '--agent', 'claude-code'], env);
  assert.match(again.out, /0 records/);
  await engram(root, ['capture', 'run', '--agent', 'codex'], env);
  const before = await engram(root, ['capture', 'purge', '--before', '2026-03-04T00:00:00Z'], env);
  assert.match(before.out, /^purged 1 session \(0199aa00-2222-7000-8000-000000000002\): 17 records/);
});

test('watch reads in rounds and prints a line only for a round that found something', async () => {
  const { root, env, home } = agentHome();
  await engram(root, ['capture', 'enable'], env);
  const file = path.join(home, '.claude', 'projects', claudeProjectName(root), `${SESSION}.jsonl`);
  const whole = readFileSync(file, 'utf8');
  const half = whole.split('\n').slice(0, 8).join('\n') + '\n';
  writeFileSync(file, half);
  const first = await engram(root, ['capture', 'watch', '--agent', 'claude-code', '--runs', '1'], env);
  assert.match(
    first.out,
    /^\S+Z \+8 records in 1 session, 1 summary memory written, 1 stated convention remembered\n$/,
  );
  writeFileSync(file, whole);
  const next = await engram(
    root,
    ['capture', 'watch', '--agent', 'claude-code', '--runs', '2', '--interval', '1'],
    env,
  );
  assert.equal(next.code, 0, next.err);
  assert.match(
    next.out,
    /^\S+Z \+9 records in 1 session, 1 summary memory written\n$/,
    'the quiet second round prints nothing',
  );
  const bad = await engram(root, ['capture', 'watch', '--interval', '0'], env);
  assert.equal(bad.code, 1);
  assert.equal(bad.err, 'engram: --interval must be 1 to 3600 seconds; got 0\n');
});

test('exclude and include: an excluded agent is not read; the list is shown and can be emptied', async () => {
  const { root, env } = agentHome();
  await engram(root, ['capture', 'enable'], env);
  const exclude = await engram(
    root,
    ['capture', 'exclude', '--agent', 'codex,gemini', '--path', 'secrets/'],
    env,
  );
  assert.equal(exclude.code, 0, exclude.err);
  assert.match(exclude.out, /\nexcluded: agent codex, agent gemini, path secrets\/\n/);
  const run = await engram(root, ['capture', 'run'], env);
  assert.match(run.out, /^read 2 session sources/);
  assert.ok(!run.out.includes('codex') && !run.out.includes('gemini'));
  const include = await engram(
    root,
    ['capture', 'include', '--agent', 'codex,gemini', '--path', 'secrets/'],
    env,
  );
  assert.ok(!include.out.includes('excluded:'));
  const bad = await engram(root, ['capture', 'exclude'], env);
  assert.equal(bad.code, 1);
  assert.equal(bad.err, 'engram: give an agent or a path to exclude\n');
});

test('--since takes ISO 8601 or a span back from now; files last written before it are not read', async () => {
  assert.equal(sinceValue('7d', 1_000_000_000_000), 1_000_000_000_000 - 7 * 86_400_000);
  assert.equal(sinceValue('30m', 1_000_000), 1_000_000 - 30 * 60_000);
  assert.equal(sinceValue('2026-01-01', 0), '2026-01-01');
  const { root, env } = agentHome();
  await engram(root, ['capture', 'enable'], env);
  const future = await engram(root, ['capture', 'run', '--since', '2099-01-01T00:00:00Z'], env);
  assert.match(future.out, /^read 0 session sources/);
  const recent = await engram(root, ['capture', 'run', '--since', '1h'], env);
  assert.match(recent.out, /^read 4 session sources/);
});
