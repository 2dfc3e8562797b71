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
