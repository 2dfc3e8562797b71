/**
 * The messages between the graph webview and the extension host. Shared as types and guards only:
 * neither side imports the other's runtime code. Every request carries an `id` and gets exactly one
 * reply with that id, also on error. Names follow `scope/noun/verb`; host-to-webview notifications
 * are named `Did...`.
 */

import type { GraphPayload } from '../../engine/api/graphMethods';

export const GRAPH_VIEW_TYPE = 'engram.graph';

import { isSessionId } from '../shared/sessionId';
export { isSessionId };

// The engine's own lists (constants only: nothing else of the engine enters the bundle), so a
// layer or entity type added there is drawn here without a copy to keep in step.
import { LAYERS } from '../../engine/memory/types';
import type { Layer } from '../../engine/memory/types';
export const LAYER_NAMES = LAYERS;
export type LayerName = Layer;
/** The entity types the engine extracts (an imported graph may bring others; they are shown too). */
export { ENTITY_TYPES } from '../../engine/extract/entityTypes';

export const MAX_HOPS = 3;
export const MAX_LIMIT = 2000;
export const MAX_SEEDS = 50;

/** Where an exploration starts: an entity (by id or name), a memory or a file path. */
export type GraphSeed = { entityId: number } | { entity: string } | { memory: string } | { file: string };

/** What to load: a neighbourhood of the seeds, or (no seeds) the overview of the best-connected entities. */
export interface GraphQuery {
  seeds?: GraphSeed[];
  hops: number;
  /** Entity types to include; absent: all. */
  types?: string[];
  /** Memory layers to include; absent: all; empty: no memories. */
  layers?: LayerName[];
  /** Captured sessions that edited the files in view, and the commits that carry their edits. */
  sessions?: boolean;
  limit: number;
}

// The payload's shapes are the engine's own (type-only: nothing of the engine enters the bundle).
export type {
  GraphCommitNode,
  GraphEdge,
  GraphEntityNode,
  GraphMemoryNode,
  GraphNode,
  GraphSessionNode,
} from '../../engine/api/graphMethods';
/** What the host answers `graph/data` with: the engine's graph payload. */
export type GraphData = GraphPayload;

export interface EntityMatch {
  entityId: number;
  name: string;
  type: string;
  memoryCount: number;
}

// ---- webview -> host ------------------------------------------------------------------------

/** Notification, webview -> host: the script has loaded and listens. Answered by DidInitNotification. */
export interface ReadyNotification {
  type: 'graph/view/ready';
}

/** Request, webview -> host: load a neighbourhood or the overview. Replied by DataReply. */
export interface GetDataRequest {
  type: 'graph/data/get';
  id: number;
  query: GraphQuery;
}

/** Request, webview -> host: entities whose name contains `text`, to start from. Replied by SearchReply. */
export interface SearchEntitiesRequest {
  type: 'graph/entities/search';
  id: number;
  text: string;
}

/** Command, webview -> host: open a memory as the Open Memory command does. No reply. */
export interface OpenMemoryCommand {
  type: 'graph/memory/open';
  memoryId: string;
}

/** Command, webview -> host: open a file or symbol entity in the editor. No reply. */
export interface OpenEntityCommand {
  type: 'graph/entity/open';
  entityType: 'file' | 'symbol';
  name: string;
}

/** Command, webview -> host: open a captured session's transcript (engram.openSessionTranscript). No reply. */
export interface OpenSessionCommand {
  type: 'graph/session/open';
  sessionId: string;
}

/** Notification, webview -> host: a recall's nodes were lit (how many of those it touched were in view). No reply. */
export interface RecallLitNotification {
  type: 'graph/recall/lit';
  query: string;
  lit: number;
  touched: number;
}

export type WebviewToHost =
  | ReadyNotification
  | GetDataRequest
  | SearchEntitiesRequest
  | OpenMemoryCommand
  | OpenEntityCommand
  | OpenSessionCommand
  | RecallLitNotification;

// ---- host -> webview ------------------------------------------------------------------------

/** Notification, host -> webview, answering ReadyNotification: seeds to show now (Reveal in Graph), or null to keep the saved view. */
export interface DidInitNotification {
  type: 'graph/view/DidInit';
  reveal: GraphSeed[] | null;
}

/** Notification, host -> webview: start from these seeds (Reveal in Graph on an open panel). */
export interface DidRevealNotification {
  type: 'graph/seed/DidReveal';
  seeds: GraphSeed[];
}

/** Reply, host -> webview, to GetDataRequest with the same id: the graph or a short error. */
export type DataReply =
  | { type: 'graph/data/reply'; id: number; ok: true; data: GraphData }
  | { type: 'graph/data/reply'; id: number; ok: false; error: string };

/** Reply, host -> webview, to SearchEntitiesRequest with the same id. */
export type SearchReply =
  | { type: 'graph/entities/reply'; id: number; ok: true; entities: EntityMatch[] }
  | { type: 'graph/entities/reply'; id: number; ok: false; error: string };

/** Notification, host -> webview: memories changed; the webview should request its graph again. */
export interface DidChangeDataNotification {
  type: 'graph/data/DidChange';
}

/** Notification, host -> webview: a recall ran (from any client of the engine host) and touched these. */
export interface DidRecallNotification {
  type: 'graph/recall/DidRun';
  query: string;
  memoryIds: string[];
  entityIds: number[];
  /** Who asked (vscode, an MCP client's name, cli). */
  client: string;
}

export type HostToWebview =
  | DidInitNotification
  | DidRevealNotification
  | DataReply
  | SearchReply
  | DidChangeDataNotification
  | DidRecallNotification;

// ---- guards ---------------------------------------------------------------------------------

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRequestId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isWholeNumber(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

function isShortText(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.trim() !== '' && value.length <= max;
}

/** Memory ids are short opaque tokens; anything else is refused before it reaches a command. */
const MEMORY_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function isMemoryId(value: unknown): value is string {
  return typeof value === 'string' && MEMORY_ID.test(value);
}

export function isGraphSeed(s: unknown): s is GraphSeed {
  if (!isRecord(s)) return false;
  const keys = Object.keys(s);
  if (keys.length !== 1) return false;
  if (keys[0] === 'entityId') return isWholeNumber(s['entityId'], 1, Number.MAX_SAFE_INTEGER);
  if (keys[0] === 'memory') return isMemoryId(s['memory']);
  if (keys[0] === 'entity' || keys[0] === 'file') return isShortText(s[keys[0]], 1000);
  return false;
}

function isSeedList(v: unknown): v is GraphSeed[] {
  return Array.isArray(v) && v.length >= 1 && v.length <= MAX_SEEDS && v.every(isGraphSeed);
}

export function isGraphQuery(q: unknown): q is GraphQuery {
  return (
    isRecord(q) &&
    (q['seeds'] === undefined || isSeedList(q['seeds'])) &&
    isWholeNumber(q['hops'], 1, MAX_HOPS) &&
    isWholeNumber(q['limit'], 1, MAX_LIMIT) &&
    (q['types'] === undefined ||
      (Array.isArray(q['types']) &&
        q['types'].length <= 100 &&
        q['types'].every((t) => isShortText(t, 64)))) &&
    (q['layers'] === undefined ||
      (Array.isArray(q['layers']) &&
        q['layers'].every((l) => (LAYER_NAMES as readonly unknown[]).includes(l)))) &&
    (q['sessions'] === undefined || typeof q['sessions'] === 'boolean')
  );
}

export const ReadyNotification = {
  is: (m: unknown): m is ReadyNotification => isRecord(m) && m['type'] === 'graph/view/ready',
};

export const GetDataRequest = {
  is: (m: unknown): m is GetDataRequest =>
    isRecord(m) && m['type'] === 'graph/data/get' && isRequestId(m['id']) && isGraphQuery(m['query']),
};

export const SearchEntitiesRequest = {
  is: (m: unknown): m is SearchEntitiesRequest =>
    isRecord(m) &&
    m['type'] === 'graph/entities/search' &&
    isRequestId(m['id']) &&
    typeof m['text'] === 'string' &&
    m['text'].length <= 200,
};

export const OpenMemoryCommand = {
  is: (m: unknown): m is OpenMemoryCommand =>
    isRecord(m) && m['type'] === 'graph/memory/open' && isMemoryId(m['memoryId']),
};

export const OpenEntityCommand = {
  is: (m: unknown): m is OpenEntityCommand =>
    isRecord(m) &&
    m['type'] === 'graph/entity/open' &&
    (m['entityType'] === 'file' || m['entityType'] === 'symbol') &&
    isShortText(m['name'], 1000),
};

export const OpenSessionCommand = {
  is: (m: unknown): m is OpenSessionCommand =>
    isRecord(m) && m['type'] === 'graph/session/open' && isSessionId(m['sessionId']),
};

export const RecallLitNotification = {
  is: (m: unknown): m is RecallLitNotification =>
    isRecord(m) &&
    m['type'] === 'graph/recall/lit' &&
    typeof m['query'] === 'string' &&
    isWholeNumber(m['lit'], 0, Number.MAX_SAFE_INTEGER) &&
    isWholeNumber(m['touched'], 0, Number.MAX_SAFE_INTEGER),
};

export const DidInitNotification = {
  is: (m: unknown): m is DidInitNotification =>
    isRecord(m) && m['type'] === 'graph/view/DidInit' && (m['reveal'] === null || isSeedList(m['reveal'])),
};

export const DidRevealNotification = {
  is: (m: unknown): m is DidRevealNotification =>
    isRecord(m) && m['type'] === 'graph/seed/DidReveal' && isSeedList(m['seeds']),
};

export const DataReply = {
  is: (m: unknown): m is DataReply =>
    isRecord(m) &&
    m['type'] === 'graph/data/reply' &&
    isRequestId(m['id']) &&
    ((m['ok'] === true && isGraphData(m['data'])) || (m['ok'] === false && typeof m['error'] === 'string')),
};

export const SearchReply = {
  is: (m: unknown): m is SearchReply =>
    isRecord(m) &&
    m['type'] === 'graph/entities/reply' &&
    isRequestId(m['id']) &&
    ((m['ok'] === true && Array.isArray(m['entities'])) ||
      (m['ok'] === false && typeof m['error'] === 'string')),
};

export const DidChangeDataNotification = {
  is: (m: unknown): m is DidChangeDataNotification => isRecord(m) && m['type'] === 'graph/data/DidChange',
};

export const DidRecallNotification = {
  is: (m: unknown): m is DidRecallNotification =>
    isRecord(m) &&
    m['type'] === 'graph/recall/DidRun' &&
    typeof m['query'] === 'string' &&
    typeof m['client'] === 'string' &&
    Array.isArray(m['memoryIds']) &&
    m['memoryIds'].every(isMemoryId) &&
    Array.isArray(m['entityIds']) &&
    m['entityIds'].every((e) => isWholeNumber(e, 1, Number.MAX_SAFE_INTEGER)),
};

/** Shape check of the data a reply carries (the items are checked by the host that built them). */
function isGraphData(d: unknown): d is GraphData {
  return (
    isRecord(d) &&
    Array.isArray(d['nodes']) &&
    Array.isArray(d['edges']) &&
    Array.isArray(d['seeds']) &&
    typeof d['truncated'] === 'boolean' &&
    typeof d['limit'] === 'number'
  );
}

/** The host's inbound check: a message from the webview it understands, or undefined. */
export function parseWebviewMessage(m: unknown): WebviewToHost | undefined {
  if (
    ReadyNotification.is(m) ||
    GetDataRequest.is(m) ||
    SearchEntitiesRequest.is(m) ||
    OpenMemoryCommand.is(m) ||
    OpenEntityCommand.is(m) ||
    OpenSessionCommand.is(m) ||
    RecallLitNotification.is(m)
  )
    return m;
  return undefined;
}

/** The webview's inbound check: a message from the host it understands, or undefined. */
export function parseHostMessage(m: unknown): HostToWebview | undefined {
  if (
    DidInitNotification.is(m) ||
    DidRevealNotification.is(m) ||
    DataReply.is(m) ||
    SearchReply.is(m) ||
    DidChangeDataNotification.is(m) ||
    DidRecallNotification.is(m)
  )
    return m;
  return undefined;
}

/**
 * Whether a request that arrived malformed still carries an id the host can reply to: a request
 * with a bad query must get an error reply, not silence.
 */
export function malformedRequestId(
  m: unknown,
): { type: 'graph/data/get' | 'graph/entities/search'; id: number } | undefined {
  if (!isRecord(m) || !isRequestId(m['id'])) return undefined;
  if (m['type'] === 'graph/data/get' || m['type'] === 'graph/entities/search')
    return { type: m['type'], id: m['id'] };
  return undefined;
}

/** What each request that arrived malformed is told, in the reply its sender waits for. */
const MALFORMED_REPLIES = {
  'graph/data/get': { type: 'graph/data/reply', error: 'malformed graph query' },
  'graph/entities/search': { type: 'graph/entities/reply', error: 'malformed search' },
} as const;

/** The error reply owed to a malformed request that still carries an id; undefined for anything else. */
export function malformedReply(m: unknown): DataReply | SearchReply | undefined {
  const request = malformedRequestId(m);
  if (!request) return undefined;
  const { type, error } = MALFORMED_REPLIES[request.type];
  return { type, id: request.id, ok: false, error };
}
