/** Small readers for values parsed from JSON, TOML and YAML, whose shapes are never guaranteed. */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The string-valued entries of an object; anything else yields an empty map. */
export function stringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isRecord(value)) return out;
  for (const [key, entry] of Object.entries(value)) if (typeof entry === 'string') out[key] = entry;
  return out;
}

/**
 * Dependency tables whose entries are a version string or a table with `version` (Cargo, Poetry):
 * name -> version, or `*` when the entry pins a path or git source instead.
 */
export function versionTable(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isRecord(value)) return out;
  for (const [name, entry] of Object.entries(value)) {
    if (typeof entry === 'string') out[name] = entry;
    else if (isRecord(entry)) out[name] = typeof entry.version === 'string' ? entry.version : '*';
  }
  return out;
}
