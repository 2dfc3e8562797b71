/**
 * The parity cases for the compat profile: each is a sequence of calls that the official MCP
 * memory server (the oracle) and Engram must answer the same way, step by step. Written from the
 * official server's published behaviour (its README, its tests and its source in
 * modelcontextprotocol/servers, src/memory), in our own words. The harness appends a read_graph to
 * every case, so each one also compares the graph it leaves behind.
 */
export type ParityStep =
  { tool: string; args?: unknown } | { resource: string } | { list: 'tools' | 'resources' };

export interface ParityCase {
  name: string;
  steps: ParityStep[];
}

interface Entity {
  name: string;
  entityType: string;
  observations: string[];
}
interface Relation {
  from: string;
  to: string;
  relationType: string;
}

const entity = (name: string, entityType: string, ...observations: string[]): Entity => ({
  name,
  entityType,
  observations,
});
const rel = (from: string, relationType: string, to: string): Relation => ({ from, to, relationType });
const createEntities = (...entities: unknown[]): ParityStep => ({
  tool: 'create_entities',
  args: { entities },
});
const createRelations = (...relations: unknown[]): ParityStep => ({
  tool: 'create_relations',
  args: { relations },
});
const addObservations = (...pairs: Array<[string, string[]]>): ParityStep => ({
  tool: 'add_observations',
  args: { observations: pairs.map(([entityName, contents]) => ({ entityName, contents })) },
});
const deleteEntities = (...entityNames: string[]): ParityStep => ({
  tool: 'delete_entities',
  args: { entityNames },
});
const deleteObservations = (...pairs: Array<[string, string[]]>): ParityStep => ({
  tool: 'delete_observations',
  args: { deletions: pairs.map(([entityName, observations]) => ({ entityName, observations })) },
});
const deleteRelations = (...relations: unknown[]): ParityStep => ({
  tool: 'delete_relations',
  args: { relations },
});
const readGraph: ParityStep = { tool: 'read_graph', args: {} };
const search = (query: string): ParityStep => ({ tool: 'search_nodes', args: { query } });
const open = (...names: string[]): ParityStep => ({ tool: 'open_nodes', args: { names } });
const raw = (tool: string, args: unknown): ParityStep => ({ tool, args });

/** The fixture of the official tests: two people, a company, who works where and knows whom. */
const people: ParityStep[] = [
  createEntities(
    entity('Alice', 'person', 'works at Acme Corp', 'likes programming'),
    entity('Bob', 'person', 'works at TechCo'),
    entity('Acme Corp', 'company', 'tech company'),
  ),
  createRelations(rel('Alice', 'works_at', 'Acme Corp'), rel('Alice', 'knows', 'Bob')),
];

const many = (count: number, prefix: string): Entity[] =>
  Array.from({ length: count }, (_, i) =>
    entity(`${prefix}-${i}`, 'module', `${prefix}-${i} handles part ${i} of the pipeline`),
  );

const createCases: ParityCase[] = [
  { name: 'create one entity', steps: [createEntities(entity('Alice', 'person', 'likes tea'))] },
  {
    name: 'create two entities keeps their order',
    steps: [createEntities(entity('Zed', 'person'), entity('Amy', 'person', 'a', 'b'))],
  },
  { name: 'create an empty list', steps: [createEntities()] },
  {
    name: 'create an existing name again returns nothing new',
    steps: [createEntities(entity('Alice', 'person', 'x')), createEntities(entity('Alice', 'person', 'y'))],
  },
  {
    name: 'create an existing name with another type keeps the first type and observations',
    steps: [createEntities(entity('Alice', 'person', 'x')), createEntities(entity('Alice', 'robot', 'y'))],
  },
  {
    name: 'the same name twice in one batch is created twice',
    steps: [createEntities(entity('Twin', 'a', 'one'), entity('Twin', 'b', 'two'))],
  },
  {
    name: 'a batch mixing new and existing names creates only the new',
    steps: [
      createEntities(entity('Old', 't', 'o')),
      createEntities(entity('New1', 't'), entity('Old', 't', 'p'), entity('New2', 't')),
    ],
  },
  { name: 'create with no observations', steps: [createEntities(entity('Empty', 'thing'))] },
  {
    name: 'create keeps duplicate observations in the list',
    steps: [createEntities(entity('Dup', 'thing', 'same', 'same', 'other'))],
  },
  {
    name: 'names differing only in case are different entities',
    steps: [createEntities(entity('Alice', 'person')), createEntities(entity('alice', 'person'))],
  },
  {
    name: 'names differing only in surrounding spaces are different entities',
    steps: [createEntities(entity('Alice', 'person')), createEntities(entity(' Alice ', 'person'))],
  },
  { name: 'an empty name is accepted', steps: [createEntities(entity('', 'blank', 'nameless'))] },
  { name: 'an empty type is accepted', steps: [createEntities(entity('Untyped', '', 'x'))] },
  { name: 'an empty observation is kept', steps: [createEntities(entity('Quiet', 'thing', ''))] },
  {
    name: 'unicode names, types and observations',
    steps: [
      createEntities(
        entity('Ångström', 'unité', 'longueur 10⁻¹⁰ m'),
        entity('東京', '都市', '日本の首都'),
        entity('🦊 Fox', 'émoji', 'rapide 🦊'),
      ),
    ],
  },
  {
    name: 'create a relation first, then its entities with their observations',
    steps: [
      createRelations(rel('Carol', 'manages', 'Dave')),
      createEntities(entity('Carol', 'person', 'leads the team'), entity('Dave', 'person', 'writes Rust')),
    ],
  },
  {
    name: 'a name that appeared in earlier observation text is still created',
    steps: [
      createEntities(entity('Alice', 'person', 'works at Acme Corp with TechCo')),
      createEntities(entity('Acme Corp', 'company', 'makes anvils'), entity('TechCo', 'company')),
    ],
  },
  {
    name: 'a short name is not resolved to a longer known alias (S3)',
    steps: [
      createEntities(entity('Storage', 'note', 'we keep backups in S3 and Amazon S3 buckets')),
      createEntities(entity('S3', 'service', 'object storage')),
      open('S3'),
    ],
  },
  {
    name: 'no entity is invented from observation text',
    steps: [
      createEntities(
        entity(
          'Alice',
          'person',
          'works at Acme Corp in New York with Bob Smith on Kubernetes and PostgreSQL',
        ),
      ),
    ],
  },
  {
    name: 'unknown fields on an entity are dropped',
    steps: [
      createEntities({ name: 'Extra', entityType: 't', observations: ['o'], colour: 'red', type: 'x' }),
    ],
  },
  { name: 'create 255 entities, read them all back', steps: [createEntities(...many(255, 'mod'))] },
  {
    name: 'an entity with 300 observations keeps them all in order',
    steps: [
      createEntities(entity('Busy', 'thing', ...Array.from({ length: 300 }, (_, i) => `fact number ${i}`))),
    ],
  },
  {
    name: 'a 40,000-character observation',
    steps: [createEntities(entity('Long', 't', 'x'.repeat(40_000)))],
  },
  { name: 'a batch of 1,001 entities', steps: [createEntities(...many(1001, 'bulk'))] },
  {
    name: 'observations with newlines, quotes and backslashes',
    steps: [createEntities(entity('Esc', 't', 'line1\nline2', 'say "hi"', 'C:\\path\\to', '\ttab'))],
  },
  {
    name: 'names with JSON and SQL special characters',
    steps: [createEntities(entity(`O'Brien "the" \\ %_`, 't', `100% of _x_`))],
  },
  {
    name: 'create_entities without a name is an error',
    steps: [createEntities({ entityType: 't', observations: [] })],
  },
  {
    name: 'create_entities without a type is an error',
    steps: [createEntities({ name: 'n', observations: [] })],
  },
  {
    name: 'create_entities with observations not a list is an error',
    steps: [createEntities({ name: 'n', entityType: 't', observations: 'oops' })],
  },
  { name: 'create_entities without entities is an error', steps: [raw('create_entities', {})] },
  {
    name: 'create_entities with a number for a name is an error and writes nothing',
    steps: [createEntities(entity('Fine', 't'), { name: 42, entityType: 't', observations: [] })],
  },
  {
    name: 'create_entities with a number among the observations is an error',
    steps: [createEntities({ name: 'n', entityType: 't', observations: ['ok', 7] })],
  },
];

const relationCases: ParityCase[] = [
  {
    name: 'create a relation between existing entities',
    steps: [createEntities(entity('A', 't'), entity('B', 't')), createRelations(rel('A', 'likes', 'B'))],
  },
  {
    name: 'an existing relation is not created again',
    steps: [
      createEntities(entity('A', 't'), entity('B', 't')),
      createRelations(rel('A', 'likes', 'B')),
      createRelations(rel('A', 'likes', 'B'), rel('B', 'likes', 'A')),
    ],
  },
  {
    name: 'the same relation twice in one batch is created twice',
    steps: [createRelations(rel('A', 'likes', 'B'), rel('A', 'likes', 'B'))],
  },
  {
    name: 'relations between unknown names create no entities',
    steps: [createRelations(rel('Ghost', 'haunts', 'House')), open('Ghost'), search('haunt')],
  },
  { name: 'create an empty list of relations', steps: [createRelations()] },
  {
    name: 'two relation types between the same pair are both kept',
    steps: [createRelations(rel('A', 'likes', 'B'), rel('A', 'knows', 'B'))],
  },
  {
    name: 'a relation and its reverse are different',
    steps: [createRelations(rel('A', 'likes', 'B'), rel('B', 'likes', 'A'))],
  },
  {
    name: 'a relation from an entity to itself',
    steps: [createEntities(entity('Me', 't')), createRelations(rel('Me', 'is', 'Me'))],
  },
  {
    name: 'relation names are matched exactly (case)',
    steps: [
      createRelations(rel('A', 'likes', 'B')),
      createRelations(rel('a', 'likes', 'b'), rel('A', 'Likes', 'B')),
    ],
  },
  {
    name: 'unknown fields on a relation are dropped',
    steps: [createRelations({ from: 'A', to: 'B', relationType: 'r', weight: 3 })],
  },
  {
    name: 'create_relations without relationType is an error',
    steps: [createRelations({ from: 'A', to: 'B' })],
  },
  {
    name: 'create_relations with relations not a list is an error',
    steps: [raw('create_relations', { relations: 'A->B' })],
  },
  {
    name: 'relations with empty and unicode names',
    steps: [createRelations(rel('', 'is before', 'Ω'), rel('Ω', 'ist größer als', 'ß'))],
  },
];

const observationCases: ParityCase[] = [
  {
    name: 'add observations to an existing entity',
    steps: [createEntities(entity('Alice', 'person', 'one')), addObservations(['Alice', ['two', 'three']])],
  },
  {
    name: 'an observation already there is not added again',
    steps: [createEntities(entity('Alice', 'person', 'one')), addObservations(['Alice', ['one', 'two']])],
  },
  {
    name: 'the same new observation twice in one call is added twice',
    steps: [createEntities(entity('Alice', 'person')), addObservations(['Alice', ['dup', 'dup']])],
  },
  {
    name: 'add to an unknown entity is an error naming it',
    steps: [addObservations(['Nobody', ['x']])],
  },
  {
    name: 'a failed add_observations writes nothing, also for the entities before the unknown one',
    steps: [
      createEntities(entity('Alice', 'person', 'one')),
      addObservations(['Alice', ['two']], ['Nobody', ['x']]),
    ],
  },
  {
    name: 'two requests for one entity in one call: the second sees the first',
    steps: [
      createEntities(entity('Alice', 'person')),
      addObservations(['Alice', ['a', 'b']], ['Alice', ['b', 'c']]),
    ],
  },
  {
    name: 'a whitespace variant of an observation is a new observation',
    steps: [
      createEntities(entity('Alice', 'person', 'likes tea')),
      addObservations(['Alice', [' likes tea', 'likes  tea', 'Likes tea']]),
    ],
  },
  {
    name: 'add to a name differing in case is an error',
    steps: [createEntities(entity('Alice', 'person')), addObservations(['alice', ['x']])],
  },
  {
    name: 'add an empty list of contents',
    steps: [createEntities(entity('Alice', 'person')), addObservations(['Alice', []])],
  },
  {
    name: 'add an empty observation',
    steps: [createEntities(entity('Alice', 'person')), addObservations(['Alice', ['']])],
  },
  {
    name: 'add to the short name, not its longer alias (S3)',
    steps: [
      createEntities(entity('Amazon S3', 'service', 'object storage'), entity('S3', 'service')),
      addObservations(['S3', ['the short name']]),
      open('S3', 'Amazon S3'),
    ],
  },
  {
    name: 'observations keep the order they were added in',
    steps: [
      createEntities(entity('Log', 't', 'first')),
      addObservations(['Log', ['second', 'third']]),
      addObservations(['Log', ['fourth']]),
      addObservations(['Log', ['fifth', 'first', 'sixth']]),
    ],
  },
  {
    name: 'add to a name created twice goes to the first of them',
    steps: [
      createEntities(entity('Twin', 'a', 'one'), entity('Twin', 'b', 'two')),
      addObservations(['Twin', ['more']]),
    ],
  },
  {
    name: 'add_observations without contents is an error',
    steps: [
      createEntities(entity('Alice', 'person')),
      raw('add_observations', { observations: [{ entityName: 'Alice' }] }),
    ],
  },
  { name: 'add_observations without observations is an error', steps: [raw('add_observations', {})] },
  {
    name: 'add unicode observations',
    steps: [
      createEntities(entity('Ünïcode', 't')),
      addObservations(['Ünïcode', ['naïve café', 'ΣΊΣΥΦΟΣ', '👍🏽']]),
    ],
  },
  {
    name: 'add the same text to two entities, each gets its own',
    steps: [
      createEntities(entity('Alice', 'person'), entity('Bob', 'person')),
      addObservations(['Alice', ['works at Acme Corp']], ['Bob', ['works at Acme Corp']]),
    ],
  },
  {
    name: 'an observation that reads like an instruction is stored as written',
    steps: [createEntities(entity('Note', 't')), addObservations(['Note', ['remember: use pnpm, not npm']])],
  },
];

const deleteCases: ParityCase[] = [
  { name: 'delete one entity', steps: [...people, deleteEntities('Bob')] },
  { name: 'deleting an entity removes its relations both ways', steps: [...people, deleteEntities('Alice')] },
  { name: 'deleting an unknown entity succeeds', steps: [...people, deleteEntities('Nobody')] },
  {
    name: 'deleting an entity keeps the same observation on another entity',
    steps: [
      createEntities(
        entity('Alice', 'person', 'works at Acme Corp'),
        entity('Bob', 'person', 'works at Acme Corp'),
      ),
      deleteEntities('Alice'),
    ],
  },
  {
    name: 'delete by a name differing in case deletes nothing',
    steps: [...people, deleteEntities('alice', 'BOB')],
  },
  { name: 'delete an empty list', steps: [...people, deleteEntities()] },
  {
    name: 'deleting a name removes relations to it even when it was never an entity',
    steps: [
      createRelations(rel('Ghost', 'haunts', 'House'), rel('Cat', 'sits on', 'House')),
      deleteEntities('House'),
    ],
  },
  {
    name: 'deleting a name created twice removes both',
    steps: [
      createEntities(entity('Twin', 'a'), entity('Twin', 'b'), entity('Other', 'c')),
      deleteEntities('Twin'),
    ],
  },
  {
    name: 'delete then create again starts empty',
    steps: [
      createEntities(entity('Phoenix', 'bird', 'old feather')),
      deleteEntities('Phoenix'),
      createEntities(entity('Phoenix', 'bird', 'new feather')),
    ],
  },
  {
    name: 'delete the short name, not its longer alias (S3)',
    steps: [createEntities(entity('Amazon S3', 'service'), entity('S3', 'service')), deleteEntities('S3')],
  },
  {
    name: 'delete_entities with entityNames not a list is an error',
    steps: [...people, raw('delete_entities', { entityNames: 'Alice' })],
  },
  {
    name: 'deleting several entities at once',
    steps: [...people, deleteEntities('Alice', 'Bob', 'Acme Corp')],
  },
  { name: 'deleting twice is fine', steps: [...people, deleteEntities('Bob'), deleteEntities('Bob')] },
  {
    name: 'delete one observation',
    steps: [...people, deleteObservations(['Alice', ['likes programming']])],
  },
  {
    name: 'deleting an observation from one entity keeps it on another',
    steps: [
      createEntities(
        entity('Alice', 'person', 'works at Acme Corp'),
        entity('Bob', 'person', 'works at Acme Corp'),
      ),
      deleteObservations(['Alice', ['works at Acme Corp']]),
    ],
  },
  {
    name: 'deleting an observation that is not there',
    steps: [...people, deleteObservations(['Alice', ['never said']])],
  },
  {
    name: 'deleting observations of an unknown entity succeeds',
    steps: [...people, deleteObservations(['Nobody', ['x']])],
  },
  {
    name: 'a whitespace variant does not delete the observation',
    steps: [...people, deleteObservations(['Alice', [' likes programming', 'Likes programming']])],
  },
  {
    name: 'deleting a text removes every copy of it in the entity',
    steps: [
      createEntities(entity('Dup', 't', 'same', 'other', 'same')),
      deleteObservations(['Dup', ['same']]),
    ],
  },
  {
    name: 'deleting keeps the order of the rest, and a text added back goes last',
    steps: [
      createEntities(entity('Seq', 't', 'a', 'b', 'c', 'd')),
      deleteObservations(['Seq', ['b']]),
      addObservations(['Seq', ['b']]),
    ],
  },
  {
    name: 'delete_observations without observations is an error',
    steps: [...people, raw('delete_observations', { deletions: [{ entityName: 'Alice' }] })],
  },
  {
    name: 'delete observations of a name created twice: only the first',
    steps: [
      createEntities(entity('Twin', 'a', 'x'), entity('Twin', 'b', 'x')),
      deleteObservations(['Twin', ['x']]),
    ],
  },
  {
    name: 'delete observations of several entities in one call',
    steps: [
      ...people,
      deleteObservations(['Alice', ['works at Acme Corp']], ['Bob', ['works at TechCo']], ['Nobody', ['z']]),
    ],
  },
  { name: 'delete one relation', steps: [...people, deleteRelations(rel('Alice', 'knows', 'Bob'))] },
  {
    name: 'delete a relation that is not there',
    steps: [...people, deleteRelations(rel('Bob', 'knows', 'Alice'))],
  },
  {
    name: 'deleting a relation created twice removes both',
    steps: [
      createRelations(rel('A', 'r', 'B'), rel('A', 'r', 'B'), rel('A', 's', 'B')),
      deleteRelations(rel('A', 'r', 'B')),
    ],
  },
  {
    name: 'deleting a relation keeps its entities',
    steps: [...people, deleteRelations(rel('Alice', 'works_at', 'Acme Corp'))],
  },
  {
    name: 'deleting with another relation type keeps the relation',
    steps: [...people, deleteRelations(rel('Alice', 'likes', 'Bob'))],
  },
  {
    name: 'delete_relations without from is an error',
    steps: [...people, deleteRelations({ to: 'Bob', relationType: 'knows' })],
  },
  { name: 'delete an empty list of relations', steps: [...people, deleteRelations()] },
];

const readCases: ParityCase[] = [
  { name: 'read an empty graph', steps: [readGraph] },
  {
    name: 'read keeps creation order after deletes in the middle',
    steps: [
      createEntities(entity('E1', 't'), entity('E2', 't'), entity('E3', 't')),
      deleteEntities('E2'),
      createEntities(entity('E4', 't'), entity('E2', 't')),
      readGraph,
    ],
  },
  {
    name: 'relations are read in creation order',
    steps: [
      createRelations(rel('Z', 'r', 'A'), rel('A', 'r', 'Z')),
      createRelations(rel('M', 'r', 'N')),
      deleteRelations(rel('Z', 'r', 'A')),
      createRelations(rel('Z', 'r', 'A')),
    ],
  },
  {
    name: 'read_graph ignores unknown arguments',
    steps: [...people, raw('read_graph', { cursor: 'abc', limit: 1 })],
  },
  { name: 'search by name', steps: [...people, search('Alice')] },
  { name: 'search by type', steps: [...people, search('company')] },
  { name: 'search by observation', steps: [...people, search('programming')] },
  { name: 'search is case-insensitive', steps: [...people, search('ALICE'), search('acme CORP')] },
  {
    name: 'search is case-insensitive beyond ASCII',
    steps: [
      createEntities(entity('Ångström', 'unit', 'Ölçü birimi'), entity('Straße', 'place', 'ΣΊΣΥΦΟΣ')),
      search('ÅNGSTRÖM'),
      search('ölçü'),
      search('STRASSE'),
      search('STRAẞE'),
      search('σίσυφος'),
    ],
  },
  { name: 'an empty query matches every entity', steps: [...people, search('')] },
  { name: 'a query matching nothing', steps: [...people, search('zebra')] },
  { name: 'search returns relations with either end in the result', steps: [...people, search('Bob')] },
  {
    name: 'search leaves out relations between entities outside the result',
    steps: [
      ...people,
      createEntities(entity('Carol', 'person')),
      createRelations(rel('Bob', 'knows', 'Carol')),
      search('Acme'),
    ],
  },
  {
    name: 'search treats % and _ literally',
    steps: [
      createEntities(
        entity('Pct', 't', '100% sure'),
        entity('Under', 't', 'snake_case'),
        entity('Plain', 't', 'abc'),
      ),
      search('%'),
      search('_'),
      search('e_c'),
    ],
  },
  {
    name: 'search finds only created entities, not names inside observations',
    steps: [...people, search('TechCo')],
  },
  { name: 'search_nodes without a query is an error', steps: [...people, raw('search_nodes', {})] },
  {
    name: 'search with a query that is a number is an error',
    steps: [...people, raw('search_nodes', { query: 5 })],
  },
  {
    name: 'search across a whitespace-padded name',
    steps: [createEntities(entity(' Padded ', 't')), search(' padded '), search('padded')],
  },
  { name: 'open one entity', steps: [...people, open('Bob')] },
  { name: 'open an unknown name', steps: [...people, open('Nobody')] },
  { name: 'open an empty list', steps: [...people, open()] },
  { name: 'open by a name differing in case finds nothing', steps: [...people, open('alice', 'BOB')] },
  {
    name: 'open returns relations with either end opened',
    steps: [...people, open('Bob'), open('Acme Corp'), open('Alice')],
  },
  {
    name: 'open lists entities in graph order, not request order',
    steps: [...people, open('Acme Corp', 'Bob', 'Alice')],
  },
  { name: 'open the same name twice', steps: [...people, open('Bob', 'Bob')] },
  {
    name: 'open a name created twice returns both',
    steps: [createEntities(entity('Twin', 'a'), entity('Twin', 'b')), open('Twin')],
  },
  {
    name: 'open_nodes with names not a list is an error',
    steps: [...people, raw('open_nodes', { names: 'Alice' })],
  },
  {
    name: 'open returns relations to names that are not entities',
    steps: [
      ...people,
      createRelations(rel('Bob', 'owns', 'Boat'), rel('Ghost', 'haunts', 'Bob')),
      open('Bob'),
    ],
  },
  {
    name: 'open does not return invented entities',
    steps: [createEntities(entity('Alice', 'person', 'works at Acme Corp')), open('Acme Corp', 'Alice')],
  },
];

const surfaceCases: ParityCase[] = [
  { name: 'the tools: names, titles, descriptions, hints and arguments', steps: [{ list: 'tools' }] },
  { name: 'the knowledge-graph resource is listed', steps: [{ list: 'resources' }] },
  {
    name: 'the knowledge-graph resource reads the whole graph',
    steps: [...people, { resource: 'memory://knowledge-graph' }],
  },
  {
    name: 'the knowledge-graph resource of an empty graph',
    steps: [{ resource: 'memory://knowledge-graph' }],
  },
  {
    name: 'a long session: create, relate, observe, delete, read',
    steps: [
      ...people,
      addObservations(['Bob', ['plays chess']], ['Acme Corp', ['founded 1999']]),
      createEntities(entity('Carol', 'person', 'works at Acme Corp')),
      createRelations(rel('Carol', 'works_at', 'Acme Corp'), rel('Bob', 'knows', 'Carol')),
      deleteObservations(['Alice', ['works at Acme Corp']]),
      deleteRelations(rel('Alice', 'knows', 'Bob')),
      deleteEntities('Acme Corp'),
      search('acme'),
      open('Carol', 'Bob'),
    ],
  },
];

export const PARITY_CASES: ParityCase[] = [
  ...createCases,
  ...relationCases,
  ...observationCases,
  ...deleteCases,
  ...readCases,
  ...surfaceCases,
];
