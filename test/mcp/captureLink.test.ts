import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { LINKED_SESSION, linkedWorkspace } from '../capture/linkedWorkspace';
import { tokenCount } from '../../engine/retrieval/tokenCount';
import { connectBridge } from './inProcessBridge';

const textOf = (contents: ReadonlyArray<object>) =>
  contents.map((c) => ('text' in c && typeof c.text === 'string' ? c.text : '')).join('');

test('over MCP: code_why, the session and file-history resources, and the prime and recap prompts', async () => {
  const { root, fix } = await linkedWorkspace();
  const bridge = await connectBridge(root);
  try {
    const why = (await bridge.client.callTool({
      name: 'code_why',
      arguments: { target: 'src/dates.ts:3' },
    })) as CallToolResult;
    assert.ok(!why.isError, JSON.stringify(why.content));
    const answer = why.structuredContent as {
      commit: { sha: string };
      via: string;
      sessions: Array<{
        id: string;
        decisions: Array<{ content: string }>;
        commits: Array<{ sha: string; lines: number }>;
      }>;
    };
    assert.equal(answer.commit.sha, fix);
    assert.equal(answer.via, 'commit');
    assert.equal(answer.sessions[0]?.id, LINKED_SESSION);
    assert.deepEqual(
      answer.sessions[0]?.decisions.map((d) => d.content),
      ['Use the Gregorian rule, not the Julian one.'],
    );
    assert.deepEqual(
      answer.sessions[0]?.commits.map((c) => [c.sha, c.lines]),
      [[fix, 2]],
    );
    assert.match(textOf(why.content), /last changed in \w{7} "Fix leap years for centuries"/);

    const { resourceTemplates } = await bridge.client.listResourceTemplates();
    assert.ok(resourceTemplates.some((t) => t.uriTemplate === 'session://{id}/transcript'));
    assert.ok(resourceTemplates.some((t) => t.uriTemplate === 'file-history://{path}'));
    const transcript = JSON.parse(
      textOf(
        (await bridge.client.readResource({ uri: `session://${LINKED_SESSION.slice(0, 8)}/transcript` }))
          .contents,
      ),
    ) as {
      session: { id: string; branch: string };
      turns: Array<{ role: string; text: string; tools?: string[] }>;
      more: boolean;
    };
    assert.equal(transcript.session.id, LINKED_SESSION, 'a unique prefix names the session');
    assert.equal(transcript.session.branch, 'fix/leap');
    assert.equal(
      transcript.turns[0]?.text,
      'isLeap is wrong for 1900. Use the Gregorian rule, not the Julian one.',
    );
    assert.deepEqual(transcript.turns[0]?.tools, ['Edit', 'Bash']);
    assert.equal(transcript.more, false);
    await assert.rejects(
      bridge.client.readResource({ uri: 'session://nosuchsession/transcript' }),
      /no captured session/,
    );

    const history = JSON.parse(
      textOf(
        (await bridge.client.readResource({ uri: `file-history://${encodeURIComponent('src/dates.ts')}` }))
          .contents,
      ),
    ) as {
      file: string;
      sessions: Array<{
        sessionId: string;
        actions: string[];
        addedLines: number;
        commits: Array<{ sha: string }>;
      }>;
    };
    assert.equal(history.file, 'src/dates.ts');
    assert.deepEqual(
      history.sessions.map((s) => [s.sessionId, s.actions, s.addedLines, s.commits.map((c) => c.sha)]),
      [[LINKED_SESSION, ['edit'], 3, [fix]]],
    );

    const recap = await bridge.client.getPrompt({ name: 'recap', arguments: { session: LINKED_SESSION } });
    const recapText = recap.messages[0]?.content.type === 'text' ? recap.messages[0].content.text : '';
    assert.match(
      recapText,
      new RegExp(`^Session ${LINKED_SESSION} \\(claude-code, .*, branch fix/leap\\)\\nSummary \\[\\S+\\]: `),
    );
    assert.match(
      recapText,
      /\nStated in it:\n- \[\S+\] decision: Use the Gregorian rule, not the Julian one\.\n/,
    );
    assert.match(
      recapText,
      new RegExp(
        `\\nCommits that carry its edits:\\n- ${fix.slice(0, 7)} Fix leap years for centuries \\(2 lines\\)`,
      ),
    );
    // days still works as before.
    assert.match(
      (await bridge.client.getPrompt({ name: 'recap', arguments: { days: '1' } })).description ?? '',
      /last 1 days/,
    );

    const prime = await bridge.client.getPrompt({ name: 'prime', arguments: {} });
    const primeText = prime.messages[0]?.content.type === 'text' ? prime.messages[0].content.text : '';
    assert.match(primeText, /## Engram: where this project stands \(branch fix\/leap\)/);
    assert.match(primeText, /### Open threads\n- \[\S+\] `npm run build` failed \(exit 2\)/);
    assert.ok(
      tokenCount(primeText) < 3100,
      'the primed block and the task context, 1,500 tokens each at most',
    );
  } finally {
    await bridge.close();
  }
});
