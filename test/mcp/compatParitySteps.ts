// The steps the compat parity cases are written in (compatParityCases.ts): one builder per tool of
// the official memory server, and the fixture of its tests.
/** One call to both servers: a tool, a resource read, or a list of tools or resources. */
export type ParityStep =
  { tool: string; args?: unknown } | { resource: string } | { list: 'tools' | 'resources' };

export interface ParityCase {
  name: string;
  steps: ParityStep[];
}

export interface Entity {
  name: string;
  entityType: string;
  observations: string[];
}
export interface Relation {
  from: string;
  to: string;
  relationType: string;
}

export const entity = (name: string, entityType: string, ...observations: string[]): Entity => ({
  name,
  entityType,
  observations,
});
export const rel = (from: string, relationType: string, to: string): Relation => ({ from, to, relationType });
export const createEntities = (...entities: unknown[]): ParityStep => ({
  tool: 'create_entities',
  args: { entities },
});
export const createRelations = (...relations: unknown[]): ParityStep => ({
  tool: 'create_relations',
  args: { relations },
});
export const addObservations = (...pairs: Array<[string, string[]]>): ParityStep => ({
  tool: 'add_observations',
  args: { observations: pairs.map(([entityName, contents]) => ({ entityName, contents })) },
});
export const deleteEntities = (...entityNames: string[]): ParityStep => ({
  tool: 'delete_entities',
  args: { entityNames },
});
export const deleteObservations = (...pairs: Array<[string, string[]]>): ParityStep => ({
  tool: 'delete_observations',
  args: { deletions: pairs.map(([entityName, observations]) => ({ entityName, observations })) },
});
export const deleteRelations = (...relations: unknown[]): ParityStep => ({
  tool: 'delete_relations',
  args: { relations },
});
export const readGraph: ParityStep = { tool: 'read_graph', args: {} };
export const search = (query: string): ParityStep => ({ tool: 'search_nodes', args: { query } });
export const open = (...names: string[]): ParityStep => ({ tool: 'open_nodes', args: { names } });
export const raw = (tool: string, args: unknown): ParityStep => ({ tool, args });

/** The fixture of the official tests: two people, a company, who works where and knows whom. */
export const people: ParityStep[] = [
  createEntities(
    entity('Alice', 'person', 'works at Acme Corp', 'likes programming'),
    entity('Bob', 'person', 'works at TechCo'),
    entity('Acme Corp', 'company', 'tech company'),
  ),
  createRelations(rel('Alice', 'works_at', 'Acme Corp'), rel('Alice', 'knows', 'Bob')),
];

export const many = (count: number, prefix: string): Entity[] =>
  Array.from({ length: count }, (_, i) =>
    entity(`${prefix}-${i}`, 'module', `${prefix}-${i} handles part ${i} of the pipeline`),
  );
