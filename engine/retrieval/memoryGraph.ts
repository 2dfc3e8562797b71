import type { SqlReader } from '../store/sqlAccess';
import { readGraphLinks } from './graphLinks';
import type { GraphLink } from './graphLinks';

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

  /** Every current, active memory's links, in one read (see graphLinks.ts for reads in slices). */
  static load(reader: SqlReader, seq: number): MemoryGraph {
    return MemoryGraph.fromLinks(readGraphLinks(reader), seq);
  }

  /** The graph of `links`, in entity order (see GraphLinkRead.links). */
  static fromLinks(links: readonly GraphLink[], seq: number): MemoryGraph {
    const entityIndex = new Map<number, number>();
    const memoryIndex = new Map<string, number>();
    const entityIds: number[] = [];
    const memoryIds: string[] = [];
    const linkEntities = new Int32Array(links.length);
    const linkMemories = new Int32Array(links.length);
    const weights = new Float32Array(links.length);
    links.forEach((link, i) => {
      let e = entityIndex.get(link.entityId);
      if (e === undefined) {
        e = entityIds.length;
        entityIndex.set(link.entityId, e);
        entityIds.push(link.entityId);
      }
      let m = memoryIndex.get(link.memoryId);
      if (m === undefined) {
        m = memoryIds.length;
        memoryIndex.set(link.memoryId, m);
        memoryIds.push(link.memoryId);
      }
      linkEntities[i] = e;
      linkMemories[i] = m;
      weights[i] = link.weight;
    });
    const byEntity = compress(entityIds.length, linkEntities, linkMemories, weights);
    const byMemory = compress(memoryIds.length, linkMemories, linkEntities, weights);
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

interface Adjacency {
  start: Int32Array;
  targets: Int32Array;
  weights: Float32Array;
}

/** CSR adjacency from link `i`'s source `sources[i]` to its target `targets[i]`, in link order. */
function compress(
  nodes: number,
  sources: Int32Array,
  targets: Int32Array,
  edgeWeights: Float32Array,
): Adjacency {
  const edges = sources.length;
  const start = new Int32Array(nodes + 1);
  for (let i = 0; i < edges; i++) start[sources[i]! + 1]!++;
  for (let n = 0; n < nodes; n++) start[n + 1]! += start[n]!;
  const fill = start.slice(0, nodes);
  const out = new Int32Array(edges);
  const weights = new Float32Array(edges);
  for (let i = 0; i < edges; i++) {
    const slot = fill[sources[i]!]!++;
    out[slot] = targets[i]!;
    weights[slot] = edgeWeights[i]!;
  }
  return { start, targets: out, weights };
}
