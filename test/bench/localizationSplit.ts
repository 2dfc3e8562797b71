/**
 * The fixed rule that splits the localisation benchmark's repositories into a tuning half and a
 * reporting half, decided before any figure of the code channel was measured: repositories sorted
 * by their number of instances in the whole instances file (most first, ties by name) go
 * alternately to tuning and reporting, starting with tuning. On the SWE-bench Verified development
 * file: tuning = django (231, not fetchable here), pytest (19), requests (8), flask (1);
 * reporting = xarray (22), pylint (10), seaborn (2). Parameters are tuned on the tuning half only;
 * the reporting half is measured, never looked at while tuning.
 */
export type Half = 'tuning' | 'reporting';

export function splitRepositories(instances: ReadonlyArray<{ repo: string }>): Map<string, Half> {
  const counts = new Map<string, number>();
  for (const { repo } of instances) counts.set(repo, (counts.get(repo) ?? 0) + 1);
  const order = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([repo]) => repo);
  return new Map(order.map((repo, i) => [repo, i % 2 === 0 ? 'tuning' : 'reporting']));
}
