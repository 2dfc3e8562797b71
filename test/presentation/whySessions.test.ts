import assert from 'node:assert/strict';
import { test } from 'node:test';
import { whySessionsMarkdown } from '../../extension/chat/whySessions';

test('/why in chat: the blamed commit, then each session with what was asked, its decisions and commits, escaped', () => {
  const md = whySessionsMarkdown({
    file: 'src/dates.ts',
    line: 2,
    commit: { sha: '9682157aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', subject: 'Fix leap years', committedAt: 0 },
    via: 'commit',
    sessions: [
      {
        id: 's1',
        agent: 'claude-code',
        startedAt: Date.parse('2026-03-02T09:00:00Z'),
        branch: 'fix/leap',
        goal: 'isLeap is wrong for 1900 [see *notes*]',
        summary: null,
        decisions: [{ id: 'm_1', kind: 'decision', content: 'Use the Gregorian rule, not the Julian one.' }],
        commits: [
          {
            sha: '9682157aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
            subject: 'Fix leap years',
            lines: 2,
            committedAt: 0,
          },
        ],
      },
    ],
  });
  assert.equal(
    md,
    'src/dates\\.ts:2 last changed in `9682157` "Fix leap years"; the agent sessions behind it:\n\n' +
      '- claude\\-code session of 2026\\-03\\-02: "isLeap is wrong for 1900 \\[see \\*notes\\*\\]"\n' +
      '  - decision: Use the Gregorian rule, not the Julian one\\.\n' +
      '  - commit `9682157` "Fix leap years" \\(2 lines\\)\n\n',
  );
});
