import { CURRENT_SELECT, toMemory } from '../memory/rows';
import type { MemoryRow } from '../memory/rows';
import { injectedIds, markInjected } from '../memory/injectionLedger';
import type { SqlReader, SqlWriter } from '../store/sqlAccess';
import type { Memory } from '../memory/types';
import { markedContent } from '../memory/negativeKnowledge';
import { recall } from './recall';
import { visibleCondition } from '../memory/visibility';
import type { Viewer } from '../memory/visibility';
import type { ContextSources } from './recallSources';
import { tokenCount, truncateToTokens } from './tokenCount';

/** A context block's token budget, for every host: from a one-line block to a large model's window. */
export const MIN_CONTEXT_BUDGET = 50;
export const MAX_CONTEXT_BUDGET = 200_000;

export interface ContextOptions {
  query: string;
  /** Token budget of the whole block. @default 1500 */
  budget?: number;
  /** Conversation whose injection ledger to honour (defaults to the session). */
  conversation?: string;
  session?: string;
  /** Who reads: another agent's private memories are left out (visibility.ts). */
  viewer?: Viewer;
  /** Memories to consider from recall. @default 20 */
  k?: number;
}

export interface ContextBlock {
  text: string;
  tokens: number;
  budget: number;
  /** Memories in the block, in order, with the section they are in. */
  included: Array<{ id: string; section: 'pinned' | 'relevant'; truncated: boolean }>;
  /** Memories left out: already in the conversation, or over the budget. */
  skipped: Array<{ id: string; reason: 'already injected' | 'over budget' }>;
}

/** Pinned and critical memories always lead, whatever the query. */
const MAX_PINNED = 20;

/**
 * Builds the block an agent pastes into its prompt: pinned and critical memories first, then the
 * query's ranked memories, each line with its id so the agent can cite it, cut to fit `budget`
 * tokens counted with a real tokenizer, and without what the conversation already received.
 */
export async function buildContext(sources: ContextSources, options: ContextOptions): Promise<ContextBlock> {
  await sources.ensureVectors();
  const { store } = sources;
  const budget = options.budget ?? 1500;
  const conversation = options.conversation ?? options.session;
  const pinned = store.read((r) => pinnedMemories(r, options.viewer));
  const ranked = (
    await recall(
      sources,
      { query: options.query, k: options.k ?? 20, session: options.session, viewer: options.viewer },
      sources.vectors,
    )
  ).hits.map((h) => h.memory);
  const candidates: Array<{ memory: Memory; section: 'pinned' | 'relevant' }> = [
    ...pinned.map((memory) => ({ memory, section: 'pinned' as const })),
    ...ranked
      .filter((m) => !pinned.some((p) => p.id === m.id))
      .map((memory) => ({ memory, section: 'relevant' as const })),
  ];
  const already = new Set(
    conversation === undefined
      ? []
      : store.read((r) =>
          injectedIds(
            r,
            conversation,
            candidates.map((c) => c.memory.id),
          ),
        ),
  );

  const header = (count: number) => `## Engram memory (${count} of this project's memories; cite them by id)`;
  const sectionTitle = {
    pinned: '### Pinned and critical',
    relevant: `### Relevant to: ${options.query.slice(0, 120)}`,
  };
  const lines: string[] = [];
  const included: ContextBlock['included'] = [];
  const skipped: ContextBlock['skipped'] = [];
  let used = tokenCount(header(99)) + 2;
  let currentSection: 'pinned' | 'relevant' | undefined;
  for (const { memory, section } of candidates) {
    if (already.has(memory.id)) {
      skipped.push({ id: memory.id, reason: 'already injected' });
      continue;
    }
    const title = section !== currentSection ? sectionTitle[section] : undefined;
    const titleCost = title ? tokenCount(title) + 1 : 0;
    const prefix = `- [${memory.id}] (${memory.kind}, ${new Date(memory.validFrom).toISOString().slice(0, 10)}) `;
    const room = budget - used - titleCost - tokenCount(prefix) - 1;
    const content = markedContent(memory, memory.content.replace(/\s+/g, ' ').trim());
    const fits = tokenCount(content) <= room;
    if (!fits && room < 24) {
      skipped.push({ id: memory.id, reason: 'over budget' });
      continue;
    }
    const text = fits ? content : truncateToTokens(content, room);
    if (title) {
      lines.push(title);
      currentSection = section;
    }
    const line = `${prefix}${text}`;
    lines.push(line);
    used += titleCost + tokenCount(line) + 1;
    included.push({ id: memory.id, section, truncated: !fits });
  }
  const body = included.length === 0 ? '' : [header(included.length), ...lines].join('\n');
  return { text: body, tokens: body === '' ? 0 : tokenCount(body), budget, included, skipped };
}

/** Pinned and critical memories, critical first, then by importance: what leads every block. */
export function pinnedMemories(r: SqlReader, viewer?: Viewer): Memory[] {
  const visible = visibleCondition(viewer);
  return r
    .all<MemoryRow>(
      `${CURRENT_SELECT} WHERE m.superseded_at IS NULL AND m.status = 'active' AND (s.pinned = 1 OR m.critical = 1) AND ${visible.sql} ORDER BY m.critical DESC, m.importance DESC, m.recorded_at DESC LIMIT ?`,
      [...visible.params, MAX_PINNED],
    )
    .map(toMemory);
}

/** Records the block's memories in the conversation's injection ledger. */
export function markContextInjected(
  tx: SqlWriter,
  conversation: string | undefined,
  block: ContextBlock,
  now: number,
): void {
  if (conversation === undefined || block.included.length === 0) return;
  markInjected(
    tx,
    conversation,
    block.included.map((m) => m.id),
    now,
  );
}
