import type { importMemories } from '../api/exchangeMethods';

/** What the `import` method answers, for either format. */
export type ImportResult = ReturnType<typeof importMemories>;
type McpImport = Extract<ImportResult, { from: 'mcp-memory' }>;

/**
 * An MCP memory file's import: one line per observation that could not be a memory, then
 * `imported 98 of 100 observations as memories (3 already here); 2 rejected; ...`.
 */
export function mcpImportLines(result: McpImport): string {
  const given = result.observations + result.duplicates + result.rejected.length;
  return [
    ...result.rejected.map(
      (r) => `rejected: observation ${r.observation + 1} of "${r.entity}": ${r.error.message}`,
    ),
    `imported ${result.observations + result.duplicates} of ${given} observations as memories ` +
      `(${result.duplicates} already here); ${result.rejected.length} rejected; ` +
      `${result.entities} entities, ${result.relations} relations`,
  ].join('\n');
}

/** Whether the file held observations and every one was rejected: the import wrote no memory. */
export function rejectedEvery(result: McpImport): boolean {
  return result.rejected.length > 0 && result.observations + result.duplicates === 0;
}
