import { z } from 'zod';
import { argumentError, invalidParams } from './argumentErrors';
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';
import type { Memory } from '../memory/types';
import type { ToolContext } from './toolDefinition';
import { MAX_QUERY_CHARS } from '../retrieval/queryLimit';
import { tokenCount } from '../retrieval/tokenCount';
import { DEFAULT_BUDGET } from './budget';
import { markedContent } from '../memory/negativeKnowledge';

export const PROMPTS: Prompt[] = [
  {
    name: 'prime',
    title: 'Prime the session',
    description:
      'Start a session with where the project stands (pinned memories, the last sessions, open threads, recent decisions, drift warnings), then what is relevant to the task',
    arguments: [{ name: 'task', description: 'what you are about to work on (optional)', required: false }],
  },
  {
    name: 'recap',
    title: 'Recap',
    description: 'What changed in the project memory recently, or what one captured agent session did',
    arguments: [
      { name: 'days', description: 'how many days back (default 7)', required: false },
      {
        name: 'session',
        description: 'a captured session id (or a unique prefix): recap that session instead',
        required: false,
      },
    ],
  },
  {
    name: 'why',
    title: 'Why is it like this',
    description: 'The decisions and conventions behind a file, symbol or topic',
    arguments: [{ name: 'target', description: 'a file path, symbol or topic', required: true }],
  },
];

/** Prompts that record something: prime marks what it handed out (the injection ledger), as memory_context does. */
export const RECORDING_PROMPTS: ReadonlySet<string> = new Set(['prime']);

const DECISION_KINDS = new Set<Memory['kind']>([
  'decision',
  'preference',
  'negative',
  'error-pattern',
  'procedure',
]);
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Prompt arguments are checked like tool inputs: `task` and `target` are queries, bounded as
 * memory_recall's query is, and refused with the same one-line message.
 */
const ARGUMENTS: Record<string, z.ZodType<Record<string, string | undefined>>> = {
  prime: z.object({ task: z.string().max(MAX_QUERY_CHARS).optional() }),
  recap: z.object({ days: z.string().max(20).optional(), session: z.string().max(200).optional() }),
  why: z.object({ target: z.string().max(MAX_QUERY_CHARS).optional() }),
};

/** The lines, in order, while they fit `budget` tokens (each costs its newline too). */
function linesWithin(lines: readonly string[], budget: number): string[] {
  const kept: string[] = [];
  let left = budget;
  for (const line of lines) {
    left -= tokenCount(line) + 1;
    if (left < 0) break;
    kept.push(line);
  }
  return kept;
}

const userMessage = (description: string, text: string): GetPromptResult => ({
  description,
  messages: [{ role: 'user', content: { type: 'text', text } }],
});

export async function getPrompt(
  name: string,
  args: Record<string, string>,
  context: ToolContext,
): Promise<GetPromptResult> {
  const schema = ARGUMENTS[name];
  if (!schema) throw invalidParams(`name: no prompt named ${JSON.stringify(name.slice(0, 100))}`);
  const parsed = schema.safeParse(args);
  if (!parsed.success) throw argumentError(name, parsed.error);
  return promptFor(name, parsed.data, context);
}

async function promptFor(
  name: string,
  args: Record<string, string | undefined>,
  context: ToolContext,
): Promise<GetPromptResult> {
  if (name === 'prime') {
    // Where the project stands, then what is relevant to the task (the context skips what the
    // primed block already gave this session).
    const primed = await context.call('prime', { budget: 1500 });
    const task = args['task']?.trim() || 'project overview: architecture, conventions, decisions';
    const block = await context.call('context', { query: task, budget: 1500 });
    const parts = [primed.text, block.text].filter((t) => t !== '');
    return userMessage(
      'Project memory for this session',
      `Here is what Engram remembers about this project (memory ids in brackets; recall more with memory_recall):\n\n${parts.join('\n\n') || '(no memories yet)'}`,
    );
  }
  if (name === 'recap' && args['session'] !== undefined) {
    const recap = await context.call('captureRecap', { session: args['session'] });
    const lines = linesWithin(recap.lines, DEFAULT_BUDGET - 100);
    return userMessage(`Recap of session ${recap.session}`, lines.join('\n'));
  }
  if (name === 'recap') {
    const days = args['days'] === undefined ? 7 : Number(args['days']);
    if (!Number.isFinite(days) || days <= 0 || days > 3650)
      throw invalidParams(
        `recap: days: must be a number of days from 1 to 3650; got ${JSON.stringify(args['days'])}`,
      );
    const page = await context.call('events', {
      from: Date.now() - days * DAY_MS,
      limit: 200,
    });
    const all = page.events.map(
      (e) =>
        `- ${new Date(e.at).toISOString()} ${e.type}${e.agent ? ` by ${e.agent}` : ''}${e.content ? `: ${e.content.slice(0, 300)}` : ''}`,
    );
    const lines = linesWithin(all, DEFAULT_BUDGET - 100);
    const partial = page.next !== null || lines.length < all.length;
    return userMessage(
      `Memory changes of the last ${days} days`,
      `What changed in the project memory in the last ${days} days${partial ? ` (the first ${lines.length} changes; memory_timeline pages through the rest)` : ''}:\n\n${lines.join('\n') || '(nothing)'}`,
    );
  }
  if (name === 'why') {
    const target = args['target']?.trim();
    if (!target) throw invalidParams('why: target: required (a file, symbol or topic)');
    const result = await context.call('recall', { query: target, k: 30 });
    const decisions = result.hits.filter((h) => DECISION_KINDS.has(h.memory.kind)).slice(0, 15);
    const lines = decisions.map(
      (h) => `- [${h.memory.id}] ${h.memory.kind}: ${markedContent(h.memory, h.memory.content)}`,
    );
    return userMessage(
      `Decisions behind ${target}`,
      `The decisions and conventions Engram has about ${target}:\n\n${lines.join('\n') || '(none recorded)'}\n\nUse memory_history on an id to see how a decision changed.`,
    );
  }
  throw invalidParams(`name: no prompt named ${JSON.stringify(name.slice(0, 100))}`);
}
