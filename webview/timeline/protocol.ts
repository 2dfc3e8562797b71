/**
 * The messages between the timeline webview and the extension host. Shared as types and guards
 * only: neither side imports the other's runtime code. Three sorts of message:
 *
 * - requests carry an `id` and get exactly one reply with that id, also on error;
 * - commands ask the other side to do something and get no reply;
 * - notifications tell the other side what happened (host-to-webview ones are named `Did...`).
 *
 * Names follow `scope/noun/verb`. Each message has an `is()` guard; the host checks every message
 * from the webview with `parseWebviewMessage` before acting, the webview every message from the
 * host with `parseHostMessage`.
 */

import type { TimelinePayload } from '../../engine/api/timelinePayload';

export const TIMELINE_VIEW_TYPE = 'engram.timeline';

import { isSessionId } from '../shared/sessionId';
export { isSessionId };

// The engine's list (a constant only: nothing else of the engine enters the bundle).
import { LAYERS } from '../../engine/memory/types';
import type { Layer } from '../../engine/memory/types';
export const LAYER_NAMES = LAYERS;
export type LayerName = Layer;
export { agentName } from '../../engine/capture/agentNames';

// The data is the engine's own `timeline` payload (type-only imports: nothing of the engine
// enters the bundle). Memory content in it is untrusted: rendered only as text, never as markup.
export type {
  TimelineDriftEvent,
  TimelineLink,
  TimelineMemoryRow as TimelineMemory,
  TimelineScan,
  TimelineSession,
  TimelineVersionMark,
} from '../../engine/api/timelinePayload';
/** What the host answers `timeline/data` with. */
export type TimelineData = TimelinePayload;

// ---- webview -> host ------------------------------------------------------------------------

/** Request, webview -> host: load the data to draw. Replied by DataReply with the same id. */
export interface GetDataRequest {
  type: 'timeline/data/get';
  id: number;
}

/** Command, webview -> host: open a memory as the Open Memory command does. No reply. */
export interface OpenMemoryCommand {
  type: 'timeline/memory/open';
  memoryId: string;
}

/** Command, webview -> host: open a workspace file (relative path) in the editor. No reply. */
export interface OpenFileCommand {
  type: 'timeline/file/open';
  path: string;
  line?: number;
}

/** Command, webview -> host: find a symbol in the workspace and open it. No reply. */
export interface OpenSymbolCommand {
  type: 'timeline/symbol/open';
  name: string;
}

/**
 * Command, webview -> host: open a captured session's transcript, as the Sessions view does
 * (engram.openSessionTranscript). No reply.
 */
export interface OpenSessionCommand {
  type: 'timeline/session/open';
  sessionId: string;
}

/** Notification, webview -> host: the script has loaded and listens. No reply. */
export interface ReadyNotification {
  type: 'timeline/view/ready';
}

/**
 * Notification, webview -> host: what the panel now shows after data arrived or the selection
 * changed (the selected memory, if any, and how many memories are drawn). No reply.
 */
export interface SelectionNotification {
  type: 'timeline/selection/changed';
  memoryId: string | null;
  shown: number;
}

export type WebviewToHost =
  | GetDataRequest
  | OpenMemoryCommand
  | OpenFileCommand
  | OpenSymbolCommand
  | OpenSessionCommand
  | ReadyNotification
  | SelectionNotification;

// ---- host -> webview ------------------------------------------------------------------------

/** Reply, host -> webview, to GetDataRequest with the same id: the data or a short error. */
export type DataReply =
  | { type: 'timeline/data/reply'; id: number; ok: true; data: TimelineData }
  | { type: 'timeline/data/reply'; id: number; ok: false; error: string };

/** Notification, host -> webview: memories changed; the webview requests the data again. */
export interface DidChangeDataNotification {
  type: 'timeline/data/DidChange';
}

/** Notification, host -> webview: centre on this memory and select it (Reveal in Timeline). */
export interface DidRevealMemoryNotification {
  type: 'timeline/memory/DidReveal';
  memoryId: string;
}

export type HostToWebview = DataReply | DidChangeDataNotification | DidRevealMemoryNotification;

// ---- guards ---------------------------------------------------------------------------------

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRequestId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Memory ids are short opaque tokens; anything else is refused before it reaches a command. */
const MEMORY_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function isMemoryId(value: unknown): value is string {
  return typeof value === 'string' && MEMORY_ID.test(value);
}

/**
 * A workspace-relative path: no absolute path, no drive letter, no `..` segment, no control
 * characters. The host still resolves it against the workspace and checks it stays inside.
 */
export function isRelativePath(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 1024) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f]/.test(value) || /^([/\\]|[A-Za-z]:)/.test(value)) return false;
  return !value.split(/[/\\]/).some((segment) => segment === '..');
}

/** A symbol as drift claims name them: `name` or `Container.name`. */
const SYMBOL = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/;

export const GetDataRequest = {
  is: (m: unknown): m is GetDataRequest =>
    isRecord(m) && m['type'] === 'timeline/data/get' && isRequestId(m['id']),
};

export const OpenMemoryCommand = {
  is: (m: unknown): m is OpenMemoryCommand =>
    isRecord(m) && m['type'] === 'timeline/memory/open' && isMemoryId(m['memoryId']),
};

export const OpenFileCommand = {
  is: (m: unknown): m is OpenFileCommand =>
    isRecord(m) &&
    m['type'] === 'timeline/file/open' &&
    isRelativePath(m['path']) &&
    (m['line'] === undefined ||
      (typeof m['line'] === 'number' && Number.isSafeInteger(m['line']) && m['line'] >= 1)),
};

export const OpenSymbolCommand = {
  is: (m: unknown): m is OpenSymbolCommand =>
    isRecord(m) &&
    m['type'] === 'timeline/symbol/open' &&
    typeof m['name'] === 'string' &&
    m['name'].length <= 200 &&
    SYMBOL.test(m['name']),
};

export const OpenSessionCommand = {
  is: (m: unknown): m is OpenSessionCommand =>
    isRecord(m) && m['type'] === 'timeline/session/open' && isSessionId(m['sessionId']),
};

export const ReadyNotification = {
  is: (m: unknown): m is ReadyNotification => isRecord(m) && m['type'] === 'timeline/view/ready',
};

export const SelectionNotification = {
  is: (m: unknown): m is SelectionNotification =>
    isRecord(m) &&
    m['type'] === 'timeline/selection/changed' &&
    (m['memoryId'] === null || isMemoryId(m['memoryId'])) &&
    typeof m['shown'] === 'number' &&
    Number.isSafeInteger(m['shown']) &&
    m['shown'] >= 0,
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

export const DidRevealMemoryNotification = {
  is: (m: unknown): m is DidRevealMemoryNotification =>
    isRecord(m) && m['type'] === 'timeline/memory/DidReveal' && isMemoryId(m['memoryId']),
};

/** Shape check of the data a reply carries (the arrays' items are built by the engine). */
function isTimelineData(d: unknown): d is TimelineData {
  return (
    isRecord(d) &&
    ['memories', 'versions', 'links', 'drift', 'scans', 'sessions'].every((key) => Array.isArray(d[key])) &&
    typeof d['total'] === 'number' &&
    typeof d['truncated'] === 'boolean' &&
    typeof d['now'] === 'number'
  );
}

/** The host's inbound check: a message from the webview it understands, or undefined. */
export function parseWebviewMessage(m: unknown): WebviewToHost | undefined {
  for (const guard of [
    GetDataRequest,
    OpenMemoryCommand,
    OpenFileCommand,
    OpenSymbolCommand,
    OpenSessionCommand,
    ReadyNotification,
    SelectionNotification,
  ]) {
    if (guard.is(m)) return m;
  }
  return undefined;
}

/** The webview's inbound check: a message from the host it understands, or undefined. */
export function parseHostMessage(m: unknown): HostToWebview | undefined {
  if (DataReply.is(m) || DidChangeDataNotification.is(m) || DidRevealMemoryNotification.is(m)) return m;
  return undefined;
}
