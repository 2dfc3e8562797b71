/**
 * A short Claude Code session written for the observation tests (never a real transcript): a
 * request with a stated convention and an e-mail address, a failing test run, an edit, the run
 * that passed, and the agent's explanation, `minutesAgo` minutes before now.
 */
export function checkoutSession(root: string, sessionId: string, minutesAgo: number): string {
  let at = Date.now() - minutesAgo * 60_000;
  const line = (type: 'user' | 'assistant', content: unknown) =>
    JSON.stringify({
      type,
      sessionId,
      cwd: root,
      gitBranch: 'main',
      timestamp: new Date((at += 1000)).toISOString(),
      message: { role: type, ...(type === 'assistant' ? { model: 'claude-sonnet-4-5' } : {}), content },
    });
  const tool = (id: string, name: string, input: Record<string, unknown>) => [
    { type: 'tool_use', id, name, input },
  ];
  const result = (id: string, content: string, isError = false) => [
    { type: 'tool_result', tool_use_id: id, content, ...(isError ? { is_error: true } : {}) },
  ];
  return `${[
    line(
      'user',
      'The checkout test fails on Safari with Invalid Date. Use dayjs, not moment. Ask dev.lead@example.com if unsure.',
    ),
    line('assistant', [
      { type: 'text', text: 'Running the checkout tests first.' },
      ...tool('b1', 'Bash', { command: 'npm test -- checkout' }),
    ]),
    line('user', result('b1', 'Exit code 1\nFAIL test/checkout.test.ts: Invalid Date', true)),
    line(
      'assistant',
      tool('e1', 'Edit', {
        file_path: `${root}/src/checkout.ts`,
        old_string: 'new Date(text)',
        new_string: 'dayjs.utc(text).toDate()',
      }),
    ),
    line('user', result('e1', 'The file has been updated.')),
    line('assistant', tool('b2', 'Bash', { command: 'TZ=UTC npm test -- checkout' })),
    line('user', result('b2', 'PASS test/checkout.test.ts')),
    line('assistant', [
      {
        type: 'text',
        text: 'The checkout test passes now: Safari parsed the date string as local time, so src/checkout.ts builds it with dayjs.utc.',
      },
    ]),
  ].join('\n')}\n`;
}

/** What a careful model would answer about checkoutSession: two observations, both grounded. */
export const GROUNDED_ANSWER = JSON.stringify({
  observations: [
    {
      kind: 'fix',
      title: 'Safari dates in checkout',
      text: 'The checkout test failed on Safari with Invalid Date; src/checkout.ts now builds the date with dayjs.utc and the checkout test passes.',
      files: ['src/checkout.ts'],
    },
    {
      kind: 'decision',
      title: 'dayjs, not moment',
      text: 'Use dayjs, not moment, for dates in checkout; ask dev.lead@example.com when unsure.',
      files: [],
    },
  ],
});
