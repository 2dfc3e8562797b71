import { plural } from './memoryText';

/** What the engine's `import` answers, for either format (engine/api/methods.ts). */
export type ImportResult =
  | { from: 'engram'; counts: Record<string, { added: number; skipped: number }> }
  | { from: 'mcp-memory'; entities: number; observations: number; relations: number; duplicates: number };

/**
 * `3 imported, 1 skipped (already here), 0 failed: memory versions`: what an import did, in counts.
 * An import is all or nothing (a bad line refuses the whole file, with its line number), so a
 * finished import has no failures; the count is said anyway so that the three numbers always read
 * the same way.
 */
export function importSummary(result: ImportResult): string {
  if (result.from === 'mcp-memory') {
    const graph = `${plural(result.entities, 'entity', 'entities')}, ${plural(result.relations, 'relation', 'relations')}`;
    return `${result.observations} imported, ${result.duplicates} skipped (already here), 0 failed: observations as memories; ${graph}`;
  }
  const memories = result.counts['memories'] ?? { added: 0, skipped: 0 };
  return `${memories.added} imported, ${memories.skipped} skipped (already here), 0 failed: memory versions`;
}
