import type { SqlReader } from '../../store/sqlAccess';
import { CURRENT_SELECT, toMemory } from '../../memory/rows';
import type { MemoryRow } from '../../memory/rows';
import { tokenCount, truncateToTokens } from '../../retrieval/tokenCount';
import { summaryMemory } from '../sessionFacts';
import { openThreads } from './openThreads';
import { markedContent } from '../../memory/negativeKnowledge';
import { visibleCondition } from '../../memory/visibility';
import type { Viewer } from '../../memory/visibility';

type Visible = ReturnType<typeof visibleCondition>;

/** @default 1500 tokens, as `context`. */
export const DEFAULT_PRIME_BUDGET = 1500;
/** One line at most this many tokens: a long summary must not take a section's whole room. */
const LINE_TOKENS = 90;

export type PrimeSection = 'pinned' | 'sessions' | 'threads' | 'decisions' | 'drift';

export interface PrimeBlock {
  text: string;
  tokens: number;
  budget: number;
  branch: string | null;
  /** The memories cited, in order, with their section. */
  included: Array<{ id: string; section: PrimeSection }>;
  /** Lines left out for the budget. */
  omitted: number;
}

interface Line {
  /** The memory the line cites (a session's summary for a session's thread). */
  id: string;
  text: string;
}

const TITLES: Record<PrimeSection, string> = {
  pinned: '### Pinned and critical',
  sessions: '### Last sessions',
  threads: '### Open threads',
  decisions: '### Recent decisions',
  drift: '### Drift warnings (check before relying on these)',
};
/** Lines a section takes at most, so the later sections keep room. */
const CAPS: Record<PrimeSection, number> = { pinned: 10, sessions: 5, threads: 6, decisions: 6, drift: 5 };

const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
const day = (time: number | null | undefined) =>
  time === null || time === undefined ? 'undated' : new Date(time).toISOString().slice(0, 10);

function pinned(r: SqlReader, visible: Visible): Line[] {
  return r
    .all<MemoryRow>(
      `${CURRENT_SELECT} WHERE m.superseded_at IS NULL AND m.status = 'active' AND (s.pinned = 1 OR m.critical = 1)
       AND ${visible.sql} ORDER BY m.critical DESC, m.importance DESC, m.recorded_at DESC LIMIT ?`,
      [...visible.params, CAPS.pinned],
    )
    .map(toMemory)
    .map((m) => ({ id: m.id, text: `(${m.kind}) ${markedContent(m, flat(m.content))}` }));
}

/** The last sessions' summaries: this branch's first (three), then the others' (two). */
function lastSessions(r: SqlReader, branch: string | null, visible: Visible): Line[] {
  const query = (sameBranch: boolean, limit: number) =>
    r.all<{ id: string; content: string }>(
      `SELECT m.id, m.content FROM memories m JOIN capture_sessions c ON m.conflict_key = 'capture:' || c.id
       WHERE m.superseded_at IS NULL AND m.status = 'active' AND m.kind = 'summary'
         AND (coalesce(c.git_branch, '') = coalesce(?, '')) = ? AND ${visible.sql}
       ORDER BY coalesce(c.ended_at, c.started_at, 0) DESC LIMIT ?`,
      [branch, sameBranch ? 1 : 0, ...visible.params, limit],
    );
  return [...query(true, 3), ...query(false, 2)].map((m) => ({ id: m.id, text: flat(m.content) }));
}

function threads(r: SqlReader): Line[] {
  return openThreads(r).map((t) => {
    const summary = summaryMemory(r, t.sessionId)?.id;
    return { id: summary ?? `session ${t.sessionId.slice(0, 8)}`, text: `${t.text} (${day(t.at)})` };
  });
}

function decisions(r: SqlReader, shown: ReadonlySet<string>, visible: Visible): Line[] {
  return r
    .all<{ id: string; kind: string; content: string; recorded_at: number }>(
      `SELECT m.id AS id, m.kind AS kind, m.content AS content, m.recorded_at AS recorded_at FROM memories m
       WHERE m.superseded_at IS NULL AND m.status = 'active' AND m.kind IN ('decision', 'preference')
       AND ${visible.sql} ORDER BY m.recorded_at DESC LIMIT ?`,
      [...visible.params, CAPS.decisions + shown.size],
    )
    .filter((m) => !shown.has(m.id))
    .map((m) => ({ id: m.id, text: `(${m.kind}, ${day(m.recorded_at)}) ${flat(m.content)}` }));
}

function driftWarnings(r: SqlReader, visible: Visible): Line[] {
  return r
    .all<{ id: string; content: string; status: string }>(
      `SELECT m.id, m.content, d.status FROM drift_memories d JOIN memories m ON m.id = d.memory_id
       WHERE m.superseded_at IS NULL AND m.status = 'active' AND d.status IN ('stale', 'dead', 'moved')
       AND ${visible.sql} ORDER BY d.checked_at DESC LIMIT ?`,
      [...visible.params, CAPS.drift],
    )
    .map((m) => ({ id: m.id, text: `(${m.status}) ${flat(m.content)}` }));
}

/**
 * The block a fresh session on this workspace and branch starts with: pinned and critical
 * memories, the last sessions' summaries, open threads (failing commands, stated TODOs), recent
 * decisions, drift warnings; each line with the memory it cites, the whole within `budget`
 * tokens as the real tokenizer counts them. Sections come in that order and each takes a few
 * lines at most, so a long first section never crowds out the others.
 */
export function primeBlock(
  r: SqlReader,
  options: { branch: string | null; budget?: number; viewer?: Viewer },
): PrimeBlock {
  const budget = options.budget ?? DEFAULT_PRIME_BUDGET;
  // An agent is primed with what it may read: not another agent's private memories.
  const visible = visibleCondition(options.viewer);
  const pins = pinned(r, visible);
  const sections: Array<[PrimeSection, Line[]]> = [
    ['pinned', pins],
    ['sessions', lastSessions(r, options.branch, visible)],
    ['threads', threads(r)],
    ['decisions', decisions(r, new Set(pins.map((p) => p.id)), visible)],
    ['drift', driftWarnings(r, visible)],
  ];
  const header = `## Engram: where this project stands${options.branch ? ` (branch ${options.branch})` : ''}; cite memories by id`;
  const lines = [header];
  const included: PrimeBlock['included'] = [];
  let used = tokenCount(header) + 1;
  let omitted = 0;
  for (const [section, all] of sections) {
    const title = TITLES[section];
    let titled = false;
    for (const line of all.slice(0, CAPS[section])) {
      const prefix = `- [${line.id}] `;
      const text = `${prefix}${truncateToTokens(line.text, LINE_TOKENS)}`;
      const cost = tokenCount(text) + 1 + (titled ? 0 : tokenCount(title) + 1);
      if (used + cost > budget) {
        omitted++;
        continue;
      }
      if (!titled) lines.push(title);
      titled = true;
      lines.push(text);
      used += cost;
      if (!line.id.startsWith('session ')) included.push({ id: line.id, section });
    }
    omitted += Math.max(0, all.length - CAPS[section]);
  }
  // Nothing but the header: nothing to say.
  let text = lines.length > 1 ? lines.join('\n') : '';
  // Token counts of lines add up to the block's within a token or two; never past the budget.
  while (text !== '' && tokenCount(text) > budget) {
    lines.pop();
    omitted++;
    text = lines.length > 1 ? lines.join('\n') : '';
  }
  const cited = included.filter((i) => text.includes(`[${i.id}]`));
  return {
    text,
    tokens: text === '' ? 0 : tokenCount(text),
    budget,
    branch: options.branch,
    included: cited,
    omitted,
  };
}
