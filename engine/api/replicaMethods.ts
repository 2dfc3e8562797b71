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

/** `replicaChanges` {after?: {versions, events}, limit?}: nothing after = the whole store. */
const CHANGES_PARAMS = methodParams({
  after: z.object({ versions: position, events: position }).optional(),
  limit: wholeNumber(1, 5000, 'must be 1 to 5000').optional(),
});

/** `replicaApply` {text}: an export whose memories replace the stored ones with those ids, whole. */
const APPLY_PARAMS = methodParams({ text: requiredText });

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
      : r.all<{ at: number; id: string }>(
          `SELECT seq AS at, memory_id AS id FROM events WHERE seq > ? AND memory_id IS NOT NULL
           AND type NOT IN (${QUIET_TYPES.map(() => '?').join(', ')}) ORDER BY seq LIMIT ?`,
          [after.events, ...QUIET_TYPES, limit + 1],
        );
    const pageOf = (rows: Array<{ at: number; id: string }>, from: number) => {
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

function headOf(r: SqlReader): StorePosition {
  return {
    versions: r.value<number>('SELECT coalesce(max(rowid), 0) FROM memories') ?? 0,
    events: r.value<number>('SELECT coalesce(max(seq), 0) FROM events') ?? 0,
  };
}

/**
 * Replaces, in one transaction, every memory the export names by the rows it brings: its versions,
 * counters and annotations (the replica of the team scope, teamReplica.ts), then indexes their
 * current text. Memories the export does not name are left as they are. `replaced`: their ids.
 */
function replicaApply(store: MemoryStore, text: string): { replaced: string[] } {
  const parsed = store.read((r) => parseEngramLines(r, text.split('\n'), store.limits));
  const ids = [...new Set(parsed.filter((l) => l._table === 'memories').map((l) => String(l['id'])))];
  store.write((tx) => {
    for (const id of ids) {
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
    store.textChanged();
  });
  return { replaced: ids };
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
    run: ({ store }, p) => replicaApply(store, p.text),
  }),
};
