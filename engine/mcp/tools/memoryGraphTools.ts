import { z } from 'zod';
import { RELATED_PARAMS } from '../../api/memoryParams';
import type { Entity } from '../../memory/entityGraph';
import { truncateToTokens } from '../../retrieval/tokenCount';
import {
  budgetField,
  cursorField,
  cursorNumber,
  decodeCursor,
  DEFAULT_BUDGET,
  encodeCursor,
  fitToBudget,
  nextCursorField,
} from '../budget';
import { memoryLine, memoryView, memoryViewSchema, shrinkMemoryView } from '../memoryView';
import { defineTool, READ_ONLY } from '../toolDefinition';
import type { ToolDefinition } from '../toolDefinition';
import { timeField } from './fields';

const entitySchema = z.object({
  name: z.string(),
  type: z.string(),
  aliases: z.array(z.string()),
  memoryCount: z.number(),
});
const entityView = (e: Entity) => ({
  name: e.name,
  type: e.type,
  aliases: e.aliases,
  memoryCount: e.memoryCount,
});

const entitiesTool = defineTool({
  name: 'memory_entities',
  title: 'Look up entities',
  description:
    'Entities (files, symbols, packages, tools, people, services, concepts) named in memories whose name or alias contains the query, most mentioned first.',
  group: 'memory',
  profiles: ['full'],
  hints: READ_ONLY,
  input: () =>
    z.object({
      query: z.string().max(400).optional().describe('part of a name; omit for all'),
      limit: z.number().int().min(1).max(500).optional().describe('at most this many (default 50)'),
      budget: budgetField,
    }),
  output: () => z.object({ entities: z.array(entitySchema), truncated: z.boolean() }),
  async run({ query, limit = 50, budget = DEFAULT_BUDGET }, context) {
    const found = (await context.call('entities', { query, limit })).map(entityView);
    const fitted = fitToBudget(found, budget);
    const lines = fitted.items.map((e) => `${e.name} (${e.type}, ${e.memoryCount} memories)`);
    return {
      structured: { entities: fitted.items, truncated: fitted.taken < found.length },
      text: lines.length ? lines.join('\n') : '(no entities)',
    };
  },
});

const relatedTool = defineTool({
  name: 'memory_related',
  title: 'Related entities and memories',
  description: 'Entities within 1-4 relation hops of an entity, and the memories that mention it.',
  group: 'memory',
  profiles: ['full'],
  hints: READ_ONLY,
  input: () =>
    z.object({
      entity: z.string().min(1).max(400).describe('entity name or alias, e.g. a file path or package'),
      hops: RELATED_PARAMS.shape.hops.describe('how far to walk (default 1)'),
      limit: z.number().int().min(1).max(200).optional().describe('at most this many of each (default 25)'),
      budget: budgetField,
    }),
  output: () =>
    z.object({
      entity: entitySchema,
      related: z.array(entitySchema.extend({ hops: z.number(), score: z.number() })),
      memories: z.array(memoryViewSchema),
      truncated: z.boolean(),
    }),
  async run({ entity, hops, limit, budget = DEFAULT_BUDGET }, context) {
    const result = await context.call('related', { entity, hops, limit });
    const related = fitToBudget(
      result.related.map((e) => ({ ...entityView(e), hops: e.hops, score: e.score })),
      Math.floor(budget / 3),
    );
    const memories = fitToBudget(
      result.memories.map((m) => memoryView(m.memory)),
      budget - Math.floor(budget / 3),
      shrinkMemoryView,
    );
    return {
      structured: {
        entity: entityView(result.entity),
        related: related.items,
        memories: memories.items,
        truncated: related.taken < result.related.length || memories.taken < result.memories.length,
      },
      text: [
        `${result.entity.name} (${result.entity.type}):`,
        ...related.items.map(
          (e) => `  ${e.name} (${e.type}, ${e.hops} hop${e.hops > 1 ? 's' : ''}, ${e.score.toFixed(2)})`,
        ),
        'memories:',
        ...memories.items.map((m) => `  ${memoryLine(m)}`),
      ].join('\n'),
    };
  },
});

const eventSchema = z.object({
  at: z.string(),
  type: z.string(),
  memoryId: z.string().nullable(),
  agent: z.string().nullable(),
  session: z.string().nullable(),
  content: z.string().nullable(),
});

/** Events fetched per page before the budget cuts them. */
const TIMELINE_FETCH = 200;

const timelineTool = defineTool({
  name: 'memory_timeline',
  title: 'Timeline',
  description:
    'What happened to memories in a time range, oldest first: remembered, edited, superseded, invalidated, forgotten, restored, pinned, annotated, imported (reads only when asked for by types).',
  group: 'memory',
  profiles: ['full'],
  hints: READ_ONLY,
  input: () =>
    z.object({
      from: timeField.optional().describe('start of the range (ISO 8601; default: the beginning)'),
      to: timeField.optional().describe('end of the range (ISO 8601; default: now)'),
      types: z
        .array(z.string().min(1).max(40))
        .max(30)
        .optional()
        .describe('only these event types, e.g. ["remember","invalidate"]'),
      memoryId: z.string().min(1).max(200).optional().describe('only the events of this memory'),
      budget: budgetField,
      cursor: cursorField,
    }),
  output: () => z.object({ events: z.array(eventSchema), nextCursor: nextCursorField }),
  async run({ budget = DEFAULT_BUDGET, cursor, ...range }, context) {
    const after = cursorNumber('memory_timeline', decodeCursor('memory_timeline', cursor), 'a', 0);
    const page = await context.call('events', { ...range, after, limit: TIMELINE_FETCH });
    const fitted = fitToBudget(
      page.events.map((e) => ({
        seq: e.seq,
        at: new Date(e.at).toISOString(),
        type: e.type,
        memoryId: e.memoryId,
        agent: e.agent,
        session: e.session,
        content: e.content,
      })),
      budget,
      (e, b) => ({
        ...e,
        content: e.content === null ? null : truncateToTokens(e.content, Math.max(50, b - 100)),
      }),
    );
    const last = fitted.items.at(-1);
    const more = fitted.taken < page.events.length || page.next !== null;
    const next = more && last ? encodeCursor('memory_timeline', { a: last.seq }) : null;
    const events = fitted.items.map(({ seq: _seq, ...event }) => event);
    const lines = events.map(
      (e) =>
        `${e.at} ${e.type}${e.memoryId ? ` [${e.memoryId}]` : ''}${e.agent ? ` by ${e.agent}` : ''}${e.content ? `: ${e.content}` : ''}`,
    );
    return {
      structured: { events, nextCursor: next },
      text: [
        ...(lines.length ? lines : ['(no events in this range)']),
        ...(next ? [`more with cursor ${next}`] : []),
      ].join('\n'),
    };
  },
});

export const MEMORY_GRAPH_TOOLS: ToolDefinition[] = [entitiesTool, relatedTool, timelineTool];
