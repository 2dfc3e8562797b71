import { ENTITY_TYPES, LAYER_NAMES, isGraphSeed } from './protocol';
import type { GraphNode, GraphQuery, GraphSeed, LayerName, WebviewToHost } from './protocol';

/** What VS Code gives a webview script (acquireVsCodeApi); state holds UI state only. */
export interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: UiState): void;
}

/** The panel's choices, which VS Code keeps across reloads of the webview. */
export interface UiState {
  /** Where the exploration starts; null: the overview. */
  seeds: GraphSeed[] | null;
  /** What the start is called, for the status line. */
  seedLabel: string;
  hops: number;
  limit: number;
  layout: 'force' | 'concentric';
  hiddenTypes: string[];
  hiddenLayers: LayerName[];
  find: string;
  /** The session layer: captured sessions on the files in view, and their commits. Off by default. */
  sessions: boolean;
}

/** The state VS Code kept, each field checked: anything else gets its default. */
export function restoreState(saved: unknown): UiState {
  const s = (typeof saved === 'object' && saved !== null ? saved : {}) as Partial<UiState>;
  const seeds = Array.isArray(s.seeds) && s.seeds.length > 0 && s.seeds.every(isGraphSeed) ? s.seeds : null;
  return {
    seeds,
    seedLabel: seeds && typeof s.seedLabel === 'string' ? s.seedLabel : '',
    hops: s.hops === 2 || s.hops === 3 ? s.hops : 1,
    limit: [150, 400, 1000, 2000].includes(s.limit as number) ? (s.limit as number) : 400,
    layout: s.layout === 'concentric' ? 'concentric' : 'force',
    hiddenTypes: Array.isArray(s.hiddenTypes) ? s.hiddenTypes.filter((t) => typeof t === 'string') : [],
    hiddenLayers: Array.isArray(s.hiddenLayers) ? s.hiddenLayers.filter((l) => LAYER_NAMES.includes(l)) : [],
    find: typeof s.find === 'string' ? s.find : '',
    sessions: s.sessions === true,
  };
}

/** The graph the panel asks the host for; `extraTypes`: entity types the last data brought. */
export function graphQuery(ui: UiState, extraTypes: string[]): GraphQuery {
  const types = [...new Set([...ENTITY_TYPES, ...extraTypes])].filter((t) => !ui.hiddenTypes.includes(t));
  const layers = LAYER_NAMES.filter((l) => !ui.hiddenLayers.includes(l));
  return {
    ...(ui.seeds ? { seeds: ui.seeds } : {}),
    hops: ui.hops,
    limit: ui.limit,
    ...(ui.hiddenTypes.length > 0 ? { types } : {}),
    ...(ui.hiddenLayers.length > 0 ? { layers } : {}),
    ...(ui.sessions ? { sessions: true } : {}),
  };
}

/** Where exploring from a node starts; sessions and commits are not in the entity graph. */
export function seedOf(node: GraphNode): GraphSeed | undefined {
  if (node.kind === 'memory') return { memory: node.memoryId };
  return node.kind === 'entity' ? { entityId: node.entityId } : undefined;
}
