import type { SqlReader, SqlWriter } from '../store/sqlAccess';

/**
 * Per conversation, which memories (at which content) were already put into the prompt, so that
 * context building does not inject them twice. A memory whose content changed since it was
 * injected counts as not injected.
 */
export function injectedIds(reader: SqlReader, conversation: string, ids: readonly string[]): string[] {
  if (ids.length === 0) return [];
  const placeholders = ids.map(() => '?').join(',');
  return reader
    .all<{ id: string }>(
      `SELECT i.memory_id AS id FROM injections i JOIN memories m ON m.id = i.memory_id AND m.superseded_at IS NULL ` +
        `WHERE i.conversation = ? AND i.memory_id IN (${placeholders}) AND i.content_hash = m.content_hash`,
      [conversation, ...ids],
    )
    .map((row) => row.id);
}

export function markInjected(
  tx: SqlWriter,
  conversation: string,
  ids: readonly string[],
  at: number,
): number {
  let marked = 0;
  for (const id of ids) {
    marked += tx.run(
      'INSERT OR REPLACE INTO injections (conversation, memory_id, content_hash, injected_at) ' +
        'SELECT ?, id, content_hash, ? FROM memories WHERE id = ? AND superseded_at IS NULL',
      [conversation, at, id],
    );
  }
  return marked;
}

/** Forgets what a conversation was given (all of it, or the listed memories). */
export function evictInjected(tx: SqlWriter, conversation: string, ids?: readonly string[]): number {
  if (!ids) return tx.run('DELETE FROM injections WHERE conversation = ?', [conversation]);
  let evicted = 0;
  for (const id of ids) {
    evicted += tx.run('DELETE FROM injections WHERE conversation = ? AND memory_id = ?', [conversation, id]);
  }
  return evicted;
}
