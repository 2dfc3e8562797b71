import { z } from 'zod';
import type { Annotation } from '../../memory/types';
import { truncateToTokens } from '../../retrieval/tokenCount';
import {
  budgetField,
  cursorField,
  cursorNumber,
  decodeCursor,
  DEFAULT_BUDGET,
  encodeCursor,
  fitToBudget,
  jsonTokens,
  nextCursorField,
} from '../budget';
import { memoryLine, memoryView, memoryViewSchema, shrinkMemoryView } from '../memoryView';
import type { MemoryView } from '../memoryView';
import { CONTEXT_PARAMS, RECALL_PARAMS } from '../../api/retrievalParams';
import { defineTool, READ_ONLY } from '../toolDefinition';
import type { ToolDefinition } from '../toolDefinition';
import { ID_PARAMS, LIST_PARAMS } from '../../api/memoryParams';
import { queryField, timeField } from './fields';

const FULL_AND_CORE = ['full', 'core'] as const;

const annotationSchema = z.object({
  id: z.string(),
  text: z.string(),
  agent: z.string().nullable(),
  createdAt: z.string(),
});
const annotationView = (a: Annotation) => ({
  id: a.id,
  text: a.text,
  agent: a.agent,
  createdAt: new Date(a.createdAt).toISOString(),
});

/** The next page's cursor when `offset + taken` items of `total` have been shown. */
function nextCursor(tool: string, offset: number, taken: number, total: number): string | null {
  return offset + taken < total ? encodeCursor(tool, { o: offset + taken }) : null;
}

const moreLine = (next: string | null, shown: number, total: number) =>
  next === null ? `${shown} of ${total}` : `${shown} of ${total}; more with cursor ${next}`;

/** RecallTrace (retrieval/recall.ts), typed field by field: an untyped `{}` is not portable. */
const traceSchema = z.object({
  intent: z.string(),
  terms: z.array(z.string()),
  entities: z.array(z.string()),
  channels: z.array(
    z.object({ name: z.string(), weight: z.number(), candidates: z.number(), ms: z.number() }),
  ),
  dropped: z.array(z.object({ memoryId: z.string(), reason: z.string(), fused: z.number() })),
  code: z
    .array(
      z.object({
        memoryId: z.string(),
        path: z.string(),
        role: z.string(),
        fields: z.record(z.string(), z.number()),
        prior: z.number(),
        symbols: z.array(z.string()),
      }),
    )
    .optional(),
  totalMs: z.number(),
});

const recallTool = defineTool({
  name: 'memory_recall',
  title: 'Recall',
  description:
    'Find memories relevant to a question (hybrid: keywords, meaning, entity graph). explain adds per-channel ranks and why candidates were dropped; asOf recalls what Engram knew at a past time; a consolidated memory gives its place to its members that match better (detail true: all that match; false: none).',
  group: 'memory',
  profiles: FULL_AND_CORE,
  hints: READ_ONLY,
  // The method's own limits (recall k: 1 to 1000); the query and time as agents write them.
  input: () =>
    RECALL_PARAMS.pick({
      k: true,
      layer: true,
      channels: true,
      explain: true,
      includeInactive: true,
      detail: true,
    }).extend({
      query: queryField.describe('what to look for, in words'),
      asOf: timeField.optional().describe('recall what Engram knew at this time (ISO 8601)'),
      budget: budgetField,
      cursor: cursorField,
    }),
  output: () =>
    z.object({
      query: z.string(),
      hits: z.array(
        z.object({
          memory: memoryViewSchema,
          score: z.number(),
          channels: z.record(z.string(), z.object({ rank: z.number(), score: z.number() })),
        }),
      ),
      total: z.number(),
      trace: traceSchema.optional(),
      nextCursor: nextCursorField,
    }),
  async run({ budget, cursor, ...args }, context) {
    const offset = cursorNumber('memory_recall', decodeCursor('memory_recall', cursor), 'o', 0);
    const result = await context.call('recall', args);
    const hits = result.hits.slice(offset).map((hit) => ({
      memory: memoryView(hit.memory),
      score: hit.score,
      channels: hit.channels,
    }));
    const trace = offset === 0 ? result.trace : undefined;
    const limit = (budget ?? DEFAULT_BUDGET) - (trace ? jsonTokens(trace) : 0);
    const page = fitToBudget(hits, Math.max(200, limit), (hit, b) => ({
      ...hit,
      memory: shrinkMemoryView(hit.memory, b),
    }));
    const next = nextCursor('memory_recall', offset, page.taken, result.hits.length);
    const lines = page.items.map(
      (hit, i) => `${offset + i + 1}. ${memoryLine(hit.memory)} (score ${hit.score.toFixed(3)})`,
    );
    return {
      structured: {
        query: result.query,
        hits: page.items,
        total: result.hits.length,
        ...(trace ? { trace } : {}),
        nextCursor: next,
      },
      text: [
        ...(lines.length ? lines : ['(no memories found)']),
        moreLine(next, offset + page.taken, result.hits.length),
      ].join('\n'),
    };
  },
});

const contextTool = defineTool({
  name: 'memory_context',
  title: 'Context block',
  description:
    'The memory block to put into a prompt: pinned and critical memories first, then the ones relevant to the query, within a token budget, skipping what this conversation already received.',
  group: 'memory',
  profiles: FULL_AND_CORE,
  // Records what was handed out (the injection ledger), so a repeat skips it.
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  // The method's own limits (budget: 50 to 200,000 tokens).
  input: () =>
    CONTEXT_PARAMS.pick({ budget: true, conversation: true }).extend({
      query: queryField.describe('what the agent is about to work on'),
    }),
  output: () =>
    z.object({
      text: z.string(),
      tokens: z.number(),
      budget: z.number(),
      included: z.array(
        z.object({ id: z.string(), section: z.enum(['pinned', 'relevant']), truncated: z.boolean() }),
      ),
      skipped: z.array(z.object({ id: z.string(), reason: z.enum(['already injected', 'over budget']) })),
    }),
  async run(args, context) {
    const block = await context.call('context', args);
    return {
      structured: block,
      text: `${block.text || '(no memories)'}\n\n(${block.tokens} of ${block.budget} tokens; ${block.skipped.length} skipped)`,
    };
  },
});

const fullMemorySchema = memoryViewSchema.extend({
  context: z.string().nullable(),
  trust: z.string(),
  session: z.string().nullable(),
  source: z.record(z.string(), z.unknown()).nullable(),
  accessCount: z.number(),
  confirmations: z.number(),
});

const getTool = defineTool({
  name: 'memory_get',
  title: 'Get memory',
  description: 'One memory with every field and its notes.',
  group: 'memory',
  profiles: FULL_AND_CORE,
  hints: READ_ONLY,
  input: () => ID_PARAMS.pick({ id: true }).extend({ budget: budgetField }),
  output: () =>
    z.object({
      memory: fullMemorySchema,
      annotations: z.array(annotationSchema),
      truncated: z.boolean(),
    }),
  async run({ id, budget = DEFAULT_BUDGET }, context) {
    const { memory, annotations } = await context.call('get', { id });
    let full: z.input<typeof fullMemorySchema> = {
      ...memoryView(memory),
      context: memory.context,
      trust: memory.trust,
      session: memory.session,
      source: memory.source as Record<string, unknown> | null,
      accessCount: memory.accessCount,
      confirmations: memory.confirmations,
    };
    let truncated = false;
    if (jsonTokens(full) > budget) {
      // The source context is the bulk of a large memory: cut it first, then the content.
      const contextText =
        full.context === null ? null : truncateToTokens(full.context, Math.floor(budget / 2));
      full = {
        ...full,
        context: contextText,
        content: truncateToTokens(full.content, Math.floor(budget / 3)),
      };
      truncated = true;
    }
    const notes = fitToBudget(
      annotations.map(annotationView).reverse(),
      Math.max(0, budget - jsonTokens(full)),
    );
    truncated ||= notes.taken < annotations.length;
    const noteLines = notes.items.map((a) => `note ${a.createdAt}: ${a.text}`);
    return {
      structured: { memory: full, annotations: notes.items, truncated },
      text: [memoryLine(full), ...(full.context ? [`context: ${full.context}`] : []), ...noteLines].join(
        '\n',
      ),
    };
  },
});

const listTool = defineTool({
  name: 'memory_list',
  title: 'List memories',
  description:
    'List memories, newest first, filtered by layer, kind, status, tag, agent or pinned; paginated with a cursor.',
  group: 'memory',
  profiles: FULL_AND_CORE,
  hints: READ_ONLY,
  input: () =>
    LIST_PARAMS.pick({ layer: true, kind: true, status: true, pinned: true }).extend({
      tag: z.string().min(1).max(100).optional(),
      agent: z.string().min(1).max(200).optional(),
      limit: z.number().int().min(1).max(500).optional().describe('most memories per page (default 50)'),
      budget: budgetField,
      cursor: cursorField,
    }),
  output: () =>
    z.object({ memories: z.array(memoryViewSchema), total: z.number(), nextCursor: nextCursorField }),
  async run({ budget = DEFAULT_BUDGET, cursor, limit = 50, ...filters }, context) {
    const offset = cursorNumber('memory_list', decodeCursor('memory_list', cursor), 'o', 0);
    const page = await context.call('list', { ...filters, limit, offset });
    const fitted = fitToBudget(page.items.map(memoryView), budget, shrinkMemoryView);
    const next = nextCursor('memory_list', offset, fitted.taken, page.total);
    return {
      structured: { memories: fitted.items, total: page.total, nextCursor: next },
      text: [...fitted.items.map(memoryLine), moreLine(next, offset + fitted.taken, page.total)].join('\n'),
    };
  },
});

const historyTool = defineTool({
  name: 'memory_history',
  title: 'Memory history',
  description: 'Every version of a memory (edits, invalidation, supersession) and its notes, oldest first.',
  group: 'memory',
  profiles: ['full'],
  hints: READ_ONLY,
  input: () => ID_PARAMS.pick({ id: true }).extend({ budget: budgetField, cursor: cursorField }),
  output: () =>
    z.object({
      versions: z.array(memoryViewSchema.extend({ change: z.string() })),
      annotations: z.array(annotationSchema),
      nextCursor: nextCursorField,
    }),
  async run({ id, budget = DEFAULT_BUDGET, cursor }, context) {
    const offset = cursorNumber('memory_history', decodeCursor('memory_history', cursor), 'o', 0);
    const result = await context.call('history', { id });
    const versions = result.versions.slice(offset).map((v) => ({ ...memoryView(v), change: v.change }));
    const fitted = fitToBudget(versions, budget, (v, b) => ({ ...v, ...shrinkMemoryView(v, b) }));
    const next = nextCursor('memory_history', offset, fitted.taken, result.versions.length);
    // Notes come with the first page only, within what the versions left of the budget.
    const notes =
      offset === 0
        ? fitToBudget(result.annotations.map(annotationView), Math.max(0, budget - jsonTokens(fitted.items)))
            .items
        : [];
    const lines = fitted.items.map(
      (v: MemoryView & { change: string }) => `v${v.version} ${v.recordedAt} ${v.change}: ${v.content}`,
    );
    return {
      structured: { versions: fitted.items, annotations: notes, nextCursor: next },
      text: [
        ...lines,
        ...notes.map((a) => `note ${a.createdAt}: ${a.text}`),
        moreLine(next, offset + fitted.taken, result.versions.length),
      ].join('\n'),
    };
  },
});

export const MEMORY_READ_TOOLS: ToolDefinition[] = [recallTool, contextTool, getTool, listTool, historyTool];
