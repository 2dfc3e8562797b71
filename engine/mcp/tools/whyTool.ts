import { z } from 'zod';
import { parseTarget } from '../../capture/link/why';
import { whyLines } from '../../capture/link/whyText';
import { budgetField, DEFAULT_BUDGET, strictlyWithin } from '../budget';
import { defineTool, READ_ONLY } from '../toolDefinition';

const commit = z.object({ sha: z.string(), subject: z.string(), committedAt: z.number() });

/** `code_why`: the engine's `why` (engine/capture/link/why.ts) for agents, within a token budget. */
export const whyTool = defineTool({
  name: 'code_why',
  title: 'Why is this code like this',
  description:
    'Which captured agent sessions shaped a file or one of its lines, what the user asked in them, the decisions they stated, and the commits that carry their edits. Give `file` or `file:line`; with a line, git blame names the commit and the sessions linked to it answer. Needs capture (engram capture run).',
  group: 'code',
  profiles: ['full'],
  // Read-only: it answers from the links of the last capture run and links nothing itself.
  hints: READ_ONLY,
  input: () =>
    z.object({
      target: z.string().min(1).max(1000).describe('a workspace file, or file:line'),
      budget: budgetField,
    }),
  output: () =>
    z.object({
      file: z.string(),
      line: z.number().nullable(),
      commit: commit.nullable(),
      via: z.enum(['commit', 'line', 'file', 'none']),
      sessions: z.array(
        z.object({
          id: z.string(),
          agent: z.string(),
          startedAt: z.number().nullable(),
          branch: z.string().nullable(),
          goal: z.string().nullable(),
          summary: z.object({ id: z.string(), content: z.string() }).nullable(),
          decisions: z.array(z.object({ id: z.string(), kind: z.string(), content: z.string() })),
          commits: z.array(commit.extend({ lines: z.number() })),
        }),
      ),
      sessionsOmitted: z.number(),
    }),
  async run({ target, budget = DEFAULT_BUDGET }, context) {
    const { file, line } = parseTarget(target);
    const answer = await context.call('why', { file, ...(line === undefined ? {} : { line }) });
    // The text repeats the sessions: the structured list gets half the budget.
    const sessions = strictlyWithin(answer.sessions, Math.floor(budget / 2) - 100);
    const shown = { ...answer, sessions };
    const omitted = answer.sessions.length - sessions.length;
    return {
      structured: { ...shown, sessionsOmitted: omitted },
      text: whyLines(shown) + (omitted > 0 ? `\n(${omitted} more sessions with a larger budget)` : ''),
    };
  },
});
