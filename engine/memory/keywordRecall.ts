import type { SqlReader } from '../store/sqlAccess';
import { CURRENT_SELECT, toMemory } from './rows';
import type { MemoryRow } from './rows';
import type { Layer, Memory } from './types';

export interface KeywordHit {
  memory: Memory;
  score: number;
  matched: string[];
}

const STOPWORDS = new Set(
  'a an and are as at be by did do does for from had has have how i in is it its of on or that the this to was were what when where which who why with you'.split(
    ' ',
  ),
);

export function queryTerms(query: string): string[] {
  const terms = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}_./-]+/u)
    .map((t) => t.replace(/^[./-]+|[./-]+$/g, ''))
    .filter((t) => t.length >= 2 && !STOPWORDS.has(t));
  return [...new Set(terms)].slice(0, 16);
}

/**
 * A plain keyword match over current, active memories: a memory scores the number of distinct
 * query terms its content, context or tags contain, with importance and pinning breaking ties.
 */
export function keywordRecall(reader: SqlReader, query: string, k: number, layer?: Layer): KeywordHit[] {
  const terms = queryTerms(query);
  if (terms.length === 0) return [];
  const haystack = "lower(m.content || ' ' || coalesce(m.context, '') || ' ' || m.tags)";
  const anyTerm = terms.map(() => `instr(${haystack}, ?) > 0`).join(' OR ');
  const rows = reader.all<MemoryRow>(
    `${CURRENT_SELECT} WHERE m.superseded_at IS NULL AND m.status = 'active'${layer ? ' AND m.layer = ?' : ''} AND (${anyTerm}) LIMIT 5000`,
    [...(layer ? [layer] : []), ...terms],
  );
  return rows
    .map((row) => {
      const memory = toMemory(row);
      const text = `${memory.content} ${memory.context ?? ''} ${memory.tags.join(' ')}`.toLowerCase();
      const matched = terms.filter((term) => text.includes(term));
      const score = matched.length + memory.importance * 0.5 + (memory.pinned ? 0.25 : 0);
      return { memory, score, matched };
    })
    .sort((a, b) => b.score - a.score || b.memory.recordedAt - a.memory.recordedAt)
    .slice(0, k);
}
