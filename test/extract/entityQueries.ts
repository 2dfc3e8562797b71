import assert from 'node:assert/strict';
import { extractEntities } from '../../engine/extract/entities';
import type { EntityType, ExtractedEntity } from '../../engine/extract/entities';

// What the entity extraction tests (entities, entityNames, entityWeights) ask of extractEntities.

/** The entity `text` yields under `key`; fails the test when there is none. */
export function entity(text: string, key: string): ExtractedEntity {
  const found = extractEntities(text).find((e) => e.key === key);
  assert.ok(found, `no entity with key ${JSON.stringify(key)} in ${JSON.stringify(text)}`);
  return found;
}

/** The keys of the entities `text` yields, of `type` only when given. */
export function keysOf(text: string, type?: EntityType): string[] {
  return extractEntities(text)
    .filter((e) => type === undefined || e.type === type)
    .map((e) => e.key);
}

export function assertNone(text: string, key: string): void {
  assert.equal(
    extractEntities(text).find((e) => e.key === key),
    undefined,
    `unexpected entity ${JSON.stringify(key)} in ${JSON.stringify(text)}`,
  );
}

/** The text at each span of the entity. */
export function mentions(text: string, e: ExtractedEntity): string[] {
  return e.spans.map(([s, end]) => text.slice(s, end));
}
