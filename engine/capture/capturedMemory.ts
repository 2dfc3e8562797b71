import type { Kind, Layer } from '../memory/types';
import type { MemoryStore } from '../memory/memoryStore';
import type { SqlReader } from '../store/sqlAccess';

/** A memory distilled from a session by a deterministic rule. */
export interface SessionLesson {
  content: string;
  layer: Layer;
  kind: Kind;
  /** The rule that found it (`stated`, `correction`, `recovery`, `negative`): a tag. */
  rule: string;
  importance: number;
}

/**
 * Writes a lesson of a session through the normal write policy (a restatement in another session
 * confirms the memory already there; a conflict supersedes): trust `ingest`, below what a person
 * writes, tagged `capture` with its rule and agent, with the session as provenance. Each run reads
 * a whole session again, so what the session already gave is not confirmed twice. True when it
 * was a new memory.
 */
export function rememberLesson(
  store: MemoryStore,
  sessionId: string,
  agent: string,
  lesson: SessionLesson,
): boolean {
  const known = store.read((r) =>
    r.value('SELECT 1 FROM memories WHERE session = ? AND content = ? AND superseded_at IS NULL LIMIT 1', [
      sessionId,
      lesson.content,
    ]),
  );
  if (known !== undefined) return false;
  const result = store.remember(
    {
      content: lesson.content,
      layer: lesson.layer,
      kind: lesson.kind,
      tags: ['capture', lesson.rule, agent],
      importance: lesson.importance,
      source: { conversation: sessionId },
      session: sessionId,
      agent,
      trust: 'ingest',
    },
    { agent, session: sessionId, trust: 'ingest' },
  );
  return result.outcome === 'added';
}

/** The agent of a top-level session (a sub-agent's lessons are its parent's to give), if any. */
/** The longest stretch of writing lessons without giving the event loop a turn (ingest.ts's too). */
const SLICE_MS = 15;

function sessionAgent(store: MemoryStore, sessionId: string): string | undefined {
  return store.read((r) =>
    r.value<string>('SELECT agent FROM capture_sessions WHERE id = ? AND parent_id IS NULL', [sessionId]),
  );
}

/**
 * Writes the lessons a rule finds in each of these top-level sessions (rememberLesson), yielding
 * between sessions and every SLICE_MS within one. Returns how many were new memories.
 */
export async function writeLessons(
  store: MemoryStore,
  sessionIds: readonly string[],
  lessonsOf: (r: SqlReader, sessionId: string) => SessionLesson[],
): Promise<number> {
  let written = 0;
  let sliceStarted = performance.now();
  for (const id of sessionIds) {
    const agent = sessionAgent(store, id);
    if (agent === undefined) continue;
    for (const lesson of store.read((r) => lessonsOf(r, id))) {
      if (rememberLesson(store, id, agent, lesson)) written++;
      // A long session has a hundred lessons or more (about 1 ms each): the host's thread gets a
      // turn every SLICE_MS, as during the ingest, not only between sessions.
      if (performance.now() - sliceStarted >= SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStarted = performance.now();
      }
    }
    await new Promise((resolve) => setImmediate(resolve));
    sliceStarted = performance.now();
  }
  return written;
}
