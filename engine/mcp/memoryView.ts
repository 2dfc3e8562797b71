import { z } from 'zod';
import { truncateToTokens } from '../retrieval/tokenCount';
import type { Memory, MemoryVersion } from '../memory/types';
import { KINDS, LAYERS, SCOPES, STATUSES } from '../memory/types';
import { isNegative, markedContent } from '../memory/negativeKnowledge';

/**
 * A memory as tools return it: the fields an agent reasons with, times as ISO text. The full row
 * (trust, hashes, source, counters) is in memory_get.
 */
export const memoryViewSchema = z.object({
  id: z.string(),
  version: z.number(),
  layer: z.enum(LAYERS),
  kind: z.enum(KINDS),
  content: z.string(),
  tags: z.array(z.string()),
  importance: z.number(),
  status: z.enum(STATUSES),
  statusReason: z.string().nullable(),
  scope: z.enum(SCOPES),
  agent: z.string().nullable(),
  conflictKey: z.string().nullable(),
  validFrom: z.string(),
  validTo: z.string().nullable(),
  recordedAt: z.string(),
  pinned: z.boolean().optional(),
  critical: z.boolean(),
  /** True for negative knowledge: the content says something does not exist or must not be done. */
  negative: z
    .boolean()
    .optional()
    .describe('negative knowledge: the content says something does NOT exist or must NOT be done'),
  /** Set when the content was cut to fit the token budget; memory_get has the whole text. */
  truncated: z.boolean().optional(),
});
export type MemoryView = z.infer<typeof memoryViewSchema>;

const iso = (ms: number) => new Date(ms).toISOString();

export function memoryView(memory: Memory | MemoryVersion): MemoryView {
  return {
    id: memory.id,
    version: memory.version,
    layer: memory.layer,
    kind: memory.kind,
    content: memory.content,
    tags: memory.tags,
    importance: memory.importance,
    status: memory.status,
    statusReason: memory.statusReason,
    scope: memory.scope,
    agent: memory.agent,
    conflictKey: memory.conflictKey,
    validFrom: iso(memory.validFrom),
    validTo: memory.validTo === null ? null : iso(memory.validTo),
    recordedAt: iso(memory.recordedAt),
    ...('pinned' in memory ? { pinned: memory.pinned } : {}),
    critical: memory.critical,
    ...(isNegative(memory) ? { negative: true } : {}),
  };
}

/** Cuts a memory's content so the view fits `budget` tokens (the rest of the fields cost ~150). */
export function shrinkMemoryView(view: MemoryView, budget: number): MemoryView {
  return { ...view, content: truncateToTokens(view.content, Math.max(50, budget - 200)), truncated: true };
}

/** One line per memory for the readable text: `[id] layer/kind: content`. */
export function memoryLine(view: MemoryView): string {
  const flags = [view.status !== 'active' ? view.status : '', view.pinned ? 'pinned' : ''].filter(Boolean);
  return `[${view.id}] ${view.layer}/${view.kind}${flags.length ? ` (${flags.join(', ')})` : ''}: ${markedContent(view, view.content)}`;
}
