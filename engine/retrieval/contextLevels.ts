import { markedContent } from '../memory/negativeKnowledge';
import { LAYERS } from '../memory/types';
import type { Kind, Memory } from '../memory/types';
import type { SqlReader } from '../store/sqlAccess';
import { pinnedMemories } from './contextBuilder';
import { visibleCondition } from '../memory/visibility';
import type { Viewer } from '../memory/visibility';
import { peerCardLine, peerCards } from './peerCards';
import { recall } from './recall';
import { storedCardLines } from './storedCardLines';
import type { ContextSources } from './recallSources';
import { tokenCount, truncateToTokens } from './tokenCount';

/**
 * Graduated context (seed 003's L0-L3): a block in four levels, broadest first, each with its own
 * token count, all within one budget.
 * - L0 identity: pinned and critical memories, whatever the query;
 * - L1 layers: one line per memory layer (how many memories, of which kinds, the most important);
 * - L2 peer cards: the well-connected entities, those of the query's hits first: the cards the
 *   lifecycle stored (storedCardLines.ts), or computed ones (peerCards.ts) before its first run;
 * - L3 search: the query's recall hits not already in L0 (nothing without a query).
 * Each level may spend its share of the budget; what it leaves passes to the next, so a store
 * without pins gives the search more room.
 */
export const LEVELS = ['L0', 'L1', 'L2', 'L3'] as const;
export type Level = (typeof LEVELS)[number];

const SHARE: Record<Level, number> = { L0: 0.25, L1: 0.15, L2: 0.25, L3: 0.35 };
const TITLE: Record<Level, string> = {
  L0: '### L0 Identity: pinned and critical',
  L1: '### L1 Layers',
  L2: '### L2 Entities',
  L3: '### L3 Search',
};
const MAX_CARDS = 8;
/** A line cut shorter than this says too little to be worth its tokens. */
const MIN_LINE_TOKENS = 24;

export interface LevelOptions {
  query?: string;
  /** @default 1500 */
  budget?: number;
  session?: string;
  /** Who reads: another agent's private memories are left out of every level (visibility.ts). */
  viewer?: Viewer;
  /** Record the search's access, as recall does. @default true */
  noteAccess?: boolean;
}

export interface ContextLevelBlock {
  level: Level;
  text: string;
  tokens: number;
  /** What the level could spend: its share plus what the levels before it left. */
  budget: number;
  /** Lines it holds, and lines that did not fit. */
  lines: number;
  omitted: number;
  /** Memories it names by id, in order. */
  ids: string[];
}

export interface LevelledContext {
  text: string;
  tokens: number;
  budget: number;
  levels: ContextLevelBlock[];
}

interface Line {
  text: string;
  id?: string;
}

export async function buildLevelledContext(
  sources: ContextSources,
  options: LevelOptions,
): Promise<LevelledContext> {
  const budget = options.budget ?? 1500;
  const { store } = sources;
  const pinned = store.read((r) => pinnedMemories(r, options.viewer));
  let hits: Memory[] = [];
  if (options.query !== undefined) {
    await sources.ensureVectors();
    const shown = new Set(pinned.map((m) => m.id));
    const found = await recall(
      sources,
      {
        query: options.query,
        k: 20,
        session: options.session,
        viewer: options.viewer,
        noteAccess: options.noteAccess,
      },
      sources.vectors,
    );
    hits = found.hits.map((h) => h.memory).filter((m) => !shown.has(m.id));
  }
  const lines: Record<Level, Line[]> = store.read((r) => ({
    L0: pinned.map(memoryLine),
    L1: layerLines(r, options.viewer),
    L2: l2Lines(
      r,
      hits.map((m) => m.id),
    ),
    L3: hits.map(memoryLine),
  }));

  const levels: ContextLevelBlock[] = [];
  let carry = 0;
  for (const level of LEVELS) {
    const room = Math.floor(budget * SHARE[level]) + carry;
    const block = fitLevel(level, lines[level], room);
    levels.push(block);
    carry = room - block.tokens;
  }
  const text = levels
    .map((l) => l.text)
    .filter(Boolean)
    .join('\n\n');
  return { text, tokens: text === '' ? 0 : tokenCount(text), budget, levels };
}

function l2Lines(r: SqlReader, prefer: readonly string[]): Line[] {
  const stored = storedCardLines(r, MAX_CARDS, prefer);
  if (stored.length > 0) return stored;
  return peerCards(r, MAX_CARDS, prefer).map((card) => ({ text: peerCardLine(card) }));
}

/** The level's title and as many of its lines as fit `room` tokens (the last one cut if worth it). */
function fitLevel(level: Level, lines: Line[], room: number): ContextLevelBlock {
  const title = TITLE[level];
  const kept: string[] = [];
  const ids: string[] = [];
  // The joining newlines of the whole block are counted with the title.
  let used = tokenCount(title) + 2;
  for (const line of lines) {
    const left = room - used - 1;
    const cost = tokenCount(line.text);
    if (cost > left && left < MIN_LINE_TOKENS) break;
    const text = cost <= left ? line.text : truncateToTokens(line.text, left);
    kept.push(text);
    if (line.id) ids.push(line.id);
    used += tokenCount(text) + 1;
  }
  const text = kept.length === 0 ? '' : [title, ...kept].join('\n');
  return {
    level,
    text,
    tokens: text === '' ? 0 : tokenCount(text),
    budget: room,
    lines: kept.length,
    omitted: lines.length - kept.length,
    ids,
  };
}

function memoryLine(memory: Memory): Line {
  const content = markedContent(memory, memory.content.replace(/\s+/g, ' ').trim());
  return { id: memory.id, text: `- [${memory.id}] (${memory.kind}) ${content}` };
}

/** `- semantic: 42 memories (20 fact, 12 decision, 10 preference); most important [id]: ...`. */
function layerLines(r: SqlReader, viewer: Viewer): Line[] {
  const visible = visibleCondition(viewer);
  const counts = r.all<{ layer: string; kind: string; n: number }>(
    `SELECT m.layer AS layer, m.kind AS kind, count(*) AS n FROM memories m
     WHERE m.superseded_at IS NULL AND m.status = 'active' AND ${visible.sql}
     GROUP BY m.layer, m.kind ORDER BY n DESC, m.kind`,
    visible.params,
  );
  const lines: Line[] = [];
  for (const layer of LAYERS) {
    const kinds = counts.filter((c) => c.layer === layer);
    if (kinds.length === 0) continue;
    const total = kinds.reduce((sum, c) => sum + c.n, 0);
    const top = r.get<{ id: string; content: string; kind: Kind }>(
      `SELECT m.id AS id, m.content AS content, m.kind AS kind FROM memories m
       WHERE m.superseded_at IS NULL AND m.status = 'active' AND m.layer = ? AND ${visible.sql}
       ORDER BY m.importance DESC, m.valid_from DESC, m.id LIMIT 1`,
      [layer, ...visible.params],
    );
    const kindList = kinds
      .slice(0, 3)
      .map((c) => `${c.n} ${c.kind}`)
      .join(', ');
    const excerpt = top ? markedContent(top, top.content.replace(/\s+/g, ' ').trim()).slice(0, 100) : '';
    lines.push({
      text: `- ${layer}: ${total} memor${total === 1 ? 'y' : 'ies'} (${kindList}${kinds.length > 3 ? ', ...' : ''}); most important [${top?.id}]: ${excerpt}`,
    });
  }
  return lines;
}

/** The block for a reader (CLI, MCP text): its levels, then each level's tokens against what it could spend. */
export function levelledText(block: LevelledContext): string {
  const levels = block.levels.map(
    (l) => `${l.level} ${l.tokens}/${l.budget}${l.omitted ? ` (${l.omitted} left out)` : ''}`,
  );
  return `${block.text || '(no memories)'}\n\n(${levels.join(', ')}; ${block.tokens} of ${block.budget} tokens)`;
}
