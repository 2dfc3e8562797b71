import { z } from 'zod';
import { LAYERS } from '../memory/types';
import { CHANNELS } from '../retrieval/channelWeights';
import { MAX_CONTEXT_BUDGET, MIN_CONTEXT_BUDGET } from '../retrieval/contextBuilder';
import { MAX_RECALL_K } from '../retrieval/recall';
import { methodParams } from './defineMethod';
import { requiredText, timeParam } from './paramFields';

/**
 * The parameters of `recall` and `context`, the one place their limits live: the MCP tools pick
 * their fields from these schemas (engine/mcp/tools/memoryReadTools.ts), the CLI and VS Code send
 * them, the dispatcher checks them. Past MAX_QUERY_CHARS a `query` is TOO_LARGE, checked by the
 * method itself (boundedQuery), as every query-taking method does.
 */

const K_LIMIT = `must be 1 to ${MAX_RECALL_K}`;
const BUDGET_LIMIT = `must be a whole number of tokens from ${MIN_CONTEXT_BUDGET} to ${MAX_CONTEXT_BUDGET}`;

const budgetParam = z
  .number()
  .int(BUDGET_LIMIT)
  .min(MIN_CONTEXT_BUDGET, BUDGET_LIMIT)
  .max(MAX_CONTEXT_BUDGET, BUDGET_LIMIT)
  .optional();

export const RECALL_PARAMS = methodParams({
  query: requiredText,
  k: z
    .number()
    .int(K_LIMIT)
    .min(1, K_LIMIT)
    .max(MAX_RECALL_K, K_LIMIT)
    .optional()
    .describe('how many memories at most (default 10)'),
  channels: z.array(z.enum(CHANNELS)).min(1).optional().describe('retrieval channels to use (default all)'),
  layer: z.enum(LAYERS).optional().describe('memory layer'),
  includeInactive: z.boolean().optional().describe('also invalidated and superseded memories'),
  asOf: timeParam.optional(),
  explain: z.boolean().optional().describe('include the recall trace'),
  detail: z
    .boolean()
    .optional()
    .describe(
      'true: in place of a consolidated memory, its superseded members that match; false: consolidated memories only; default: the members that rank above it',
    ),
});

/** `contextLevels` {query?, budget?}: the graduated L0-L3 block (retrieval/contextLevels.ts). */
export const CONTEXT_LEVELS_PARAMS = methodParams({
  query: requiredText.optional().describe('what the search level (L3) looks for; without it, L0-L2 only'),
  budget: budgetParam.describe('token budget of the whole block (default 1500)'),
});

export const CONTEXT_PARAMS = methodParams({
  query: requiredText,
  budget: budgetParam.describe('token budget of the block (default 1500)'),
  conversation: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('skip what this conversation already received (default: this MCP session)'),
  k: RECALL_PARAMS.shape.k,
});
