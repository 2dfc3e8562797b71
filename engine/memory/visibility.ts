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
 * owner, a condition that holds for every row (so callers can always append it). `IS`, not `=`:
 * a private memory without an agent makes it false, not NULL, so `NOT` of it is the hidden set.
 */
export function visibleCondition(viewer: Viewer, alias = 'm'): { sql: string; params: string[] } {
  if (viewer === undefined) return { sql: '1', params: [] };
  return { sql: `(${alias}.scope <> 'private' OR ${alias}.agent IS ?)`, params: [viewer] };
}

/** The ids among `ids` that `viewer` may see (in order); all of them for an owner. */
export function visibleIds(reader: SqlReader, viewer: Viewer, ids: readonly string[]): string[] {
  if (viewer === undefined || ids.length === 0) return [...ids];
  // One statement for the whole list: a lookup per id doubled the CPU of a replica's copy.
  const visible = visibleCondition(viewer);
  const hidden = new Set(
    reader
      .all<{ id: string }>(
        `SELECT m.id AS id FROM json_each(?) j JOIN memories m ON m.id = j.value AND m.superseded_at IS NULL
         WHERE NOT ${visible.sql}`,
        [JSON.stringify(ids), ...visible.params],
      )
      .map((row) => row.id),
  );
  return ids.filter((id) => !hidden.has(id));
}

/**
 * Every memory hidden from `viewer` (another agent's private one, by its current version): for
 * reads that go through whole tables (export, drift reports). Empty for an owner.
 */
export function hiddenIds(reader: SqlReader, viewer: Viewer): ReadonlySet<string> {
  if (viewer === undefined) return new Set();
  const visible = visibleCondition(viewer);
  const rows = reader.all<{ id: string }>(
    `SELECT m.id AS id FROM memories m WHERE m.superseded_at IS NULL AND NOT ${visible.sql}`,
    visible.params,
  );
  return new Set(rows.map((row) => row.id));
}
