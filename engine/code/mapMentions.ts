import type { ReferenceGraph } from './referenceGraph';

/** What a query names that the index knows: defined identifiers and indexed files. */
export interface Mentions {
  identifiers: string[];
  files: number[];
}

const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*/g;
/**
 * Path-like tokens: `src/a.ts`, `a.ts`, `xarray/core/dataset.py`, `xarray.core.dataset`. Tried
 * only from the first character of a run (the lookbehind): a match inside a run implies one from
 * its start, and retrying every character of a long run made the scan quadratic.
 */
const PATH_LIKE = /(?<![A-Za-z0-9_$@-])[A-Za-z0-9_$@-]+(?:[./\\][A-Za-z0-9_$@-]+)+/g;
/** Shorter names (`i`, `db`, `id`) are too often just words or locals to steer a ranking. */
const MIN_IDENTIFIER = 3;

/**
 * The identifiers and files a free-text query mentions. Identifiers count only when the index
 * defines them (so prose words that are nobody's symbol drop out); a path counts when it is an
 * indexed file's path or a suffix of one at a `/`, with or without its extension, and a dotted
 * module name (`pkg.mod`) counts as the path `pkg/mod`.
 */
export function mentionsIn(query: string, graph: ReferenceGraph): Mentions {
  const identifiers = new Set<string>();
  for (const match of query.matchAll(IDENTIFIER)) {
    const name = match[0];
    if (name.length >= MIN_IDENTIFIER && graph.definers.has(name)) identifiers.add(name);
  }
  const files = new Set<number>();
  const suffixes = new Set<string>();
  for (const match of query.matchAll(PATH_LIKE)) {
    const token = match[0].replace(/\\/g, '/');
    suffixes.add(token);
    if (!token.includes('/')) suffixes.add(token.replace(/\./g, '/'));
  }
  if (suffixes.size > 0)
    graph.paths.forEach((path, node) => {
      const bare = path.replace(/\.[^./]+$/, '');
      const moduleDir = bare.replace(/\/__init__$|\/index$|\/mod$/, '');
      for (const suffix of suffixes)
        if ([path, bare, moduleDir].some((p) => p === suffix || p.endsWith(`/${suffix}`))) {
          files.add(node);
          break;
        }
    });
  return { identifiers: [...identifiers], files: [...files] };
}
