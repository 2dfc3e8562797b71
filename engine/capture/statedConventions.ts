import type { Kind } from '../memory/types';
import type { MemoryStore } from '../memory/memoryStore';
import type { SqlReader } from '../store/sqlAccess';

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
 * Writes each convention a user stated in these sessions as a memory through the normal write
 * policy (a restatement in another session confirms the memory already there): procedural, trust
 * `ingest`, tagged `capture`, with the session as provenance. Returns how many were new.
 */
export async function writeStatedConventions(
  store: MemoryStore,
  sessionIds: readonly string[],
): Promise<number> {
  let written = 0;
  for (const id of sessionIds) {
    const agent = store.read((r) =>
      r.value<string>('SELECT agent FROM capture_sessions WHERE id = ? AND parent_id IS NULL', [id]),
    );
    if (agent === undefined) continue;
    for (const turn of store.read((r) => userTurns(r, id))) {
      for (const convention of statedConventions(turn)) {
        // Each run reads the whole session again: what it already gave is not confirmed twice.
        const known = store.read((r) =>
          r.value(
            'SELECT 1 FROM memories WHERE session = ? AND content = ? AND superseded_at IS NULL LIMIT 1',
            [id, convention.text],
          ),
        );
        if (known !== undefined) continue;
        const result = store.remember(
          {
            content: convention.text,
            layer: 'procedural',
            kind: convention.kind,
            tags: ['capture', 'stated', agent],
            importance: 0.6,
            source: { conversation: id },
            session: id,
            agent,
            trust: 'ingest',
          },
          { agent, session: id, trust: 'ingest' },
        );
        if (result.outcome === 'added') written++;
      }
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return written;
}
