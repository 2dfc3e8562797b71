/**
 * Rewrites a tool's JSON Schema (as zod emits it) into spellings every MCP client can map, with
 * the same contract, as the official inspector's portability check asks:
 * - `type: ["string", "null"]` (zod's nullable primitive) becomes `anyOf` with one type per
 *   branch, the spelling zod already uses for nullable objects and enums. Clients that map schemas
 *   onto a single-`type` dialect (Gemini's OpenAPI subset) reject or loosen a type array.
 * - `additionalProperties: {}` (zod's record of unknown values) becomes `true`: the same meaning,
 *   without an empty schema that reads as a missing type.
 */
export function portableSchema<T>(schema: T): T {
  return rewrite(schema) as T;
}

/** Keywords about the value as a whole, kept outside the `anyOf` branches. */
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', 'deprecated']);

function rewrite(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewrite);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    const empty = typeof value === 'object' && value !== null && Object.keys(value).length === 0;
    out[key] = key === 'additionalProperties' && empty ? true : rewrite(value);
  }
  const type = out['type'];
  if (!Array.isArray(type)) return out;
  const outer: Record<string, unknown> = {};
  const inner: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(out)) {
    if (key === 'type') continue;
    (ANNOTATIONS.has(key) || key.startsWith('$') ? outer : inner)[key] = value;
  }
  return {
    ...outer,
    anyOf: (type as string[]).map((t) => (t === 'null' ? { type: 'null' } : { type: t, ...inner })),
  };
}
