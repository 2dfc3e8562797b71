import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { SourceFile } from '../../engine/capture/workspaceSources';
import type { MemoryStore } from '../../engine/memory/memoryStore';

export const FIXTURES = path.join(__dirname, 'fixtures');
export const SESSION = '5f0c2a4e-1111-4a2b-9c3d-000000000001';
/** The workspace the fixtures' sessions ran in. */
export const SHOP = '/home/dev/shop';

const TABLES: Record<string, string> = {
  capture_sessions: 'SELECT * FROM capture_sessions ORDER BY id',
  capture_turns:
    'SELECT session_id, role, text, thinking, model, at FROM capture_turns ORDER BY session_id, id',
  capture_tool_calls:
    'SELECT session_id, call_id, name, arguments, status, output, exit_code, duration_ms, started_at, ended_at FROM capture_tool_calls ORDER BY session_id, call_id',
  capture_file_touches:
    'SELECT session_id, call_id, path, action, hunks, at FROM capture_file_touches ORDER BY session_id, id',
  capture_commands:
    'SELECT session_id, call_id, command, exit_code, at FROM capture_commands ORDER BY session_id, id',
  capture_records:
    'SELECT source, offset, length, content_hash, session_id, status, raw FROM capture_records ORDER BY source, offset',
};

/** Every capture row without the columns that depend on when or in which order it was written. */
export function dumpCapture(store: MemoryStore): Record<string, unknown[]> {
  // Files are compared by name: two runs of a test read copies in different temp directories.
  const named = (row: Record<string, unknown>) =>
    typeof row['source'] === 'string' ? { ...row, source: path.basename(row['source']) } : row;
  return store.read((r) =>
    Object.fromEntries(Object.entries(TABLES).map(([name, sql]) => [name, r.all(sql).map(named)])),
  );
}

/** A fixture copied into `dir` under `name`. */
export function copyFixture(fixture: string, dir: string, name = path.basename(fixture)): string {
  mkdirSync(dir, { recursive: true });
  const target = path.join(dir, name);
  copyFileSync(path.join(FIXTURES, fixture), target);
  return target;
}

/** The fixtures of the file formats read from their start (Claude Code with a sub-agent, Codex, Aider, Gemini CLI), copied into `dir`. */
export function fileFixtures(dir: string): SourceFile[] {
  return [
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
}
