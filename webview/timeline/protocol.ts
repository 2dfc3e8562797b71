/**
 * The messages between the timeline webview and the extension host. Shared as types and guards
 * only: neither side imports the other's runtime code. Every request carries an `id` and gets
 * exactly one reply with that id, also on error. Names follow `scope/noun/verb`; host-to-webview
 * notifications are named `Did...`.
 */

export const TIMELINE_VIEW_TYPE = 'engram.timeline';

export const LAYER_NAMES = ['working', 'episodic', 'semantic', 'procedural', 'codebase'] as const;
export type LayerName = (typeof LAYER_NAMES)[number];

/** One memory as the timeline draws it: its current version, text cut to a readable length. */
export interface TimelineMemory {
  id: string;
  layer: LayerName;
  kind: string;
  status: string;
  content: string;
  /** Valid time (ms since epoch); `validTo` null means still true. */
  validFrom: number;
  validTo: number | null;
  /** Transaction time: when Engram recorded the current version. */
  recordedAt: number;
  version: number;
}

/** One entry of the event ledger, a mark on the event lane. */
export interface TimelineEventMark {
  seq: number;
  at: number;
  type: string;
  memoryId: string | null;
  agent: string | null;
}

export interface TimelineData {
  memories: TimelineMemory[];
  events: TimelineEventMark[];
  /** True when there were more memories or events than one load returns. */
  truncated: boolean;
  /** When the host read the data (ms since epoch): "now" for bars without an end. */
  now: number;
}

// ---- webview -> host ------------------------------------------------------------------------

/** Request, webview -> host: load the memories and events to draw. Replied by DataReply. */
export interface GetDataRequest {
  type: 'timeline/data/get';
  id: number;
}

/** Command, webview -> host: open a memory as the Open Memory command does. No reply. */
export interface OpenMemoryCommand {
  type: 'timeline/memory/open';
  memoryId: string;
}

/** Notification, webview -> host: the script has loaded and listens. No reply. */
export interface ReadyNotification {
  type: 'timeline/view/ready';
}

export type WebviewToHost = GetDataRequest | OpenMemoryCommand | ReadyNotification;

// ---- host -> webview ------------------------------------------------------------------------

/** Reply, host -> webview, to GetDataRequest with the same id: the data or a short error. */
export type DataReply =
  | { type: 'timeline/data/reply'; id: number; ok: true; data: TimelineData }
  | { type: 'timeline/data/reply'; id: number; ok: false; error: string };

/** Notification, host -> webview: memories changed; the webview should request the data again. */
export interface DidChangeDataNotification {
  type: 'timeline/data/DidChange';
}

export type HostToWebview = DataReply | DidChangeDataNotification;

// ---- guards ---------------------------------------------------------------------------------

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRequestId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Memory ids are short opaque tokens; anything else is refused before it reaches a command. */
const MEMORY_ID = /^[A-Za-z0-9_-]{1,64}$/;

export const GetDataRequest = {
  is: (m: unknown): m is GetDataRequest =>
    isRecord(m) && m['type'] === 'timeline/data/get' && isRequestId(m['id']),
};

export const OpenMemoryCommand = {
  is: (m: unknown): m is OpenMemoryCommand =>
    isRecord(m) &&
    m['type'] === 'timeline/memory/open' &&
    typeof m['memoryId'] === 'string' &&
    MEMORY_ID.test(m['memoryId']),
};

export const ReadyNotification = {
  is: (m: unknown): m is ReadyNotification => isRecord(m) && m['type'] === 'timeline/view/ready',
};

export const DataReply = {
  is: (m: unknown): m is DataReply =>
    isRecord(m) &&
    m['type'] === 'timeline/data/reply' &&
    isRequestId(m['id']) &&
    ((m['ok'] === true && isTimelineData(m['data'])) ||
      (m['ok'] === false && typeof m['error'] === 'string')),
};

export const DidChangeDataNotification = {
  is: (m: unknown): m is DidChangeDataNotification => isRecord(m) && m['type'] === 'timeline/data/DidChange',
};

/** Shape check of the data a reply carries (the arrays' items are checked by the host that built them). */
function isTimelineData(d: unknown): d is TimelineData {
  return (
    isRecord(d) &&
    Array.isArray(d['memories']) &&
    Array.isArray(d['events']) &&
    typeof d['truncated'] === 'boolean' &&
    typeof d['now'] === 'number'
  );
}

/** The host's inbound check: a message from the webview it understands, or undefined. */
export function parseWebviewMessage(m: unknown): WebviewToHost | undefined {
  if (GetDataRequest.is(m) || OpenMemoryCommand.is(m) || ReadyNotification.is(m)) return m;
  return undefined;
}

/** The webview's inbound check: a message from the host it understands, or undefined. */
export function parseHostMessage(m: unknown): HostToWebview | undefined {
  if (DataReply.is(m) || DidChangeDataNotification.is(m)) return m;
  return undefined;
}
