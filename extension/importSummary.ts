import { plural } from './memoryText';

/** An observation the engine could not write as a memory (engine/exchange/mcpMemoryImport.ts). */
interface RejectedObservation {
  entity: string;
  observation: number;
  error: { message: string };
}

/** What the engine's `import` answers, for either format (engine/api/methods.ts). */
export type ImportResult =
  | { from: 'engram'; counts: Record<string, { added: number; skipped: number }> }
  | {
      from: 'mcp-memory';
      entities: number;
      observations: number;
      relations: number;
      duplicates: number;
      rejected: RejectedObservation[];
    };

/**
 * `3 imported, 1 skipped (already here), 0 failed: memory versions`: what an import did, in counts.
 * An Engram export is all or nothing (a bad line refuses the whole file, with its line number), so
 * a finished import of one has no failures; the count is said anyway so that the three numbers
 * always read the same way. An MCP memory file's observations are written one by one: one that
 * cannot be a memory (empty, too long) fails alone, and the first is named with its reason.
 */
export function importSummary(result: ImportResult): string {
  if (result.from === 'mcp-memory') {
    const graph = `${plural(result.entities, 'entity', 'entities')}, ${plural(result.relations, 'relation', 'relations')}`;
    const [first, ...more] = result.rejected;
    const why = first
      ? ` (observation ${first.observation + 1} of "${first.entity}": ${first.error.message}${more.length ? `; and ${more.length} more` : ''})`
      : '';
    return `${result.observations} imported, ${result.duplicates} skipped (already here), ${result.rejected.length} failed: observations as memories; ${graph}${why}`;
  }
  const memories = result.counts['memories'] ?? { added: 0, skipped: 0 };
  return `${memories.added} imported, ${memories.skipped} skipped (already here), 0 failed: memory versions`;
}
