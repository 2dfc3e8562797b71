/** Retrieval metrics over a ranked list of document ids and a gold set. */
export function recallAt(ranked: string[], gold: string[], k: number): number {
  if (gold.length === 0) return 0;
  const top = new Set(ranked.slice(0, k));
  return gold.filter((g) => top.has(g)).length / gold.length;
}

export function hitAt(ranked: string[], gold: string[], k: number): number {
  return ranked.slice(0, k).some((id) => gold.includes(id)) ? 1 : 0;
}

/** 1 if every gold document is in the top k. */
export function recallAllAt(ranked: string[], gold: string[], k: number): number {
  return recallAt(ranked, gold, k) === 1 ? 1 : 0;
}

export function ndcgAt(ranked: string[], gold: string[], k: number): number {
  const goldSet = new Set(gold);
  let dcg = 0;
  ranked.slice(0, k).forEach((id, i) => {
    if (goldSet.has(id)) dcg += 1 / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(k, gold.length); i++) ideal += 1 / Math.log2(i + 2);
  return ideal === 0 ? 0 : dcg / ideal;
}

export function reciprocalRank(ranked: string[], gold: string[]): number {
  const index = ranked.findIndex((id) => gold.includes(id));
  return index === -1 ? 0 : 1 / (index + 1);
}

export function mean(values: number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}
