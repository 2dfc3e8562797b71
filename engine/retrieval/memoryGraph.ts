import type { SqlReader } from '../store/sqlAccess';

/**
 * The bipartite entity-memory graph in compressed adjacency arrays, for the graph channel and
 * personalised PageRank: walking it from SQLite row by row would cost a query per node.
 * Memories are identified by document number, entities by id; both are mapped to dense indexes.
 */
export class MemoryGraph {
  private constructor(
    /** Dense index -> entity id, and back. */
    readonly entityIds: Int32Array,
    readonly entityIndex: Map<number, number>,
    /** Dense index -> memory id (current, active memories only), and back. */
    readonly memoryIds: string[],
    readonly memoryIndex: Map<string, number>,
    /** CSR adjacency entity -> memories with link weights. */
    readonly entityStart: Int32Array,
    readonly entityMemories: Int32Array,
    readonly entityWeights: Float32Array,
    /** CSR adjacency memory -> entities with link weights. */
    readonly memoryStart: Int32Array,
    readonly memoryEntities: Int32Array,
    readonly memoryWeights: Float32Array,
    /** The database transaction number this graph reflects. */
    readonly seq: number,
  ) {}

  get entityCount(): number {
    return this.entityIds.length;
  }

  get memoryCount(): number {
    return this.memoryIds.length;
  }

  static load(reader: SqlReader, seq: number): MemoryGraph {
    const rows = reader.all<{ memoryId: string; entityId: number; weight: number }>(
      `SELECT me.memory_id AS memoryId, me.entity_id AS entityId, me.weight AS weight
       FROM memory_entities me JOIN memories m ON m.id = me.memory_id AND m.superseded_at IS NULL
       WHERE m.status = 'active' ORDER BY me.entity_id`,
    );
    const entityIndex = new Map<number, number>();
    const memoryIndex = new Map<string, number>();
    const entityIds: number[] = [];
    const memoryIds: string[] = [];
    const edges = new Int32Array(rows.length * 2);
    const weights = new Float32Array(rows.length);
    rows.forEach((row, i) => {
      let e = entityIndex.get(row.entityId);
      if (e === undefined) {
        e = entityIds.length;
        entityIndex.set(row.entityId, e);
        entityIds.push(row.entityId);
      }
      let m = memoryIndex.get(row.memoryId);
      if (m === undefined) {
        m = memoryIds.length;
        memoryIndex.set(row.memoryId, m);
        memoryIds.push(row.memoryId);
      }
      edges[2 * i] = e;
      edges[2 * i + 1] = m;
      weights[i] = row.weight;
    });
    const byEntity = compress(
      entityIds.length,
      rows.length,
      (i) => edges[2 * i]!,
      (i) => edges[2 * i + 1]!,
      weights,
    );
    const byMemory = compress(
      memoryIds.length,
      rows.length,
      (i) => edges[2 * i + 1]!,
      (i) => edges[2 * i]!,
      weights,
    );
    return new MemoryGraph(
      Int32Array.from(entityIds),
      entityIndex,
      memoryIds,
      memoryIndex,
      byEntity.start,
      byEntity.targets,
      byEntity.weights,
      byMemory.start,
      byMemory.targets,
      byMemory.weights,
      seq,
    );
  }
}

function compress(
  nodes: number,
  edges: number,
  source: (i: number) => number,
  target: (i: number) => number,
  edgeWeights: Float32Array,
): { start: Int32Array; targets: Int32Array; weights: Float32Array } {
  const start = new Int32Array(nodes + 1);
  for (let i = 0; i < edges; i++) start[source(i) + 1]!++;
  for (let n = 0; n < nodes; n++) start[n + 1]! += start[n]!;
  const fill = start.slice(0, nodes);
  const targets = new Int32Array(edges);
  const weights = new Float32Array(edges);
  for (let i = 0; i < edges; i++) {
    const slot = fill[source(i)]!++;
    targets[slot] = target(i);
    weights[slot] = edgeWeights[i]!;
  }
  return { start, targets, weights };
}

/**
 * Keeps one MemoryGraph per database, rebuilt when writes made it stale. Small graphs rebuild on
 * every change; large ones at most every `maxAgeMs`, since a ranking signal a second old is fine.
 */
export class MemoryGraphCache {
  private graph: MemoryGraph | undefined;
  private builtAt = 0;

  constructor(private readonly maxAgeMs = 1000) {}

  get(reader: SqlReader, seq: number, now: number): MemoryGraph {
    const graph = this.graph;
    const stale = !graph || graph.seq !== seq;
    const small = !graph || graph.entityMemories.length < 20_000;
    if (stale && (small || now - this.builtAt >= this.maxAgeMs)) {
      this.graph = MemoryGraph.load(reader, seq);
      this.builtAt = now;
    }
    return this.graph!;
  }
}
