/** The memory ids a recall event lists in its data (`{ memoryIds: [...] }`); none when unreadable. */
export function recalledIds(data: string): string[] {
  try {
    const ids = (JSON.parse(data) as { memoryIds?: unknown }).memoryIds;
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}
