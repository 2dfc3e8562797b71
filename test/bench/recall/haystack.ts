import { createHash } from 'node:crypto';
import type { BenchCorpus } from './datasets';

/**
 * LongMemEval as its own authors run it: each question searches its own user's history, not the
 * pool of every question's sessions. The oracle file holds only each question's evidence sessions,
 * so a question's haystack here is its evidence plus `size` other sessions of the pool, chosen by a
 * fixed rule that reads no text (the smallest sha1(question id + ':' + session id)): unrelated
 * conversations, as LongMemEval's own haystacks mostly are. The bench ranks the whole pool once
 * and keeps the haystack's members in their order, which is the ranking over the haystack alone
 * but for corpus statistics (idf, average length) taken over the pool.
 */
export function haystacks(corpus: BenchCorpus, size: number): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const ids = corpus.docs.map((d) => d.id);
  for (const query of corpus.queries) {
    const gold = new Set(query.gold);
    const others = ids
      .filter((id) => !gold.has(id))
      .map((id) => ({ id, key: createHash('sha1').update(`${query.id}:${id}`).digest('hex') }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .slice(0, size)
      .map((o) => o.id);
    out.set(query.id, new Set([...gold, ...others]));
  }
  return out;
}

/** A ranking over the pool cut to one haystack, best first. */
export function withinHaystack(ranked: readonly string[], haystack: ReadonlySet<string>): string[] {
  return ranked.filter((id) => haystack.has(id));
}
