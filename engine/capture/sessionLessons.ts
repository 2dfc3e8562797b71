import type { MemoryStore } from '../memory/memoryStore';
import type { SqlReader } from '../store/sqlAccess';
import { writeLessons } from './capturedMemory';
import type { SessionLesson } from './capturedMemory';
import { commandRecoveries, recoveryText } from './commandRecoveries';
import type { RanCommand } from './commandRecoveries';
import { agentCorrection, correctionText, negativeKnowledge } from './userLessons';

/**
 * The lessons of one session, deterministic: corrections of the agent (a user turn that answers
 * an assistant turn by rejecting it and saying what to do instead) as error patterns, a failing
 * command followed by the one that worked as a procedure, and statements of absence the user made
 * ("there is no ...", "X was removed", "we don't use ...") as negative knowledge.
 */
export function sessionLessons(r: SqlReader, sessionId: string): SessionLesson[] {
  const lessons: SessionLesson[] = [];
  const turns = r.all<{ role: string; text: string }>(
    "SELECT role, text FROM capture_turns WHERE session_id = ? AND role IN ('user', 'assistant') ORDER BY id",
    [sessionId],
  );
  let answered = false;
  for (const turn of turns) {
    if (turn.role === 'assistant') {
      answered = true;
      continue;
    }
    const correction = answered ? agentCorrection(turn.text) : undefined;
    if (correction)
      lessons.push({
        content: correctionText(correction),
        layer: 'procedural',
        kind: 'error-pattern',
        rule: 'correction',
        importance: 0.6,
      });
    for (const fact of negativeKnowledge(turn.text))
      lessons.push({ content: fact, layer: 'semantic', kind: 'negative', rule: 'negative', importance: 0.5 });
    answered = false;
  }
  const commands = r.all<RanCommand>(
    `SELECT c.command, coalesce(c.exit_code, t.exit_code) AS exitCode, t.status
     FROM capture_commands c LEFT JOIN capture_tool_calls t ON t.session_id = c.session_id AND t.call_id = c.call_id
     WHERE c.session_id = ? ORDER BY c.id`,
    [sessionId],
  );
  for (const recovery of commandRecoveries(commands))
    lessons.push({
      content: recoveryText(recovery),
      layer: 'procedural',
      kind: 'procedure',
      rule: 'recovery',
      importance: 0.5,
    });
  return lessons;
}

/** Writes the lessons of these sessions (rememberLesson). Returns how many were new memories. */
export function writeSessionLessons(store: MemoryStore, sessionIds: readonly string[]): Promise<number> {
  return writeLessons(store, sessionIds, sessionLessons);
}
