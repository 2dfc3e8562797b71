import type { Kind } from '../memory/types';
import type { MemoryStore } from '../memory/memoryStore';
import type { SqlReader } from '../store/sqlAccess';
import { writeLessons } from './capturedMemory';

export interface StatedConvention {
  kind: Extract<Kind, 'decision' | 'preference'>;
  text: string;
}

/**
 * What a user states as a rule for the project, in the words a teammate would want to read again:
 * a sentence that starts with always / never / don't / do not, "use X, not Y" or "use X instead
 * of Y", "we decided / agreed ...". Only at the start of a sentence, so that "this always fails"
 * is not taken for a rule.
 */
const RULES: ReadonlyArray<{ kind: StatedConvention['kind']; re: RegExp }> = [
  { kind: 'decision', re: /^(?:we|I)\s+(?:have\s+)?(?:decided|agreed)\b/i },
  {
    kind: 'decision',
    re: /^(?:please\s+)?use\s+\S+(?:\s+\S+){0,3}?(?:,\s*|\s+)(?:not|instead of|rather than)\s+\S+/i,
  },
  { kind: 'preference', re: /^(?:please\s+)?(?:always|never|don't|do not)\s+\w+/i },
];
const MAX_SENTENCE = 300;

/** The conventions stated in one user turn, each sentence at most once. */
export function statedConventions(turn: string): StatedConvention[] {
  const found: StatedConvention[] = [];
  // Sentences and clauses: a rule often follows a request ("Fix X. Use Y, not Z.").
  for (const raw of turn.split(/(?<=[.!?;])\s+|\n+/)) {
    const sentence = raw.trim().replace(/^[-*>#\s]+/, '');
    if (sentence.length < 8 || sentence.length > MAX_SENTENCE || sentence.includes('`' + '``')) continue;
    const clause = sentence.split(/,\s+(?=(?:always|never|don't|do not|use)\b)/i);
    for (const part of [sentence, ...clause.slice(1)]) {
      const rule = RULES.find((r) => r.re.test(part));
      if (rule) {
        found.push({ kind: rule.kind, text: sentence });
        break;
      }
    }
  }
  return found;
}

function userTurns(r: SqlReader, sessionId: string): string[] {
  return r
    .all<{ text: string }>(
      "SELECT text FROM capture_turns WHERE session_id = ? AND role = 'user' ORDER BY id",
      [sessionId],
    )
    .map((t) => t.text);
}

/**
 * Writes each convention a user stated in these sessions as a procedural memory (rememberLesson:
 * the write policy, trust `ingest`, the session as provenance). Returns how many were new.
 */
export function writeStatedConventions(store: MemoryStore, sessionIds: readonly string[]): Promise<number> {
  return writeLessons(store, sessionIds, (r, id) =>
    userTurns(r, id).flatMap((turn) =>
      statedConventions(turn).map((c) => ({
        content: c.text,
        layer: 'procedural' as const,
        kind: c.kind,
        rule: 'stated',
        importance: 0.6,
      })),
    ),
  );
}
