// Parity cases that create entities and relations (and open or search what they made).
import type { ParityCase } from './compatParitySteps';
import { createEntities, createRelations, entity, many, open, raw, rel, search } from './compatParitySteps';

export const createCases: ParityCase[] = [
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

export const relationCases: ParityCase[] = [
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
