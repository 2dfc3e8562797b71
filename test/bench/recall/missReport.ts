import type { BenchQuery } from './datasets';

/** Characters of a document shown per line: enough to see its topic. */
const SNIPPET = 200;

/**
 * What a question missed, for reading (`npm run bench:recall -- --misses CATEGORY`): the question,
 * each gold document with its rank (`-` when not ranked), and the other documents of the top k
 * that stood in its way. Nothing when every gold document is in the top k.
 */
export function missLines(
  query: BenchQuery,
  ranked: readonly string[],
  textOf: (id: string) => string | undefined,
  k: number,
): string[] {
  const top = ranked.slice(0, k);
  if (query.gold.every((id) => top.includes(id))) return [];
  const snippet = (id: string) => (textOf(id) ?? '').slice(0, SNIPPET).replace(/\s*\n\s*/g, ' | ');
  const lines = [`### ${query.id} [${query.category}] ${query.text}`];
  for (const id of query.gold) {
    const rank = ranked.indexOf(id);
    lines.push(`  gold ${id} rank ${rank === -1 ? '-' : rank + 1}: ${snippet(id)}`);
  }
  top.forEach((id, i) => {
    if (!query.gold.includes(id)) lines.push(`  #${i + 1} ${id}: ${snippet(id)}`);
  });
  return lines;
}
