/**
 * The best `depth` of a channel's scores, best first, ties by memory id (`localeCompare`, as every
 * channel orders them), keeping only the memories in `only` when given: the same list as sorting
 * every score, cutting it to `depth` and then dropping those outside `only`. PageRank scores
 * thousands of memories for a query whose entity is common, and it only re-ranks what the text
 * channels found (recall.ts, supportOnly): sorting them all with the id comparator was a tenth of
 * a recall at 10k memories. Here the cut is found on the bare numbers (a typed-array sort), and
 * only the kept memories are sorted with the comparator.
 */
export function scoredTop(
  scores: ReadonlyMap<number, number>,
  memoryIds: readonly string[],
  depth: number,
  only?: ReadonlySet<string>,
): Array<{ memoryId: string; score: number }> {
  const values = Float64Array.from(scores.values()).sort();
  // The depth-th best score; above it every memory is in, at it the first by id.
  const cut = values.length > depth ? values[values.length - depth]! : -Infinity;
  let atCut: Set<number> | undefined;
  if (values.length > depth) {
    let above = 0;
    for (let i = values.length - 1; i >= 0 && values[i]! > cut; i--) above++;
    const tied = [...scores].filter(([, score]) => score === cut).map(([index]) => index);
    tied.sort((a, b) => memoryIds[a]!.localeCompare(memoryIds[b]!));
    atCut = new Set(tied.slice(0, depth - above));
  }
  const kept: Array<{ memoryId: string; score: number }> = [];
  for (const [index, score] of scores) {
    if (score < cut || (score === cut && !atCut!.has(index))) continue;
    const memoryId = memoryIds[index]!;
    if (only && !only.has(memoryId)) continue;
    kept.push({ memoryId, score });
  }
  return kept.sort((a, b) => b.score - a.score || a.memoryId.localeCompare(b.memoryId));
}
