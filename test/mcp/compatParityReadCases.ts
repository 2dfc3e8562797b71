// Parity cases of the reads (read_graph, search_nodes, open_nodes) and of the surface: the tool
// list, the knowledge-graph resource and a long session.
import type { ParityCase } from './compatParitySteps';
import {
  addObservations,
  createEntities,
  createRelations,
  deleteEntities,
  deleteObservations,
  deleteRelations,
  entity,
  open,
  people,
  raw,
  readGraph,
  rel,
  search,
} from './compatParitySteps';

export const readCases: ParityCase[] = [
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

export const surfaceCases: ParityCase[] = [
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
