import { z } from 'zod';
import type { KgGraph } from '../../knowledgeGraph/graphTypes';
import { defineTool, READ_ONLY } from '../toolDefinition';
import type { ToolDefinition } from '../toolDefinition';

/**
 * The nine tools of the official MCP memory server (@modelcontextprotocol/server-memory) over
 * Engram's compat knowledge graph (engine/knowledgeGraph): the same names, descriptions, hints,
 * input and result shapes, the same answers (test/mcp/compatParity.test.ts runs both side by side).
 * Inputs have no length or count limits and accept empty text, as there; reads return the whole
 * answer. Bounded reads are Engram's own tools' job.
 */
const COMPAT = ['full', 'compat'] as const;

const entity = z.object({
  name: z.string().describe('The name of the entity'),
  entityType: z.string().describe('The type of the entity'),
  observations: z.array(z.string()).describe('An array of observation contents associated with the entity'),
});
const relation = z.object({
  from: z.string().describe('The name of the entity where the relation starts'),
  to: z.string().describe('The name of the entity where the relation ends'),
  relationType: z.string().describe('The type of the relation'),
});
const graphOutput = z.object({ entities: z.array(entity), relations: z.array(relation) });
const doneOutput = z.object({ success: z.boolean(), message: z.string() });
const json = (value: unknown) => JSON.stringify(value, null, 2);
/** The official server's hints: a create repeated adds nothing, but it says idempotentHint false. */
const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false };
const DELETE = { readOnlyHint: false, destructiveHint: true, idempotentHint: true };

function done(message: string) {
  return { structured: { success: true, message }, text: message };
}

function graphResult(graph: KgGraph) {
  return { structured: graph, text: json(graph) };
}

export const COMPAT_TOOLS: ToolDefinition[] = [
  defineTool({
    name: 'create_entities',
    title: 'Create Entities',
    description: 'Create multiple new entities in the knowledge graph',
    group: 'compat',
    profiles: COMPAT,
    hints: WRITE,
    input: z.object({ entities: z.array(entity) }),
    output: z.object({ entities: z.array(entity) }),
    async run(args, context) {
      const result = await context.call('graphCreateEntities', args);
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
    input: z.object({ relations: z.array(relation) }),
    output: z.object({ relations: z.array(relation) }),
    async run(args, context) {
      const result = await context.call('graphCreateRelations', args);
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
      observations: z.array(
        z.object({
          entityName: z.string().describe('The name of the entity to add the observations to'),
          contents: z.array(z.string()).describe('An array of observation contents to add'),
        }),
      ),
    }),
    output: z.object({
      results: z.array(z.object({ entityName: z.string(), addedObservations: z.array(z.string()) })),
    }),
    async run(args, context) {
      const result = await context.call('graphAddObservations', args);
      return { structured: result, text: json(result.results) };
    },
  }),
  defineTool({
    name: 'delete_entities',
    title: 'Delete Entities',
    description: 'Delete multiple entities and their associated relations from the knowledge graph',
    group: 'compat',
    profiles: COMPAT,
    hints: DELETE,
    input: z.object({
      entityNames: z.array(z.string()).describe('An array of entity names to delete'),
    }),
    output: doneOutput,
    async run(args, context) {
      await context.call('graphDelete', args);
      return done('Entities deleted successfully');
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
      deletions: z.array(
        z.object({
          entityName: z.string().describe('The name of the entity containing the observations'),
          observations: z.array(z.string()).describe('An array of observations to delete'),
        }),
      ),
    }),
    output: doneOutput,
    async run(args, context) {
      await context.call('graphDelete', args);
      return done('Observations deleted successfully');
    },
  }),
  defineTool({
    name: 'delete_relations',
    title: 'Delete Relations',
    description: 'Delete multiple relations from the knowledge graph',
    group: 'compat',
    profiles: COMPAT,
    hints: DELETE,
    input: z.object({ relations: z.array(relation).describe('An array of relations to delete') }),
    output: doneOutput,
    async run(args, context) {
      await context.call('graphDelete', args);
      return done('Relations deleted successfully');
    },
  }),
  defineTool({
    name: 'read_graph',
    title: 'Read Graph',
    description: 'Read the entire knowledge graph',
    group: 'compat',
    profiles: COMPAT,
    hints: READ_ONLY,
    input: z.object({}),
    output: graphOutput,
    run: async (_args, context) => graphResult(await context.call('graphRead', {})),
  }),
  defineTool({
    name: 'search_nodes',
    title: 'Search Nodes',
    description: 'Search for nodes in the knowledge graph based on a query',
    group: 'compat',
    profiles: COMPAT,
    hints: READ_ONLY,
    input: z.object({
      query: z
        .string()
        .describe('The search query to match against entity names, types, and observation content'),
    }),
    output: graphOutput,
    run: async ({ query }, context) => graphResult(await context.call('graphRead', { query })),
  }),
  defineTool({
    name: 'open_nodes',
    title: 'Open Nodes',
    description: 'Open specific nodes in the knowledge graph by their names',
    group: 'compat',
    profiles: COMPAT,
    hints: READ_ONLY,
    input: z.object({
      names: z.array(z.string()).describe('An array of entity names to retrieve'),
    }),
    output: graphOutput,
    run: async ({ names }, context) => graphResult(await context.call('graphRead', { names })),
  }),
];
