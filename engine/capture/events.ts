/**
 * The common model every reader produces: what an agent session did, whatever wrote it down.
 * Readers are pure (text in, these events out); ingest (ingest.ts) stores them. Times are epoch
 * milliseconds; paths are as the agent wrote them (ingest makes them workspace-relative).
 */
export const CAPTURE_AGENTS = [
  'claude-code',
  'codex',
  'aider',
  'gemini',
  'copilot',
  'cline',
  'roo-code',
  'opencode',
] as const;
export type CaptureAgent = (typeof CAPTURE_AGENTS)[number];

export interface SessionEvent {
  kind: 'session';
  agent: CaptureAgent;
  model?: string;
  cwd?: string;
  gitBranch?: string;
  gitCommit?: string;
  /** The session this one was spawned by (a sub-agent), when the format says. */
  parentId?: string;
  /** A title or summary the agent gave the session. */
  title?: string;
  at?: number;
}

/** `summary`: a compaction or session summary written by the agent; `system`: injected context. */
export type TurnRole = 'user' | 'assistant' | 'summary' | 'system';

export interface TurnEvent {
  kind: 'turn';
  role: TurnRole;
  text: string;
  /** The model's reasoning, where the format keeps it readable. */
  thinking?: string;
  model?: string;
  at?: number;
}

export interface ToolCallEvent {
  kind: 'tool-call';
  callId: string;
  name: string;
  arguments: unknown;
  at?: number;
}

export interface ToolResultEvent {
  kind: 'tool-result';
  callId: string;
  status: 'ok' | 'error';
  output?: string;
  exitCode?: number;
  durationMs?: number;
  at?: number;
}

/** One hunk of an edit, unified-diff style: `lines` start with ' ', '-' or '+'. */
export interface Hunk {
  oldStart?: number;
  oldLines?: number;
  newStart?: number;
  newLines?: number;
  lines: string[];
}

export type FileAction = 'read' | 'edit' | 'create' | 'delete';

export interface FileTouchEvent {
  kind: 'file-touch';
  path: string;
  action: FileAction;
  callId?: string;
  hunks?: Hunk[];
  at?: number;
}

export interface CommandEvent {
  kind: 'command';
  command: string;
  callId?: string;
  /** Known when the format records it with the call (otherwise the tool result brings it). */
  exitCode?: number;
  at?: number;
}

/**
 * Tokens spent. `total`: the counts are the session's running totals (Codex); `add`: one model
 * call's usage, added to the session's (Claude Code).
 */
export interface UsageEvent {
  kind: 'usage';
  mode: 'add' | 'total';
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
  at?: number;
}

export type CaptureEvent =
  SessionEvent | TurnEvent | ToolCallEvent | ToolResultEvent | FileTouchEvent | CommandEvent | UsageEvent;

/**
 * How a reader took one record: `understood` (events or deliberately nothing), `unknown` (valid
 * but of a type or shape this reader does not know), `malformed` (not parseable), `excluded` (it
 * touched a path the user excluded: ingest keeps only its place).
 */
export type RecordStatus = 'understood' | 'unknown' | 'malformed' | 'excluded';

export interface ParsedRecord {
  /** The session the record belongs to; undefined when it cannot be told (then it is counted only). */
  sessionId: string | undefined;
  status: RecordStatus;
  events: CaptureEvent[];
  /** When the record was written, if it says. */
  at?: number;
}

/** Epoch ms of an ISO time (or a number), or undefined. */
export function timeOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value !== 'string') return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Content that is a string, or a list of parts each maybe with `text`: the texts, one per line. */
export function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(isRecord)
    .map((p) => text(p['text']) ?? '')
    .filter((t) => t !== '')
    .join('\n');
}

export function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** The object a JSON line holds, or undefined (not JSON, or not an object). */
export function jsonRecord(line: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(line) as unknown;
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A line a JSON reader cannot use: `malformed` when it is not JSON at all, else `unknown`. */
export function unusable(line: string, state: { sessionId?: string | undefined }): ParsedRecord {
  let json = true;
  try {
    JSON.parse(line);
  } catch {
    json = false;
  }
  return { sessionId: state.sessionId, status: json ? 'unknown' : 'malformed', events: [] };
}
