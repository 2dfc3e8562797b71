import type { SqlReader } from '../store/sqlAccess';

/**
 * The file-level reference graph of the code index: an edge from file A to file B for every
 * identifier A uses that B defines (with how often A uses it), and for every import of A that
 * resolved to B. Edge weights are left to the ranker, since they depend on the query.
 */
export interface ReferenceGraph {
  /** Node index -> workspace-relative path, sorted. */
  paths: string[];
  nodeOf: Map<string, number>;
  /** Exported identifier -> the files defining it (at most MAX_DEFINERS). */
  definers: Map<string, number[]>;
  /** Interned identifier of each reference edge; -1 for an import-only edge. */
  names: string[];
  edges: {
    from: Int32Array;
    to: Int32Array;
    /** Index into `names`, or -1. */
    name: Int32Array;
    /** Uses of the identifier in `from` (1 for an import). */
    count: Float64Array;
  };
  /** Symbols defined per file, so files without any can be left out of a map. */
  symbolCount: Int32Array;
}

/**
 * A name defined in more files than this (`create`, `constructor`, `name`) says nothing about which
 * file a use means: it makes no edges. Also bounds the edges per use on large repositories.
 */
export const MAX_DEFINERS = 25;

export function loadReferenceGraph(r: SqlReader): ReferenceGraph {
  const files = r.all<{ id: number; path: string }>('SELECT id, path FROM code_files ORDER BY path');
  const nodeOf = new Map<string, number>();
  const nodeOfId = new Map<number, number>();
  files.forEach((f, node) => {
    nodeOf.set(f.path, node);
    nodeOfId.set(f.id, node);
  });
  const symbolCount = new Int32Array(files.length);
  const defined = new Map<string, Set<number>>();
  const symbols = r.all<{ fileId: number; name: string; exported: number }>(
    'SELECT file_id AS fileId, name, exported FROM code_symbols',
  );
  for (const s of symbols) {
    const node = nodeOfId.get(s.fileId);
    if (node === undefined) continue;
    symbolCount[node]!++;
    // Only a file's public surface can be used from another file (a test's local `const node`
    // is not what `node` in the parser means).
    if (s.exported !== 1) continue;
    let set = defined.get(s.name);
    if (!set) defined.set(s.name, (set = new Set()));
    set.add(node);
  }
  const definers = new Map<string, number[]>();
  for (const [name, set] of defined) if (set.size <= MAX_DEFINERS) definers.set(name, [...set]);

  const builder = new EdgeBuilder();
  for (const row of r.all<{ fileId: number; names: string }>(
    'SELECT file_id AS fileId, names FROM code_references',
  )) {
    const from = nodeOfId.get(row.fileId);
    if (from === undefined) continue;
    const used = JSON.parse(row.names) as Record<string, number>;
    for (const [name, count] of Object.entries(used)) {
      const targets = definers.get(name);
      if (!targets) continue;
      for (const to of targets) if (to !== from) builder.add(from, to, name, count);
    }
  }
  const imports = r.all<{ fileId: number; resolved: string }>(
    'SELECT DISTINCT file_id AS fileId, resolved_path AS resolved FROM code_imports WHERE resolved_path IS NOT NULL',
  );
  for (const row of imports) {
    const from = nodeOfId.get(row.fileId);
    const to = nodeOf.get(row.resolved);
    if (from !== undefined && to !== undefined && from !== to) builder.add(from, to, null, 1);
  }
  return { paths: files.map((f) => f.path), nodeOf, definers, symbolCount, ...builder.done() };
}

/** Grows typed edge arrays and interns identifiers. */
class EdgeBuilder {
  private from: number[] = [];
  private to: number[] = [];
  private name: number[] = [];
  private count: number[] = [];
  private readonly names: string[] = [];
  private readonly nameIndex = new Map<string, number>();

  add(from: number, to: number, name: string | null, count: number): void {
    let index = -1;
    if (name !== null) {
      index = this.nameIndex.get(name) ?? -1;
      if (index < 0) {
        index = this.names.push(name) - 1;
        this.nameIndex.set(name, index);
      }
    }
    this.from.push(from);
    this.to.push(to);
    this.name.push(index);
    this.count.push(count);
  }

  done(): Pick<ReferenceGraph, 'names' | 'edges'> {
    return {
      names: this.names,
      edges: {
        from: Int32Array.from(this.from),
        to: Int32Array.from(this.to),
        name: Int32Array.from(this.name),
        count: Float64Array.from(this.count),
      },
    };
  }
}

/**
 * What the index looks like now, cheaply: a graph built for one version is valid while it holds.
 * Every scan adds a `code_scans` row, so a finished scan changes the version; a scan still running
 * writes batch by batch, so while one runs there is no version (undefined: do not cache).
 */
export function indexVersion(r: SqlReader): string | undefined {
  const last = r.get<{ generation: number; status: string }>(
    'SELECT generation, status FROM code_scans ORDER BY generation DESC LIMIT 1',
  );
  if (last?.status === 'running') return undefined;
  const files = r.value<number>('SELECT count(*) FROM code_files') ?? 0;
  return `${last?.generation ?? 0}:${files}`;
}
