import { z } from 'zod';
import {
  FORMAT,
  FORMAT_VERSION,
  importEngramLines,
  memoryLines,
  parseEngramLines,
} from '../exchange/engramJsonl';
import { noteLexicalChange } from '../lexical/lexicalChanges';
import { indexMissing } from '../lexical/lexicalIndex';
import type { MemoryStore } from '../memory/memoryStore';
import { viewerOf, visibleIds } from '../memory/visibility';
import type { SqlReader } from '../store/sqlAccess';
import { schemaVersion } from '../store/migrate';
import { defineMethod, methodParams } from './defineMethod';
import { NO_PARAMS } from './memoryParams';
import { requiredText, wholeNumber } from './paramFields';

/**
 * Where a copy of a store stands in its history. Memory rows are only ever inserted (a new version,
 * whose `rowid` is the store's next) or closed (`superseded_at`, set in the same transaction as the
 * insert of the next version), so "every memory with a row after `versions`" is every memory whose
 * rows changed; counters that change without a version (pin, unpin, a duplicate's confirmation) are
 * in the event ledger, hence `events`.
 */
export interface StorePosition {
  /** The newest memory row (`memories.rowid`) the copy holds. */
  versions: number;
  /** The newest ledger event (`events.seq`) the copy holds. */
  events: number;
}

export interface ReplicaChanges {
  /** An Engram export (engramJsonl.ts) of every memory changed in this page: all its versions, counters, annotations. */
  text: string;
  /** How many memories the page carries. */
  memories: number;
  /**
   * Memories this page's events name that the store no longer has (deleted outright, `capture
   * purge`: its ledger keeps a `purge` event per memory): a replica deletes them. Absent from
   * servers older than that event.
   */
  removed?: string[];
  /** Where this page ends: the `after` of the next one. */
  position: StorePosition;
  /** The store's newest position: a copy ahead of it copied a store that was since replaced. */
  head: StorePosition;
  /** Whether changes follow this page. */
  more: boolean;
}

/** Reads, recalls and injections move access counters only: a replica takes those with the next change. */
const QUIET_TYPES = ['read', 'recall', 'inject'];

const POSITION_EXPECTED = 'must be a whole number 0 or more';
const position = wholeNumber(0, Number.MAX_SAFE_INTEGER, POSITION_EXPECTED);
const POSITION_PARAM = z.object({ versions: position, events: position });

/** `replicaChanges` {after?: {versions, events}, limit?}: nothing after = the whole store. */
const CHANGES_PARAMS = methodParams({
  after: POSITION_PARAM.optional(),
  limit: wholeNumber(1, 5000, 'must be 1 to 5000').optional(),
});

/**
 * `replicaApply` {text, removed?, position?}: an export whose memories replace the stored ones with
 * those ids, whole; `removed`: ids to delete; `position`: where the copy stands after it.
 */
const APPLY_PARAMS = methodParams({
  text: requiredText,
  removed: z.array(requiredText).max(5000).optional(),
  position: POSITION_PARAM.optional(),
});

/** The replica's own position (replicaApply's), kept with the identity of its store. */
const POSITION_KEY = 'replica_position';

/**
 * The memories changed after `after`, a page of at most `limit` memory rows and `limit` events.
 * A copy that starts from nothing needs no events: the counters come with every memory's rows,
 * read in the same read as the head, so the events position can start at the head.
 */
function replicaChanges(store: MemoryStore, p: z.output<typeof CHANGES_PARAMS>): ReplicaChanges {
  const after = p.after ?? { versions: 0, events: 0 };
  // A replica is one reader's copy: another agent's private memories never go into it.
  const viewer = viewerOf(p);
  const limit = p.limit ?? 1000;
  return store.read((r) => {
    const head = headOf(r);
    const versions = r.all<{ at: number; id: string }>(
      'SELECT rowid AS at, id FROM memories WHERE rowid > ? ORDER BY rowid LIMIT ?',
      [after.versions, limit + 1],
    );
    const fresh = after.versions === 0 && after.events === 0;
    const events = fresh
      ? []
      : r.all<{ at: number; id: string; type: string }>(
          `SELECT seq AS at, memory_id AS id, type FROM events WHERE seq > ? AND memory_id IS NOT NULL
           AND type NOT IN (${QUIET_TYPES.map(() => '?').join(', ')}) ORDER BY seq LIMIT ?`,
          [after.events, ...QUIET_TYPES, limit + 1],
        );
    const pageOf = <Row extends { at: number }>(rows: Row[], from: number) => {
      const kept = rows.slice(0, limit);
      return { kept, end: kept.at(-1)?.at ?? from, more: rows.length > limit };
    };
    const v = pageOf(versions, after.versions);
    const e = pageOf(events, after.events);
    const ids = visibleIds(r, viewer, [...new Set([...v.kept, ...e.kept].map((row) => row.id))]);
    const header = JSON.stringify({ _format: FORMAT, version: FORMAT_VERSION, schema: schemaVersion(r) });
    return {
      text: [header, ...memoryLines(r, ids)].join('\n'),
      memories: ids.length,
      removed: gone(r, e.kept),
      // A page that reached the end stands at the head (later rows of quiet events included).
      position: {
        versions: v.more ? v.end : Math.max(v.end, head.versions),
        events: e.more ? e.end : Math.max(e.end, head.events),
      },
      head,
      more: v.more || e.more,
    };
  });
}

/** The memories events name that have no row left (purged). */
function gone(r: SqlReader, events: ReadonlyArray<{ id: string; type: string }>): string[] {
  const named = [...new Set(events.filter((e) => e.type === 'purge').map((e) => e.id))];
  if (named.length === 0) return [];
  const kept = new Set(
    r
      .all<{ id: string }>('SELECT DISTINCT id FROM memories WHERE id IN (SELECT value FROM json_each(?))', [
        JSON.stringify(named),
      ])
      .map((row) => row.id),
  );
  return named.filter((id) => !kept.has(id));
}

function headOf(r: SqlReader): StorePosition {
  return {
    versions: r.value<number>('SELECT coalesce(max(rowid), 0) FROM memories') ?? 0,
    events: r.value<number>('SELECT coalesce(max(seq), 0) FROM events') ?? 0,
  };
}

/**
 * Replaces, in one transaction, every memory the export names by the rows it brings: its versions,
 * counters and annotations (the replica of the team scope, teamReplica.ts), then indexes their
 * current text; deletes the `removed` ones; and records `position` in the same transaction, so a
 * copy killed between two pages stands where its content is. Memories the export does not name
 * are left as they are. `replaced`: their ids.
 */
function replicaApply(store: MemoryStore, p: z.output<typeof APPLY_PARAMS>): { replaced: string[] } {
  const parsed = store.read((r) => parseEngramLines(r, p.text.split('\n'), store.limits));
  const ids = [...new Set(parsed.filter((l) => l._table === 'memories').map((l) => String(l['id'])))];
  store.write((tx) => {
    for (const id of new Set([...ids, ...(p.removed ?? [])])) {
      const doc = tx.value<number>('SELECT doc FROM memory_docs WHERE memory_id = ?', [id]);
      if (doc !== undefined) {
        tx.run('DELETE FROM memory_fts WHERE docid = ?', [doc]);
        noteLexicalChange(doc);
      }
      tx.run('DELETE FROM memories WHERE id = ?', [id]);
      tx.run('DELETE FROM memory_state WHERE id = ?', [id]);
      tx.run('DELETE FROM annotations WHERE memory_id = ?', [id]);
    }
    importEngramLines(tx, parsed);
    indexMissing(tx);
    if (p.position)
      tx.run('INSERT OR REPLACE INTO engram_meta (key, value) VALUES (?, ?)', [
        POSITION_KEY,
        JSON.stringify(p.position),
      ]);
    store.textChanged();
  });
  return { replaced: ids };
}

/** The position the last `replicaApply` recorded, or null (none yet). */
function replicaPosition(store: MemoryStore): StorePosition | null {
  const stored = store.read((r) =>
    r.value<string>('SELECT value FROM engram_meta WHERE key = ?', [POSITION_KEY]),
  );
  return stored === undefined ? null : (JSON.parse(stored) as StorePosition);
}

export const REPLICA_METHODS = {
  replicaChanges: defineMethod({
    params: CHANGES_PARAMS,
    write: false,
    run: ({ store }, p) => replicaChanges(store, p),
  }),
  replicaApply: defineMethod({
    params: APPLY_PARAMS,
    write: true,
    run: ({ store }, p) => replicaApply(store, p),
  }),
  replicaPosition: defineMethod({
    params: NO_PARAMS,
    write: false,
    run: ({ store }) => replicaPosition(store),
  }),
};
