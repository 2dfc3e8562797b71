/**
 * The messages between the Analytics webview and the extension host, shared as types and guards
 * only (see webview/timeline/protocol.ts for the three sorts: requests with one reply each,
 * commands, notifications; host-to-webview notifications are named `Did...`). The host checks
 * every message from the webview with `parseWebviewMessage`, the webview every message from the
 * host with `parseHostMessage`.
 */

// The data is the engine's own `lifecycleHealth` result (type-only: nothing of the engine enters the bundle).
import type { LifecycleHealth } from '../../engine/api/healthMethods';
export type { LifecycleHealth };
export type { LifecycleRun, RetentionBin } from '../../engine/api/lifecycleHealth';

export const ANALYTICS_VIEW_TYPE = 'engram.analytics';

// ---- webview -> host ------------------------------------------------------------------------

/** Request, webview -> host: load the Lifecycle/Health data. Replied by HealthReply with the same id. */
export interface GetHealthRequest {
  type: 'analytics/health/get';
  id: number;
}

/** Command, webview -> host: run Engram: Consolidate Now (its plan, question and summary are the host's). */
export interface ConsolidateCommand {
  type: 'analytics/consolidation/run';
}

export type WebviewToHost = GetHealthRequest | ConsolidateCommand;

// ---- host -> webview ------------------------------------------------------------------------

/** Reply, host -> webview, to GetHealthRequest with the same id: the data or a short error. */
export type HealthReply =
  | { type: 'analytics/health/reply'; id: number; ok: true; data: LifecycleHealth }
  | { type: 'analytics/health/reply'; id: number; ok: false; error: string };

/** Notification, host -> webview: memories changed; the webview requests the data again. */
export interface DidChangeHealthNotification {
  type: 'analytics/health/DidChange';
}

export type HostToWebview = HealthReply | DidChangeHealthNotification;

// ---- guards ---------------------------------------------------------------------------------

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRequestId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

export const GetHealthRequest = {
  is: (m: unknown): m is GetHealthRequest =>
    isRecord(m) && m['type'] === 'analytics/health/get' && isRequestId(m['id']),
};

export const ConsolidateCommand = {
  is: (m: unknown): m is ConsolidateCommand =>
    isRecord(m) && m['type'] === 'analytics/consolidation/run' && Object.keys(m).length === 1,
};

export const HealthReply = {
  is: (m: unknown): m is HealthReply =>
    isRecord(m) &&
    m['type'] === 'analytics/health/reply' &&
    isRequestId(m['id']) &&
    ((m['ok'] === true && isHealth(m['data'])) || (m['ok'] === false && typeof m['error'] === 'string')),
};

export const DidChangeHealthNotification = {
  is: (m: unknown): m is DidChangeHealthNotification =>
    isRecord(m) && m['type'] === 'analytics/health/DidChange',
};

/** Shape check of the data a reply carries (the engine builds its fields). */
function isHealth(d: unknown): d is LifecycleHealth {
  return (
    isRecord(d) &&
    typeof d['now'] === 'number' &&
    isRecord(d['retention']) &&
    Array.isArray(d['retention']['bins']) &&
    ['archived', 'promoted', 'quality', 'duplicates'].every((key) => isRecord(d[key])) &&
    Array.isArray(d['runs'])
  );
}

/** The host's inbound check: a message from the webview it understands, or undefined. */
export function parseWebviewMessage(m: unknown): WebviewToHost | undefined {
  return GetHealthRequest.is(m) || ConsolidateCommand.is(m) ? m : undefined;
}

/** The webview's inbound check: a message from the host it understands, or undefined. */
export function parseHostMessage(m: unknown): HostToWebview | undefined {
  return HealthReply.is(m) || DidChangeHealthNotification.is(m) ? m : undefined;
}
