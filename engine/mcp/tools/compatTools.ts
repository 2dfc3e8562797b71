import { z } from 'zod';
import type { KgGraph } from '../../knowledgeGraph/graphTypes';
import {
  KG_ADD_OBSERVATIONS_PARAMS,
  KG_CREATE_ENTITIES_PARAMS,
  KG_CREATE_RELATIONS_PARAMS,
  KG_DELETIONS,
  KG_ENTITY,
  KG_READ_FIELDS,
  KG_RELATION,
} from '../../api/knowledgeGraphMethods';
import { defineTool, READ_ONLY } from '../toolDefinition';
import type { ToolDefinition } from '../toolDefinition';

/**
 * The nine tools of the official MCP memory server (@modelcontextprotocol/server-memory) over
 * Engram's compat knowledge graph (engine/knowledgeGraph): the same names, descriptions, hints,
 * input and result shapes, the same answers (test/mcp/compatParity.process.test.ts runs both side by side).
 * Inputs are the knowledge-graph methods' own fields (api/knowledgeGraphMethods.ts); they have no length or count limits and accept empty text, as there; reads return the whole
 * answer. Bounded reads are Engram's own tools' job.
 */
const COMPAT = ['full', 'compat'] as const;

const graphOutput = z.object({ entities: z.array(KG_ENTITY), relations: z.array(KG_RELATION) });
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
    input: () => KG_CREATE_ENTITIES_PARAMS.pick({ entities: true }),
    output: () => z.object({ entities: z.array(KG_ENTITY) }),
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
    input: () => KG_CREATE_RELATIONS_PARAMS.pick({ relations: true }),
    output: () => z.object({ relations: z.array(KG_RELATION) }),
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
    input: () => KG_ADD_OBSERVATIONS_PARAMS.pick({ observations: true }),
    output: () =>
      z.object({
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
    input: () => KG_DELETIONS.pick({ entityNames: true }),
    output: () => doneOutput,
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
    input: () => KG_DELETIONS.pick({ deletions: true }),
    output: () => doneOutput,
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
    input: () => KG_DELETIONS.pick({ relations: true }),
    output: () => doneOutput,
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
    input: () => z.object({}),
    output: () => graphOutput,
    run: async (_args, context) => graphResult(await context.call('graphRead', {})),
  }),
  defineTool({
    name: 'search_nodes',
    title: 'Search Nodes',
    description: 'Search for nodes in the knowledge graph based on a query',
    group: 'compat',
    profiles: COMPAT,
    hints: READ_ONLY,
    input: () => KG_READ_FIELDS.pick({ query: true }),
    output: () => graphOutput,
    run: async ({ query }, context) => graphResult(await context.call('graphRead', { query })),
  }),
  defineTool({
    name: 'open_nodes',
    title: 'Open Nodes',
    description: 'Open specific nodes in the knowledge graph by their names',
    group: 'compat',
    profiles: COMPAT,
    hints: READ_ONLY,
    input: () => KG_READ_FIELDS.pick({ names: true }),
    output: () => graphOutput,
    run: async ({ names }, context) => graphResult(await context.call('graphRead', { names })),
  }),
];
