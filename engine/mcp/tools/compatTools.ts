import { z } from 'zod';
import {
  cursorField,
  cursorNumber,
  decodeCursor,
  DEFAULT_BUDGET,
  encodeCursor,
  fitToBudget,
} from '../budget';
import type { GraphPage } from '../methods/graphMethods';
import { defineTool, READ_ONLY } from '../toolDefinition';
import type { ToolContext, ToolDefinition } from '../toolDefinition';
import { queryField } from './fields';

/**
 * The nine tools of the official MCP memory server, with its input shapes and result shapes, over
 * Engram's entity graph (see methods/knowledgeGraph.ts for the mapping). Only additions: an
 * optional cursor, and a nextCursor when a graph read did not fit the token budget.
 */
const COMPAT = ['full', 'compat'] as const;

const entity = z.object({
  name: z.string().min(1).max(400).describe('The name of the entity'),
  entityType: z.string().min(1).max(200).describe('The type of the entity'),
  observations: z
    .array(z.string().min(1).max(32_768))
    .max(1000)
    .describe('An array of observation contents associated with the entity'),
});
const relation = z.object({
  from: z.string().min(1).max(400).describe('The name of the entity where the relation starts'),
  to: z.string().min(1).max(400).describe('The name of the entity where the relation ends'),
  relationType: z.string().min(1).max(200).describe('The type of the relation'),
});
const graphOutput = z.object({
  entities: z.array(entity),
  relations: z.array(relation),
  nextCursor: z.string().nullable().optional(),
});
const doneOutput = z.object({ success: z.boolean(), message: z.string() });
const json = (value: unknown) => JSON.stringify(value, null, 2);
const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: true };
const DELETE = { readOnlyHint: false, destructiveHint: true, idempotentHint: true };

/** Reads one page of the graph and fits its entities (and the relations they start) to the budget. */
async function graphPage(
  tool: string,
  context: ToolContext,
  params: Record<string, unknown>,
  cursor: string | undefined,
) {
  const offset = cursorNumber(tool, decodeCursor(tool, cursor), 'o', 0);
  const page = (await context.call('graphRead', { ...params, offset, limit: 100 })) as GraphPage;
  const entities = fitToBudget(page.entities, Math.floor(DEFAULT_BUDGET * 0.75), (e) => ({
    ...e,
    observations: e.observations.slice(0, 5),
  }));
  const names = new Set(entities.items.map((e) => e.name));
  const relations = page.relations.filter((r) => names.has(r.from));
  const shown = offset + entities.taken;
  const nextCursor = shown < page.total ? encodeCursor(tool, { o: shown }) : null;
  const structured = { entities: entities.items, relations, nextCursor };
  return { structured, text: json(structured) };
}

export const COMPAT_TOOLS: ToolDefinition[] = [
  defineTool({
    name: 'create_entities',
    title: 'Create Entities',
    description: 'Create multiple new entities in the knowledge graph',
    group: 'compat',
    profiles: COMPAT,
    hints: WRITE,
    input: z.object({ entities: z.array(entity).max(1000) }),
    output: z.object({ entities: z.array(entity) }),
    async run(args, context) {
      const result = (await context.call('graphCreateEntities', args)) as {
        entities: z.infer<typeof entity>[];
      };
      return { structured: result, text: json(result.entities) };
    },
  }),
  defineTool({
    name: 'create_relations',
    title: 'Create Relations',
    description:
      'Create multiple new relations between entities in the knowledge graph. Relations should be in active voice',
    group: 'compat',
    profiles: COMPAT,
    hints: WRITE,
    input: z.object({ relations: z.array(relation).max(1000) }),
    output: z.object({ relations: z.array(relation) }),
    async run(args, context) {
      const result = (await context.call('graphCreateRelations', args)) as {
        relations: z.infer<typeof relation>[];
      };
      return { structured: result, text: json(result.relations) };
    },
  }),
  defineTool({
    name: 'add_observations',
    title: 'Add Observations',
    description: 'Add new observations to existing entities in the knowledge graph',
    group: 'compat',
    profiles: COMPAT,
    hints: WRITE,
    input: z.object({
      observations: z
        .array(
          z.object({
            entityName: z
              .string()
              .min(1)
              .max(400)
              .describe('The name of the entity to add the observations to'),
            contents: z
              .array(z.string().min(1).max(32_768))
              .max(1000)
              .describe('An array of observation contents to add'),
          }),
        )
        .max(1000),
    }),
    output: z.object({
      results: z.array(z.object({ entityName: z.string(), addedObservations: z.array(z.string()) })),
    }),
    async run(args, context) {
      const result = (await context.call('graphAddObservations', args)) as {
        results: Array<{ entityName: string; addedObservations: string[] }>;
      };
      return { structured: result, text: json(result.results) };
    },
  }),
  defineTool({
    name: 'delete_entities',
    title: 'Delete Entities',
    description:
      'Delete multiple entities and their associated relations from the knowledge graph (their observations are forgotten, recoverable with memory_restore)',
    group: 'compat',
    profiles: COMPAT,
    hints: DELETE,
    input: z.object({
      entityNames: z
        .array(z.string().min(1).max(400))
        .max(1000)
        .describe('An array of entity names to delete'),
    }),
    output: doneOutput,
    async run(args, context) {
      await context.call('graphDelete', args);
      return {
        structured: { success: true, message: 'Entities deleted successfully' },
        text: 'Entities deleted successfully',
      };
    },
  }),
  defineTool({
    name: 'delete_observations',
    title: 'Delete Observations',
    description: 'Delete specific observations from entities in the knowledge graph',
    group: 'compat',
    profiles: COMPAT,
    hints: DELETE,
    input: z.object({
      deletions: z
        .array(
          z.object({
            entityName: z
              .string()
              .min(1)
              .max(400)
              .describe('The name of the entity containing the observations'),
            observations: z
              .array(z.string().min(1).max(32_768))
              .max(1000)
              .describe('An array of observations to delete'),
          }),
        )
        .max(1000),
    }),
    output: doneOutput,
    async run(args, context) {
      await context.call('graphDelete', args);
      return {
        structured: { success: true, message: 'Observations deleted successfully' },
        text: 'Observations deleted successfully',
      };
    },
  }),
  defineTool({
    name: 'delete_relations',
    title: 'Delete Relations',
    description: 'Delete multiple relations from the knowledge graph',
    group: 'compat',
    profiles: COMPAT,
    hints: DELETE,
    input: z.object({ relations: z.array(relation).max(1000).describe('An array of relations to delete') }),
    output: doneOutput,
    async run(args, context) {
      await context.call('graphDelete', args);
      return {
        structured: { success: true, message: 'Relations deleted successfully' },
        text: 'Relations deleted successfully',
      };
    },
  }),
  defineTool({
    name: 'read_graph',
    title: 'Read Graph',
    description:
      'Read the entire knowledge graph (a page within the token budget; pass nextCursor as cursor for more)',
    group: 'compat',
    profiles: COMPAT,
    hints: READ_ONLY,
    input: z.object({ cursor: cursorField }),
    output: graphOutput,
    run: ({ cursor }, context) => graphPage('read_graph', context, {}, cursor),
  }),
  defineTool({
    name: 'search_nodes',
    title: 'Search Nodes',
    description: 'Search for nodes in the knowledge graph based on a query',
    group: 'compat',
    profiles: COMPAT,
    hints: READ_ONLY,
    input: z.object({
      query: queryField.describe(
        'The search query to match against entity names, types, and observation content',
      ),
      cursor: cursorField,
    }),
    output: graphOutput,
    run: ({ query, cursor }, context) => graphPage('search_nodes', context, { query }, cursor),
  }),
  defineTool({
    name: 'open_nodes',
    title: 'Open Nodes',
    description: 'Open specific nodes in the knowledge graph by their names',
    group: 'compat',
    profiles: COMPAT,
    hints: READ_ONLY,
    input: z.object({
      names: z.array(z.string().min(1).max(400)).max(1000).describe('An array of entity names to retrieve'),
      cursor: cursorField,
    }),
    output: graphOutput,
    run: ({ names, cursor }, context) => graphPage('open_nodes', context, { names }, cursor),
  }),
];
