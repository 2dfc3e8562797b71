import { z } from 'zod';
import { ID_PARAMS } from '../../api/memoryParams';
import { consolidateWithModel } from '../../lifecycle/summariser';
import type { SummaryOrigin } from '../../lifecycle/modelSummaries';
import { defineTool, READ_ONLY } from '../toolDefinition';
import type { ToolDefinition } from '../toolDefinition';

/** A consolidated summary's origin (engine/lifecycle/modelSummaries.ts). */
const ORIGIN = z.object({
  by: z.enum(['model', 'extractive']),
  model: z.string().optional(),
  reason: z.string().optional(),
});

const explainTool = defineTool({
  name: 'memory_explain',
  title: 'Explain a memory',
  description:
    "Why a memory is kept or would be archived: its retention (trust-weighted forgetting curve), its importance as weighted factors (base, recalls, recency, entity links, source trust, stability, layer, confirmations), and the archive rule's conditions it does not meet.",
  group: 'memory',
  profiles: ['full'],
  hints: READ_ONLY,
  input: () => ID_PARAMS.pick({ id: true }),
  output: () =>
    z.object({
      memoryId: z.string(),
      layer: z.string(),
      trust: z.string(),
      status: z.string(),
      ageDays: z.number(),
      idleDays: z.number(),
      retention: z.number(),
      importance: z.object({
        score: z.number(),
        factors: z.array(
          z.object({ factor: z.string(), value: z.number(), weight: z.number(), contribution: z.number() }),
        ),
      }),
      archive: z.object({ due: z.boolean(), unmet: z.array(z.string()) }),
      summary: ORIGIN.optional().describe(
        'a consolidated memory: the model that wrote its summary, or why it is extractive',
      ),
    }),
  async run({ id }, context) {
    const facts = await context.call('explain', { id });
    const factors = facts.importance.factors
      .map((f) => `${f.factor} ${f.value} x ${f.weight} = ${f.contribution}`)
      .join('; ');
    const archive = facts.archive.due
      ? 'the archive rule applies: it would be archived by the next lifecycle run'
      : `kept: ${facts.archive.unmet.join('; ')}`;
    return {
      structured: facts,
      text: `${facts.memoryId} (${facts.layer}, ${facts.trust}, ${facts.status}): ${originNote(facts.summary)}retention ${facts.retention} after ${facts.idleDays} idle days; importance ${facts.importance.score} (${factors}); ${archive}`,
    };
  },
});

const dedupTool = defineTool({
  name: 'memory_dedup',
  title: 'Merge restatements',
  description:
    'Find memories that restate each other (embedding similarity >= threshold, default 0.92, and no number, name, path or identifier differing). A dry run (the default) lists the pairs; dryRun false merges each into the more important memory (tags, confirmations and recalls combined; the other is superseded and stays in history).',
  group: 'memory',
  profiles: ['full'],
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  input: () =>
    z.object({
      dryRun: z.boolean().optional().describe('list the pairs only (default true)'),
      threshold: z.number().min(0.5).max(1).optional(),
    }),
  output: () =>
    z.object({
      dryRun: z.boolean(),
      merged: z.number(),
      pairs: z.array(
        z.object({
          keep: z.string(),
          merge: z.string(),
          similarity: z.number(),
          keepExcerpt: z.string(),
          mergeExcerpt: z.string(),
        }),
      ),
    }),
  async run({ dryRun = true, threshold }, context) {
    const result = await context.call('dedup', { dryRun, ...(threshold === undefined ? {} : { threshold }) });
    const lines = result.pairs.map((p) => `${p.merge} -> ${p.keep} (${p.similarity}): ${p.mergeExcerpt}`);
    const head = dryRun
      ? `${result.pairs.length} pairs would merge (dry run)`
      : `merged ${result.merged} restatements`;
    return { structured: result, text: [head, ...lines].join('\n') };
  },
});

const consolidateTool = defineTool({
  name: 'memory_consolidate',
  title: 'Consolidate memories',
  description:
    'Clusters of working and episodic memories that proved relevant (importance >= 0.5, recalled twice) and share entities become one semantic summary each; the members are superseded by it (still in history). A dry run (the default) lists the clusters.',
  group: 'memory',
  profiles: ['full'],
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  input: () =>
    z.object({
      dryRun: z.boolean().optional().describe('list the clusters only (default true)'),
      summaries: z
        .enum(['extractive', 'model'])
        .optional()
        .describe(
          "extractive (default): the members' own sentences; model: a language model writes each summary (the endpoint in ENGRAM_SUMMARY_URL, else this client's through sampling), marked model-written, the extractive one kept when it fails",
        ),
    }),
  output: () =>
    z.object({
      dryRun: z.boolean(),
      created: z.array(z.string()),
      clusters: z.array(
        z.object({
          members: z.array(z.string()),
          entities: z.array(z.string()),
          summary: z.string(),
          importance: z.number(),
          confidence: z.number(),
          origin: ORIGIN.optional().describe(
            'with summaries: model, the model that wrote it, or why the extractive summary was kept',
          ),
        }),
      ),
    }),
  async run({ dryRun = true, summaries = 'extractive' }, context) {
    const result =
      summaries === 'model' && !dryRun
        ? await consolidateWithModel((params) => context.call('consolidate', params), context.summariser())
        : await context.call('consolidate', { dryRun });
    const lines = result.clusters.map(
      (c) => `${c.members.length} memories -> ${originNote(c.origin)}${c.summary}`,
    );
    const head = dryRun
      ? `${result.clusters.length} clusters (dry run)`
      : `created ${result.created.length} memories`;
    return { structured: result, text: [head, ...lines].join('\n') };
  },
});

function originNote(origin: SummaryOrigin | undefined): string {
  if (!origin) return '';
  return origin.by === 'model' ? `(written by ${origin.model}) ` : `(extractive: ${origin.reason}) `;
}

export const LIFECYCLE_TOOLS: ToolDefinition[] = [explainTool, dedupTool, consolidateTool];
