// Parity cases that add and delete observations, and delete entities and relations.
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
  rel,
} from './compatParitySteps';

export const observationCases: ParityCase[] = [
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

export const deleteCases: ParityCase[] = [
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
