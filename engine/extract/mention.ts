import type { EntityType } from './entityTypes';

/** One recognised mention, before overlapping mentions are resolved and equal keys merged. */
export interface Mention {
  readonly start: number;
  readonly end: number;
  readonly type: EntityType;
  /** Display form this mention suggests for its entity. */
  readonly name: string;
  readonly key: string;
  /** False for a surface that makes a poor display name, such as the possessive "Caroline's". */
  readonly preferred: boolean;
}

/**
 * Which mention keeps a stretch of text when two overlap: containers (a URL, a command, a path)
 * outrank what can appear inside them (a domain, a tool, a capitalised word). File outranks
 * directory so that an import specifier typed as a file beats the same text read as a folder.
 */
export const TYPE_RANK: Readonly<Record<EntityType, number>> = {
  url: 100,
  command: 90,
  file: 81,
  directory: 80,
  env: 75,
  date: 70,
  package: 60,
  tool: 50,
  symbol: 40,
  person: 10,
  name: 10,
};

function lowerKey(name: string): string {
  return name.trim().toLowerCase();
}

export function createMention(
  start: number,
  end: number,
  type: EntityType,
  name: string,
  key: string = lowerKey(name),
  preferred = true,
): Mention {
  return { start, end, type, name, key, preferred };
}
