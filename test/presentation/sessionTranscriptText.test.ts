import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sessionTranscriptText } from '../../extension/capture/sessionTranscriptText';

test('a transcript reads as Markdown: the session, each turn with its tools, and what was left out', () => {
  const at = Date.parse('2026-03-02T09:00:00Z');
  const text = sessionTranscriptText({
    session: {
      id: 's1',
      agent: 'codex',
      model: 'gpt-5',
      branch: 'main',
      startedAt: at,
      endedAt: at + 60_000,
    },
    turns: [
      { role: 'user', text: 'Fix the date parser', at },
      { role: 'assistant', text: 'Reading it.', at: at + 1000, tools: ['Read', 'Bash'] },
    ],
    total: 5,
  });
  assert.equal(
    text,
    [
      '# Codex CLI session s1',
      '',
      'branch main · gpt-5 · 2026-03-02 09:00 to 2026-03-02 09:01',
      '',
      '## user · 2026-03-02 09:00',
      '',
      'Fix the date parser',
      '',
      '## assistant · 2026-03-02 09:00',
      '',
      'Reading it.',
      '',
      '_tools: Read, Bash_',
      '',
      '_3 more turns not shown_',
      '',
    ].join('\n'),
  );
});
