import type { SqlReader } from '../store/sqlAccess';

/**
 * Who reads, for private memories (`scope: 'private'`): a private memory is its agent's own. A
 * reader that is an agent (`--agent`, an MCP client, a team-server token's user) sees the shared
 * memories and its own private ones; a reader without an agent is the owner of the database (the
 * VS Code UI, the CLI without `--agent`) and sees everything. The team server sets every caller's
 * agent to its token's user (callerPolicy.ts), so no team reader is an owner.
 */
export type Viewer = string | undefined;

/** The reader of a call, from its parsed `actor`. */
export function viewerOf(params: { actor?: { agent?: string | null | undefined } | undefined }): Viewer {
  return params.actor?.agent ?? undefined;
}

/** Whether `viewer` may see a memory (or a version of one) with this scope and agent. */
export function isVisible(viewer: Viewer, memory: { scope: string; agent: string | null }): boolean {
  return viewer === undefined || memory.scope !== 'private' || memory.agent === viewer;
}

/**
 * The same rule as a SQL condition over the memories table as `alias`, with its parameter; for an
 * owner, a condition that holds for every row (so callers can always append it).
 */
export function visibleCondition(viewer: Viewer, alias = 'm'): { sql: string; params: string[] } {
  if (viewer === undefined) return { sql: '1', params: [] };
  return { sql: `(${alias}.scope <> 'private' OR ${alias}.agent = ?)`, params: [viewer] };
}

/** Whether the memory `id` is hidden from `viewer`: its current version is another's private one. */
export function isHiddenId(reader: SqlReader, viewer: Viewer, id: string): boolean {
  if (viewer === undefined) return false;
  const row = reader.get<{ scope: string; agent: string | null }>(
    'SELECT scope, agent FROM memories WHERE id = ? AND superseded_at IS NULL',
    [id],
  );
  return row !== undefined && !isVisible(viewer, row);
}

/** The ids among `ids` that `viewer` may see (in order); all of them for an owner. */
export function visibleIds(reader: SqlReader, viewer: Viewer, ids: readonly string[]): string[] {
  if (viewer === undefined || ids.length === 0) return [...ids];
  // One statement for the whole list: a lookup per id doubled the CPU of a replica's copy.
  const hidden = new Set(
    reader
      .all<{ id: string }>(
        `SELECT m.id AS id FROM json_each(?) j JOIN memories m ON m.id = j.value AND m.superseded_at IS NULL
         WHERE m.scope = 'private' AND (m.agent IS NULL OR m.agent <> ?)`,
        [JSON.stringify(ids), viewer],
      )
      .map((row) => row.id),
  );
  return ids.filter((id) => !hidden.has(id));
}

/**
 * Every memory hidden from `viewer` (another agent's private one, by its current version): for
 * reads that go through whole tables (export, the replica's copy, the views). Empty for an owner.
 */
export function hiddenIds(reader: SqlReader, viewer: Viewer): ReadonlySet<string> {
  if (viewer === undefined) return new Set();
  const rows = reader.all<{ id: string }>(
    `SELECT id FROM memories WHERE superseded_at IS NULL AND scope = 'private'
     AND (agent IS NULL OR agent <> ?)`,
    [viewer],
  );
  return new Set(rows.map((row) => row.id));
}
