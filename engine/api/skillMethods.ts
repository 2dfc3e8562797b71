import { z } from 'zod';
import { viewerOf } from '../memory/visibility';
import { boundedQuery } from '../retrieval/queryLimit';
import { DEFAULT_SKILL_LIMIT, DEFAULT_SKILL_THRESHOLD, selectSkills } from '../retrieval/skillGate';
import { defineMethod, methodParams } from './defineMethod';
import { requiredText, wholeNumber } from './paramFields';

const MAX_SKILLS = 10;
const THRESHOLD = 'must be a number from 0 to 1';

/** `skills` {query, limit?, threshold?}: the procedures for a task, or nothing with the reason. */
export const SKILLS_PARAMS = methodParams({
  query: requiredText.describe('the task, in words'),
  limit: wholeNumber(1, MAX_SKILLS, `must be 1 to ${MAX_SKILLS}`)
    .optional()
    .describe(`at most this many procedures (default ${DEFAULT_SKILL_LIMIT})`),
  threshold: z
    .number(THRESHOLD)
    .min(0, THRESHOLD)
    .max(1, THRESHOLD)
    .optional()
    .describe(
      `confidence a procedure needs: the share of the task's words it covers (default ${DEFAULT_SKILL_THRESHOLD}, calibrated)`,
    ),
});

export const SKILL_METHODS = {
  skills: defineMethod({
    params: SKILLS_PARAMS,
    write: false,
    run: ({ store }, p) =>
      selectSkills(store, {
        query: boundedQuery('query', p.query),
        limit: p.limit,
        threshold: p.threshold,
        noteAccess: p.readOnly !== true,
        viewer: viewerOf(p),
      }),
  }),
};
