import { z } from 'zod';
import { SKILLS_PARAMS } from '../../api/skillMethods';
import { memoryLine, memoryView, memoryViewSchema } from '../memoryView';
import { defineTool, READ_ONLY } from '../toolDefinition';
import { queryField } from './fields';

const candidate = {
  memoryId: z.string(),
  score: z.number(),
  confidence: z.number(),
  coverage: z.number(),
  lead: z.number(),
  matched: z.array(z.string()),
};

/** `memory_skills`: the skill gate (retrieval/skillGate.ts) for agents, with its reason either way. */
export const skillsTool = defineTool({
  name: 'memory_skills',
  title: 'Skills for a task',
  description:
    'Procedural memories (how-tos, gotchas) for a task, given only when they are likely to help: a three-stage gate (need: any procedure shares the task\'s words; selection: the best few by relevance; calibration: confidence = share of the task covered x lead over the next candidate, against a threshold calibrated on real queries). decision "skip" returns no skills and says which stage said no and why: then proceed without them.',
  group: 'memory',
  profiles: ['full'],
  hints: READ_ONLY,
  input: () =>
    SKILLS_PARAMS.pick({ limit: true, threshold: true }).extend({
      query: queryField.describe('the task, in words'),
    }),
  output: () =>
    z.object({
      query: z.string(),
      decision: z.enum(['inject', 'skip']),
      stage: z.enum(['need', 'calibration']),
      reason: z.string(),
      threshold: z.number(),
      skills: z.array(z.object({ ...candidate, memory: memoryViewSchema })),
      considered: z.array(z.object(candidate)),
    }),
  async run(args, context) {
    const answer = await context.call('skills', args);
    const skills = answer.skills.map((s) => ({ ...s, memory: memoryView(s.memory) }));
    const lines =
      answer.decision === 'inject'
        ? skills.map((s) => `${memoryLine(s.memory)} (confidence ${s.confidence})`)
        : [];
    return {
      structured: { ...answer, skills },
      text: [`${answer.decision}: ${answer.reason}`, ...lines].join('\n'),
    };
  },
});
