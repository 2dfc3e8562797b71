import type { MemoryStore } from '../memory/memoryStore';
import { CURRENT_SELECT, reviseVersion, toMemory } from '../memory/rows';
import type { MemoryRow } from '../memory/rows';
import type { Memory } from '../memory/types';
import { allForIds } from '../store/idLists';
import type { SqlReader, SqlWriter } from '../store/sqlAccess';
import { shelfOf } from './fadedSessions';
import { recurringLesson, saysAlready } from './recurringLessons';
import type { LessonRule, RecurringLesson } from './recurringLessons';

/**
 * Pattern extraction (issue 21, section 3.6, and section 2's "a pattern seen in several sessions
 * -> procedural"): the lessons capture wrote per session (a failing command and the one that
 * worked, a correction of the agent; engine/capture/sessionLessons.ts) that recur, the same by the
 * rule of recurringLessons.ts in at least `minSessions` sessions, become one procedural memory
 * whose members (the lessons) are superseded by it: out of recall, in history with the reason.
 * A lesson restated word for word in another session is one memory confirmed by a `duplicate`
 * event of that session (the write path's rule): its sessions are its own and those events'.
 *
 * Only when novel: when an active procedural memory of the same shelf already says it (the
 * lesson's words in its text, `saysAlready`), that memory is confirmed once per session instead
 * and the lessons are superseded by it. A lesson seen in one session only also joins a pattern
 * memory made before (a pattern that recurs again). Never across private scopes of different
 * agents (shelfOf).
 */
export const PATTERN_RULE = { minSessions: 2 };

export interface PatternPlan {
  rule: LessonRule;
  /** What every member shares, as a reader sees it (RecurringLesson.same). */
  same: string;
  /** The sessions the members came from, oldest member first. */
  sessions: string[];
  kind: 'procedure' | 'error-pattern';
  /** An active procedural memory that already says it: confirmed, no new memory. */
  confirms?: string;
}

export interface PatternCluster {
  members: Memory[];
  summary: string;
  importance: number;
  confidence: number;
  pattern: PatternPlan;
}

const TAG = 'pattern';
const KIND: Record<LessonRule, PatternPlan['kind']> = { recovery: 'procedure', correction: 'error-pattern' };

export function planPatterns(reader: SqlReader): PatternCluster[] {
  const procedural = reader
    .all<MemoryRow>(
      `${CURRENT_SELECT} WHERE m.superseded_at IS NULL AND m.status = 'active' AND m.layer = 'procedural'
       ORDER BY m.valid_from, m.id`,
    )
    .map(toMemory);
  const lessons: Array<{ memory: Memory; lesson: RecurringLesson }> = [];
  for (const memory of procedural) {
    const rule = lessonRule(memory);
    const lesson = rule && recurringLesson(rule, memory.content);
    if (lesson) lessons.push({ memory, lesson });
  }
  if (lessons.length === 0) return [];
  const sessions = sessionsOf(
    reader,
    lessons.map((l) => l.memory),
  );
  const groups = new Map<string, typeof lessons>();
  for (const item of lessons) {
    const key = `${shelfOf(item.memory)}\u0000${item.lesson.rule}\u0000${item.lesson.key}`;
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  const lessonIds = new Set(lessons.map((l) => l.memory.id));
  const others = procedural.filter((m) => !lessonIds.has(m.id));
  const planned: PatternCluster[] = [];
  for (const group of groups.values()) {
    const members = group.map((g) => g.memory);
    const { lesson } = group[0]!;
    const seen = [...new Set(members.flatMap((m) => sessions.get(m.id) ?? []))];
    const existing = others.find(
      (m) => shelfOf(m) === shelfOf(members[0]!) && saysAlready(m.content, lesson),
    );
    const recurs =
      seen.length >= PATTERN_RULE.minSessions || (existing !== undefined && existing.tags.includes(TAG));
    if (!recurs) continue;
    const latest = members[members.length - 1]!;
    planned.push({
      members,
      summary: patternText(lesson, latest, seen.length),
      importance: Math.max(...members.map((m) => m.importance)),
      confidence: Math.min(1, seen.length / 5),
      pattern: {
        rule: lesson.rule,
        same: lesson.same,
        sessions: seen,
        kind: KIND[lesson.rule],
        ...(existing ? { confirms: existing.id } : {}),
      },
    });
  }
  // New patterns first: a plan's created ids then line up with its first clusters.
  return [...planned.filter((p) => !p.pattern.confirms), ...planned.filter((p) => p.pattern.confirms)];
}

/**
 * Writes one pattern: a new procedural memory the members are superseded by, or a confirmation of
 * the memory that already says it (the members superseded by that one). Inside the caller's
 * transaction. Returns the id of the memory that now stands for the members, or undefined when
 * the memory to confirm is no longer active (the next run plans again).
 */
export function applyPattern(
  store: MemoryStore,
  tx: SqlWriter,
  now: number,
  members: readonly Memory[],
  plan: PatternPlan,
  text: { summary: string; importance: number; confidence: number },
): string | undefined {
  const shelf = members[0]!;
  const ids = members.map((m) => m.id);
  const why = `${plan.same}, in ${plan.sessions.length} sessions (${plan.sessions.join(', ')})`;
  let into: string;
  if (plan.confirms) {
    const target = tx.get<{ status: string }>(
      'SELECT status FROM memories WHERE id = ? AND superseded_at IS NULL',
      [plan.confirms],
    );
    if (target?.status !== 'active') return undefined;
    into = plan.confirms;
    tx.run('UPDATE memory_state SET confirmations = confirmations + ? WHERE id = ?', [
      plan.sessions.length,
      into,
    ]);
    store.ledger.append(tx, now, {
      type: 'duplicate',
      memoryId: into,
      agent: 'engram-lifecycle',
      data: { reason: 'pattern', rule: plan.rule, same: plan.same, sessions: plan.sessions, members: ids },
    });
  } else {
    const owner = shelf.scope === 'private' ? shelf.agent : 'engram-lifecycle';
    into = store.remember(
      {
        content: text.summary,
        context: `Recurring ${plan.rule}: ${why}; from ${ids.join(', ')}`,
        layer: 'procedural',
        kind: plan.kind,
        validFrom: Math.min(...members.map((m) => m.validFrom)),
        tags: [TAG, plan.rule],
        importance: text.importance,
        trust: 'consolidation',
        scope: shelf.scope,
        dedupe: false,
      },
      { ...(owner === null ? {} : { agent: owner }), trust: 'consolidation' },
    ).memory.id;
    store.ledger.append(tx, now, {
      type: 'consolidate',
      memoryId: into,
      agent: 'engram-lifecycle',
      data: {
        reason: 'pattern',
        rule: plan.rule,
        same: plan.same,
        sessions: plan.sessions,
        members: ids,
        quoted: ids,
        confidence: text.confidence,
      },
    });
  }
  for (const member of members)
    reviseVersion(
      tx,
      member,
      {
        status: 'superseded',
        statusReason: `recurring ${plan.rule}: ${plan.confirms ? 'confirms' : 'consolidated into'} ${into} (${why})`,
        supersededBy: into,
      },
      'superseded',
      now,
    );
  return into;
}

/** The capture rule that wrote a memory, when it is a lesson a pattern can gather. */
function lessonRule(m: Memory): LessonRule | undefined {
  if (!m.tags.includes('capture') || m.tags.includes(TAG)) return undefined;
  if (m.kind === 'procedure' && m.tags.includes('recovery')) return 'recovery';
  if (m.kind === 'error-pattern' && m.tags.includes('correction')) return 'correction';
  return undefined;
}

/** The sessions each lesson was seen in: its own, and those whose restatement confirmed it. */
function sessionsOf(reader: SqlReader, memories: readonly Memory[]): Map<string, string[]> {
  const sessions = new Map<string, string[]>(
    memories.map((m) => [m.id, m.session === null ? [] : [m.session]]),
  );
  for (const row of allForIds<{ memoryId: string; session: string }>(
    reader,
    (marks) =>
      `SELECT memory_id AS memoryId, session FROM events WHERE type IN ('duplicate', 'update')
       AND session IS NOT NULL AND memory_id IN (${marks}) ORDER BY seq`,
    memories.map((m) => m.id),
  )) {
    const seen = sessions.get(row.memoryId)!;
    if (!seen.includes(row.session)) seen.push(row.session);
  }
  return sessions;
}

function patternText(lesson: RecurringLesson, latest: Memory, sessions: number): string {
  const body = lesson.rule === 'correction' ? latest.content.replace(/^Correction:\s*/, '') : latest.content;
  return lesson.rule === 'correction'
    ? `Correction given in ${sessions} sessions: ${body}`
    : `In ${sessions} sessions: ${body}`;
}
