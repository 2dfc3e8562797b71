import { z } from 'zod';
import { CONTEXT_LEVELS_PARAMS } from '../../api/retrievalParams';
import { LEVELS, levelledText } from '../../retrieval/contextLevels';
import { defineTool, READ_ONLY } from '../toolDefinition';
import { queryField } from './fields';

/** `memory_context_levels`: the graduated L0-L3 block (retrieval/contextLevels.ts). */
export const contextLevelsTool = defineTool({
  name: 'memory_context_levels',
  title: 'Graduated context',
  description:
    'A context block in four levels within one token budget, each with its token count: L0 pinned and critical memories, L1 one line per memory layer, L2 a card per well-connected entity (what memory holds about it), L3 the search hits for the query (without a query, L0-L2 only). A level passes what it does not spend to the next. Unlike memory_context it records no injection.',
  group: 'memory',
  profiles: ['full'],
  hints: READ_ONLY,
  input: () =>
    CONTEXT_LEVELS_PARAMS.pick({ budget: true }).extend({
      query: queryField.optional().describe('what the agent is about to work on'),
    }),
  output: () =>
    z.object({
      text: z.string(),
      tokens: z.number(),
      budget: z.number(),
      levels: z.array(
        z.object({
          level: z.enum(LEVELS),
          text: z.string(),
          tokens: z.number(),
          budget: z.number(),
          lines: z.number(),
          omitted: z.number(),
          ids: z.array(z.string()),
        }),
      ),
    }),
  async run(args, context) {
    const block = await context.call('contextLevels', args);
    return { structured: block, text: levelledText(block) };
  },
});
