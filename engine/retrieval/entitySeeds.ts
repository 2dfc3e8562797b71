import type { SqlReader } from '../store/sqlAccess';
import { activeMemoryCount, cachedEntityName, entityLinkCount } from './storeCounts';
import type { CountedDatabase } from './storeCounts';
import { queryTerms } from '../lexical/tokenizer';

/**
 * Query entities weighted by how selective they are: idf normalised to 0..1 by ln(N). An entity in
 * a large share of all memories (a speaker's name in every turn) says little about which memory
 * is meant, and as a seed it would flood the graph channels; below 0.15 it is dropped.
 */
export function selectiveSeeds(
  db: CountedDatabase,
  reader: SqlReader,
  entities: Map<number, number>,
): Map<number, number> {
  const total = activeMemoryCount(db, reader);
  const seeds = new Map<number, number>();
  if (total < 2) return new Map(entities);
  for (const [id, weight] of entities) {
    const df = entityLinkCount(db, reader, id);
    if (df === 0) continue;
    const selectivity = Math.log(total / Math.min(df, total)) / Math.log(total);
    if (selectivity >= 0.15) seeds.set(id, weight * selectivity);
  }
  return seeds;
}

/**
 * Query entities whose every word is a query term: the lexical channel already scores the memories
 * that name them, so seeding the graph channels with them would count the same evidence twice
 * (measured: "python" in CoSQA questions pulled the few docstrings that say "Python" above the code
 * that answers, MRR 0.321 -> 0.285). An entity reached through an alias (the query says "login",
 * the entity is src/auth/login.ts) is not lexically matched and seeds them.
 */
export function lexicallyMatched(
  db: CountedDatabase,
  reader: SqlReader,
  seeds: Map<number, number>,
  terms: readonly string[],
): Set<number> {
  const words = new Set(terms);
  const matched = new Set<number>();
  for (const id of seeds.keys()) {
    const name = cachedEntityName(db, reader, id);
    const nameTerms = name === undefined ? [] : queryTerms(name);
    if (nameTerms.length > 0 && nameTerms.every((t) => words.has(t))) matched.add(id);
  }
  return matched;
}
