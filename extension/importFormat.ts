/**
 * Which JSONL a file holds, from its first non-empty line: Engram's export starts with a
 * `{"_format": ...}` header; the MCP memory server's file has `{"type": "entity" | "relation"}` lines.
 */
export function detectImportFormat(text: string): 'engram' | 'mcp-memory' | undefined {
  const first = text.split(/\r?\n/).find((line) => line.trim() !== '');
  if (!first) return undefined;
  try {
    const record = JSON.parse(first) as Record<string, unknown>;
    if (typeof record['_format'] === 'string') return 'engram';
    if (record['type'] === 'entity' || record['type'] === 'relation') return 'mcp-memory';
  } catch {
    return undefined;
  }
  return undefined;
}
