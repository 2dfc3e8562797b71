import { z } from 'zod';
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
import { EXPORT_FORMATS, EXPORT_PARAMS } from '../../api/memoryParams';
import { defineTool, READ_ONLY } from '../toolDefinition';
import type { ToolDefinition } from '../toolDefinition';

const exportTool = defineTool({
  name: 'memory_export',
  title: 'Export memories',
  description:
    'Export the memory database as text, a page of lines at a time: jsonl (every field, version, entity and event; importable with `engram import`) or md (active memories, for reading).',
  group: 'memory',
  profiles: ['full'],
  hints: READ_ONLY,
  input: () =>
    EXPORT_PARAMS.pick({ format: true }).extend({
      budget: budgetField,
      cursor: cursorField,
    }),
  output: () =>
    z.object({
      format: z.enum(EXPORT_FORMATS),
      text: z.string(),
      lines: z.number(),
      totalLines: z.number(),
      nextCursor: nextCursorField,
    }),
  async run({ format = 'jsonl', budget = DEFAULT_BUDGET, cursor }, context) {
    const line = cursorNumber('memory_export', decodeCursor('memory_export', cursor), 'l', 0);
    // Without a file the engine answers with the text itself.
    const text = (await context.call('export', { format })).text ?? '';
    const all = text.replace(/\n$/, '').split('\n');
    // Strings cost their JSON-quoted size here; near enough for a page of lines.
    const page = fitToBudget(all.slice(line), budget);
    const next =
      line + page.taken < all.length ? encodeCursor('memory_export', { l: line + page.taken }) : null;
    const body = page.items.join('\n');
    return {
      structured: { format, text: body, lines: page.taken, totalLines: all.length, nextCursor: next },
      text: next
        ? `${body}\n(lines ${line + 1}-${line + page.taken} of ${all.length}; more with cursor ${next})`
        : body,
    };
  },
});

const statsTool = defineTool({
  name: 'memory_stats',
  title: 'Memory statistics',
  description:
    'Counts by layer, status and kind, entities, relations, events, vectors, the database state, and this bridge (host or client, profile).',
  group: 'memory',
  profiles: ['full'],
  hints: READ_ONLY,
  input: () => z.object({}),
  output: () =>
    z.object({
      memories: z.number(),
      versions: z.number(),
      byLayer: z.record(z.string(), z.number()),
      byStatus: z.record(z.string(), z.number()),
      byKind: z.record(z.string(), z.number()),
      entities: z.number(),
      relations: z.number(),
      events: z.number(),
      bridge: z.object({ role: z.string(), profile: z.string(), database: z.string() }),
      engine: z.record(z.string(), z.unknown()),
    }),
  async run(_args, context) {
    const stats = await context.call('stats', {});
    const { memories, versions, byLayer, byStatus, byKind, entities, relations, events, ...engine } = stats;
    const structured = {
      memories,
      versions,
      byLayer,
      byStatus,
      byKind,
      entities,
      relations,
      events,
      bridge: context.bridge,
      engine,
    };
    return {
      structured,
      text: `${memories} memories (${versions} versions), ${entities} entities, ${relations} relations, ${events} events; by layer ${JSON.stringify(byLayer)}; this bridge is the ${context.bridge.role} of ${context.bridge.database} (profile ${context.bridge.profile})`,
    };
  },
});

export const MEMORY_ADMIN_TOOLS: ToolDefinition[] = [exportTool, statsTool];
