/** The session the capture test writes (never a real transcript). */
export const CLAUDE_SESSION_ID = '7d1e0c2a-0000-4000-8000-000000000001';

/** A user turn of a Claude Code transcript (one line of its `.jsonl`). */
export function claudeLine(cwd: string, n: number, text: string): string {
  return JSON.stringify({
    type: 'user',
    uuid: `u-${n}`,
    sessionId: CLAUDE_SESSION_ID,
    cwd,
    gitBranch: 'main',
    timestamp: new Date(Date.parse('2026-03-02T09:00:00Z') + n * 1000).toISOString(),
    message: { role: 'user', content: text },
  });
}

/**
 * An assistant's tool call and the user record with its result: two lines of a Claude Code
 * transcript, `n` and `n + 1` seconds after `start` (by default the session's first turn).
 */
export function claudeToolCall(
  cwd: string,
  n: number,
  name: 'Write' | 'Bash',
  input: Record<string, unknown>,
  result: { error: boolean; text: string },
  start = Date.parse('2026-03-02T09:00:00Z'),
): string {
  const line = (k: number, type: 'user' | 'assistant', content: unknown) =>
    JSON.stringify({
      type,
      uuid: `u-${k}`,
      sessionId: CLAUDE_SESSION_ID,
      cwd,
      gitBranch: 'main',
      timestamp: new Date(start + k * 1000).toISOString(),
      message: { role: type, content },
    });
  const id = `toolu_${n}`;
  return [
    line(n, 'assistant', [{ type: 'tool_use', id, name, input }]),
    line(n + 1, 'user', [
      { type: 'tool_result', tool_use_id: id, is_error: result.error, content: result.text },
    ]),
  ].join('\n');
}
