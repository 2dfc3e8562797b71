import { z } from 'zod';
import { invalidInput } from '../errors';
import { clampLimit } from '../memory/memoryQueries';
import type { MemoryStore } from '../memory/memoryStore';
import { viewerOf, visibleCondition } from '../memory/visibility';
import { defineMethod, methodParams } from './defineMethod';
import { textList, timeParam } from './paramFields';

export interface TimelineEvent {
  seq: number;
  at: number;
  type: string;
  memoryId: string | null;
  agent: string | null;
  session: string | null;
  /** The memory's current text, for a readable timeline (null for events without a memory). */
  content: string | null;
}

export interface EventPage {
  events: TimelineEvent[];
  /** Pass as `after` for the next page, or null when this was the last. */
  next: number | null;
}

/** Reads and injections happen on every call: a timeline shows what changed unless asked for them. */
const QUIET_TYPES = ['read', 'recall', 'inject'];

/** `events` {from?, to?, after?, limit?, types?, memoryId?}: times as ISO 8601 or epoch ms. */
const EVENTS_PARAMS = methodParams({
  from: timeParam.optional(),
  to: timeParam.optional(),
  after: z.number().optional(),
  limit: z.number().optional(),
  types: textList.optional(),
  memoryId: z.string().optional(),
});

/** The event ledger in a time range, oldest first, a page at a time (engine/memory/eventLedger.ts). */
function readEvents(store: MemoryStore, params: z.output<typeof EVENTS_PARAMS>): EventPage {
  const { from = 0, to = Number.MAX_SAFE_INTEGER, after = 0, types, memoryId } = params;
  if (to < from) throw invalidInput('to must not be before from');
  const limit = clampLimit(params.limit ?? 100);
  const where = ['e.at >= ?', 'e.at <= ?', 'e.seq > ?'];
  const values: Array<string | number> = [from, to, after];
  if (types === undefined) {
    where.push(`e.type NOT IN (${QUIET_TYPES.map(() => '?').join(', ')})`);
    values.push(...QUIET_TYPES);
  } else if (types.length > 0) {
    where.push(`e.type IN (${types.map(() => '?').join(', ')})`);
    values.push(...types);
  }
  if (memoryId !== undefined) {
    where.push('e.memory_id = ?');
    values.push(memoryId);
  }
  // Events of another agent's private memory are its own too (visibility.ts).
  const visible = visibleCondition(viewerOf(params));
  where.push(`(m.id IS NULL OR ${visible.sql})`);
  values.push(...visible.params);
  const rows = store.read((reader) =>
    reader.all<TimelineEvent>(
      `SELECT e.seq, e.at, e.type, e.memory_id AS memoryId, e.agent, e.session, m.content
       FROM events e LEFT JOIN memories m ON m.id = e.memory_id AND m.superseded_at IS NULL
       WHERE ${where.join(' AND ')} ORDER BY e.seq LIMIT ?`,
      [...values, limit + 1],
    ),
  );
  const events = rows.slice(0, limit);
  return { events, next: rows.length > limit ? (events.at(-1)?.seq ?? null) : null };
}

export const EVENT_METHODS = {
  events: defineMethod({ params: EVENTS_PARAMS, write: false, run: ({ store }, p) => readEvents(store, p) }),
};
