/**
 * A Claude Code transcript generated for benchmarks and crash tests (never a real session): per
 * turn a prompt with an e-mail address, thinking and a Read call, a 2 KB file as its result, a Bash
 * call carrying a token, and its result (every 7th fails): five records.
 */
export function syntheticClaudeSession(
  turns: number,
  cwd: string,
  sessionId = 'bench',
  startAt = '2026-03-02T09:00:00Z',
): string {
  const lines: string[] = [];
  let t = Date.parse(startAt);
  const line = (type: 'user' | 'assistant', message: Record<string, unknown>) =>
    lines.push(
      JSON.stringify({
        type,
        sessionId,
        cwd,
        gitBranch: 'main',
        timestamp: new Date((t += 1000)).toISOString(),
        message: { role: type, ...(type === 'assistant' ? { model: 'claude-sonnet-4-5' } : {}), ...message },
      }),
    );
  for (let i = 0; i < turns; i++) {
    line('user', {
      content: `Step ${i}: make the parser handle case ${i}; mail qa${i}@example.org if it fails`,
    });
    line('assistant', {
      id: `m${i}`,
      content: [
        { type: 'thinking', thinking: 'Reading the parser. '.repeat(20) },
        { type: 'tool_use', id: `r${i}`, name: 'Read', input: { file_path: `${cwd}/src/p${i % 50}.ts` } },
      ],
      usage: { input_tokens: 100, output_tokens: 50 },
    });
    line('user', {
      content: [{ type: 'tool_result', tool_use_id: `r${i}`, content: 'export const x = 1;\n'.repeat(100) }],
    });
    const command = `API_TOKEN=ghp_${'x9K2'.repeat(9)} npm test -- p${i}`;
    line('assistant', {
      id: `e${i}`,
      content: [{ type: 'tool_use', id: `b${i}`, name: 'Bash', input: { command } }],
    });
    const failed = i % 7 === 0;
    line('user', {
      content: [
        {
          type: 'tool_result',
          tool_use_id: `b${i}`,
          is_error: failed,
          content: failed ? 'Exit code 1\nFAIL' : 'PASS',
        },
      ],
    });
  }
  return lines.join('\n') + '\n';
}
