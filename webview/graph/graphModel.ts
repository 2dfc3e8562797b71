import Graph from 'graphology';
import type { GraphData, GraphEdge, GraphNode, LayerName } from './protocol';
import { LAYER_NAMES } from './protocol';

/** What sigma draws for a node; `node` keeps the payload entry for tooltips and clicks. */
export interface NodeAttributes {
  x: number;
  y: number;
  size: number;
  color: string;
  label: string;
  node: GraphNode;
}

export interface EdgeAttributes {
  size: number;
  color: string;
  strength: number;
  kind: GraphEdge['kind'];
}

export type EngramGraph = Graph<NodeAttributes, EdgeAttributes>;

/** Theme colours, read from the page's CSS variables by the caller (tests pass fixed ones). */
export interface Palette {
  entity(type: string): string;
  layer(layer: LayerName): string;
  edge: string;
  mention: string;
  /** Captured sessions and the commits that carry their edits (the session layer). */
  session: string;
  commit: string;
}

export function nodeSize(node: GraphNode): number {
  if (node.kind === 'memory') return 3;
  if (node.kind === 'session') return 6;
  if (node.kind === 'commit') return 4;
  return Math.min(16, 4 + 2 * Math.log2(1 + node.memoryCount));
}

/** Edge width by strength (relations) or weight (mentions), 0..1 -> 0.5..3.5 px. */
export function edgeSize(strength: number): number {
  return 0.5 + 3 * Math.max(0, Math.min(1, strength));
}

/**
 * Replaces the graph's contents with `data`, keeping the position of every node that stays, so a
 * reload after a write does not shuffle the picture. New nodes start beside a neighbour that
 * already has a place (or on a small circle), and the force layout settles them.
 */
export function applyData(graph: EngramGraph, data: GraphData, palette: Palette, random = Math.random): void {
  const old = new Map<string, { x: number; y: number }>();
  graph.forEachNode((id, a) => old.set(id, { x: a.x, y: a.y }));
  graph.clear();
  for (const node of data.nodes) {
    if (graph.hasNode(node.id)) continue;
    const at = old.get(node.id);
    graph.addNode(node.id, {
      x: at?.x ?? NaN,
      y: at?.y ?? NaN,
      size: nodeSize(node),
      color: nodeColour(node, palette),
      label: node.label,
      node,
    });
  }
  for (const edge of data.edges) {
    if (!graph.hasNode(edge.source) || !graph.hasNode(edge.target) || edge.source === edge.target) continue;
    if (graph.hasEdge(edge.source, edge.target)) continue;
    graph.addEdge(edge.source, edge.target, {
      size: edgeSize(edge.strength),
      color:
        edge.kind === 'relation' ? palette.edge : edge.kind === 'mention' ? palette.mention : palette.commit,
      strength: edge.strength,
      kind: edge.kind,
    });
  }
  placeNewNodes(graph, random);
}

function nodeColour(node: GraphNode, palette: Palette): string {
  switch (node.kind) {
    case 'entity':
      return palette.entity(node.type);
    case 'memory':
      return palette.layer(node.layer);
    case 'session':
      return palette.session;
    case 'commit':
      return palette.commit;
  }
}

function placeNewNodes(graph: EngramGraph, random: () => number): void {
  const unplaced = graph.filterNodes((_, a) => Number.isNaN(a.x));
  const count = Math.max(1, unplaced.length);
  unplaced.forEach((id, i) => {
    const anchor = graph.neighbors(id).find((n) => !Number.isNaN(graph.getNodeAttribute(n, 'x')));
    if (anchor) {
      const a = graph.getNodeAttributes(anchor);
      graph.mergeNodeAttributes(id, { x: a.x + (random() - 0.5) * 10, y: a.y + (random() - 0.5) * 10 });
    } else {
      // A spiral keeps unconnected starts apart; forceatlas2 needs distinct positions.
      const angle = i * 2.399963;
      const radius = 10 * Math.sqrt((i + 1) / count) * Math.sqrt(count);
      graph.mergeNodeAttributes(id, { x: radius * Math.cos(angle), y: radius * Math.sin(angle) });
    }
  });
}

/** Ring of a node in the concentric layout: entities innermost, one ring per layer, then sessions and commits. */
export function ringOf(node: GraphNode): number {
  if (node.kind === 'entity') return 0;
  if (node.kind === 'memory') return 1 + LAYER_NAMES.indexOf(node.layer);
  return 1 + LAYER_NAMES.length + (node.kind === 'session' ? 0 : 1);
}

/**
 * Concentric by layer: each node keeps the angle the force layout gave it (so neighbours stay
 * near each other) and moves to its ring's radius. Rings that hold nothing are skipped.
 */
export function concentricPositions(graph: EngramGraph): Map<string, { x: number; y: number }> {
  let cx = 0;
  let cy = 0;
  graph.forEachNode((_, a) => {
    cx += a.x / graph.order;
    cy += a.y / graph.order;
  });
  const used = [...new Set(graph.mapNodes((_, a) => ringOf(a.node)))].sort((a, b) => a - b);
  const spacing = Math.max(20, Math.sqrt(graph.order) * 6);
  const out = new Map<string, { x: number; y: number }>();
  graph.forEachNode((id, a) => {
    const angle = Math.atan2(a.y - cy, a.x - cx);
    const radius = spacing * (used.indexOf(ringOf(a.node)) + 1);
    out.set(id, { x: cx + radius * Math.cos(angle), y: cy + radius * Math.sin(angle) });
  });
  return out;
}

/** Node ids a recall touched that are in the graph now. */
export function touchedNodes(
  graph: EngramGraph,
  memoryIds: readonly string[],
  entityIds: readonly number[],
): string[] {
  const ids = [...memoryIds.map((m) => `m:${m}`), ...entityIds.map((e) => `e:${e}`)];
  return ids.filter((id) => graph.hasNode(id));
}

/** Ids of nodes whose label (or memory text) contains `text`, case-insensitively. */
export function matchingNodes(graph: EngramGraph, text: string): Set<string> {
  const needle = text.trim().toLowerCase();
  const out = new Set<string>();
  if (needle === '') return out;
  graph.forEachNode((id, a) => {
    const hay = a.node.kind === 'entity' ? a.node.label : a.node.text;
    if (hay.toLowerCase().includes(needle)) out.add(id);
  });
  return out;
}

export function createGraph(): EngramGraph {
  return new Graph<NodeAttributes, EdgeAttributes>({
    type: 'undirected',
    multi: false,
    allowSelfLoops: false,
  });
}
