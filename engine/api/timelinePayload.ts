/** What the `timeline` method returns (the Timeline panel's data); webview/timeline/protocol.ts re-exports these types. */
import type { ChangeKind, Layer } from '../memory/types';

/** One memory as the timeline draws it: its current version, with when it was first recorded. */
export interface TimelineMemoryRow {
  id: string;
  layer: Layer;
  kind: string;
  status: string;
  /** Cut to CONTENT_CHARS: the panel shows a line, the full text opens in the editor. */
  content: string;
  agent: string | null;
  tags: string[];
  /** Valid time (ms since epoch); `validTo` null means still true. */
  validFrom: number;
  validTo: number | null;
  /** Transaction time of the current version. */
  recordedAt: number;
  /** Transaction time of the first version: when Engram first knew of this memory. */
  createdAt: number;
  version: number;
  supersededBy: string | null;
  /** The workspace file the memory was taken from, if any (codebase memories, imports). */
  sourceFile: string | null;
}

/** A later version of a memory (version 1 is the bar's start). */
export interface TimelineVersionMark {
  memoryId: string;
  version: number;
  recordedAt: number;
  change: ChangeKind;
}

/**
 * A superseded or invalidated memory and the memory that replaced it. Supersession names its
 * successor; an invalidated memory is linked to the next memory about the same subject (same
 * conflict key) recorded at or after its invalidation, when there is one.
 */
export interface TimelineLink {
  from: string;
  to: string;
  at: number;
  kind: 'supersede' | 'invalidate';
}

/** A stale drift finding, placed at the commit that made it so (or at the check when none is known). */
export interface TimelineDriftEvent {
  memoryId: string;
  at: number;
  reason: string;
  /** What the memory claimed: a path, a symbol, a script...; `file` is where a symbol was said to be. */
  claimKind: string;
  subject: string;
  file: string | null;
  commit: { hash: string; message: string; date: string; author: string } | null;
}

/** One run of the codebase scanner. */
export interface TimelineScan {
  generation: number;
  status: string;
  startedAt: number;
  finishedAt: number | null;
  /** Files added + changed + deleted + renamed, when the scan finished. */
  changedFiles: number | null;
}

/** A captured agent session (engine/capture/), drawn as a band from its start to its end. */
export interface TimelineSession {
  id: string;
  agent: string;
  startedAt: number;
  endedAt: number;
  turns: number;
  /** The agent's title for it, else the first thing the user asked (cut to 200 characters). */
  title: string | null;
}

export interface TimelinePayload {
  memories: TimelineMemoryRow[];
  versions: TimelineVersionMark[];
  links: TimelineLink[];
  drift: TimelineDriftEvent[];
  scans: TimelineScan[];
  /** Captured sessions, oldest first (the newest 2,000). */
  sessions: TimelineSession[];
  /** How many memories matched the filters; more than `memories.length` when cut at `limit`. */
  total: number;
  truncated: boolean;
  /** When the engine read the data: the end of bars without an end. */
  now: number;
}
