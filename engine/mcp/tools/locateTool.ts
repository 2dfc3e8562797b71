import { z } from 'zod';
import { LOCATE_CHANNELS } from '../../code/search/locate';
import { locateText } from '../../code/search/locateText';
import { MAX_ISSUE_CHARS } from '../../retrieval/queryLimit';
import { budgetField, DEFAULT_BUDGET, jsonTokens, strictlyWithin } from '../budget';
import { defineTool, READ_ONLY } from '../toolDefinition';

const channelRank = z.object({ rank: z.number() });

/** `code_locate`: the engine's `locate` (engine/code/search/locate.ts) for agents, within a token budget. */
export const locateTool = defineTool({
  name: 'code_locate',
  title: 'Where to look',
  description:
    'The workspace files to look at for a question or an issue report (paste it whole, tracebacks included), best first: ranked by the words of the code (paths, symbol names, signatures, docstrings, text), implementation before tests, docs and examples unless the question asks for those. Each file says what matched and its best-matching symbols with lines. Needs code_scan first.',
  group: 'code',
  profiles: ['full'],
  hints: READ_ONLY,
  input: () =>
    z.object({
      query: z.string().min(1).max(MAX_ISSUE_CHARS).describe('the question or the issue text'),
      limit: z.number().int().min(1).max(100).optional().describe('most files (default 10)'),
      budget: budgetField,
    }),
  output: () =>
    z.object({
      files: z.array(
        z.object({
          path: z.string(),
          role: z.string(),
          score: z.number(),
          channels: z.object({
            code: channelRank
              .extend({ score: z.number(), fields: z.record(z.string(), z.number()), prior: z.number() })
              .optional(),
            recall: channelRank.extend({ memories: z.array(z.string()) }).optional(),
            map: channelRank.extend({ score: z.number() }).optional(),
          }),
          symbols: z.array(
            z.object({
              name: z.string(),
              container: z.string().nullable(),
              kind: z.string(),
              line: z.number(),
              endLine: z.number(),
              score: z.number(),
            }),
          ),
        }),
      ),
      /** Files left out to keep the result within the budget. */
      filesOmitted: z.number(),
      trace: z.object({
        rolesAskedFor: z.array(z.string()),
        channels: z.array(
          z.object({
            name: z.enum(LOCATE_CHANNELS),
            weight: z.number(),
            candidates: z.number(),
            ms: z.number(),
          }),
        ),
        indexedFiles: z.number(),
        note: z.string().optional(),
      }),
    }),
  async run({ query, limit = 10, budget = DEFAULT_BUDGET }, context) {
    const result = await context.call('locate', { query, limit });
    // The text repeats the files, one line each: the structured list gets what is left of half.
    const files = strictlyWithin(result.files, Math.floor(budget / 2) - jsonTokens(result.trace) - 20);
    const omitted = result.files.length - files.length;
    return {
      structured: { files, filesOmitted: omitted, trace: result.trace },
      text: [
        locateText({ ...result, files }),
        ...(omitted > 0 ? [`(${omitted} more files with a larger budget)`] : []),
      ].join('\n'),
    };
  },
});
