import { invalidInput } from '../errors';
import type { MemoryStore } from '../memory/memoryStore';
import { currentMemory, resolveId } from '../memory/memoryQueries';
import { reviseVersion } from '../memory/rows';
import type { Actor } from '../memory/types';

/**
 * Undoes one consolidation (`unconsolidate`, issue 21 section 3: every step reversible): its
 * members become current and active again (a new version each, 'restored'), and the consolidated
 * memory is superseded, its reason saying by what, in one transaction. Superseded rather than
 * archived: `restore` brings back archived memories, and a restored gist beside its members
 * would say everything twice. Members changed since (edited, forgotten) are left as they are.
 * Only an active memory a consolidation wrote qualifies: a second call, a peer card or an
 * ordinary memory is refused with one line, and nothing is written.
 */
export function undoConsolidation(
  store: MemoryStore,
  idOrPrefix: string,
  actor: Actor = {},
): { memoryId: string; restored: string[] } {
  return store.write((tx, now) => {
    const made = currentMemory(tx, resolveId(tx, idOrPrefix));
    const consolidated = tx.value<number>(
      "SELECT 1 FROM events WHERE type = 'consolidate' AND memory_id = ? LIMIT 1",
      [made.id],
    );
    if (consolidated === undefined) throw invalidInput(`${made.id} is not a consolidated memory`);
    if (made.status !== 'active')
      throw invalidInput(
        `${made.id} is ${made.status} (${made.statusReason ?? 'no reason'}), not active: nothing to undo`,
      );
    const members = tx
      .all<{ id: string }>(
        "SELECT id FROM memories WHERE superseded_at IS NULL AND status = 'superseded' AND superseded_by = ?",
        [made.id],
      )
      .map((row) => currentMemory(tx, row.id));
    for (const member of members)
      reviseVersion(
        tx,
        member,
        { status: 'active', statusReason: null, supersededBy: null },
        'restored',
        now,
      );
    const reason = `consolidation undone: its ${members.length} members are back in recall`;
    reviseVersion(tx, made, { status: 'superseded', statusReason: reason }, 'superseded', now);
    store.ledger.append(tx, now, {
      type: 'restore',
      memoryId: made.id,
      agent: actor.agent ?? null,
      session: actor.session ?? null,
      data: { undid: 'consolidate', members: members.map((m) => m.id) },
    });
    return { memoryId: made.id, restored: members.map((m) => m.id) };
  });
}
