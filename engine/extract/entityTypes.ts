/** The kinds of thing the engine extracts as entities (also the Graph view's legend). */
export const ENTITY_TYPES = [
  'file',
  'directory',
  'symbol',
  'package',
  'tool',
  'url',
  'date',
  'person',
  'name',
  'env',
  'command',
] as const;
/** What kind of thing an extracted entity is. */
export type EntityType = (typeof ENTITY_TYPES)[number];

/** One entity recognised in a text, with every mention of it merged. */
export interface ExtractedEntity {
  /** Display form: a canonical name (tools, ISO dates) or the best surface form seen. */
  name: string;
  /** canonical key: lower-cased, trimmed, for dedup and lookup */
  key: string;
  type: EntityType;
  /** 0..1 salience: how central the entity is to this text */
  weight: number;
  /** [start, end) char offsets of each mention */
  spans: Array<[number, number]>;
  /** other surface forms seen (e.g. `getUserName()` and getUserName) */
  aliases: string[];
}
