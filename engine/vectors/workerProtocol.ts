import type { HnswParams } from './hnswParams';

/**
 * The messages between the caller's thread and a graph-building worker (vectorWorker.ts). One
 * worker per build: the job goes in as `workerData` with its buffers transferred, and exactly one
 * `BuildReply` comes back with the graph bytes transferred; then the worker exits.
 */

/** caller -> worker (workerData): build a graph of `labels`/`vectors`, on top of `base` if given. */
export interface BuildJob {
  dimension: number;
  params: HnswParams;
  /** Serialized graph (HnswGraph.extract) to add to; null starts an empty graph. */
  base: Uint8Array | null;
  labels: Float64Array;
  /** labels.length x dimension floats, unit length. */
  vectors: Float32Array;
}

/** worker -> caller (postMessage): the finished graph, or why there is none. */
export type BuildReply =
  { type: 'built'; bytes: Uint8Array; count: number; millis: number } | { type: 'failed'; message: string };

export function isBuildReply(value: unknown): value is BuildReply {
  if (typeof value !== 'object' || value === null) return false;
  const reply = value as { type?: unknown; bytes?: unknown; message?: unknown };
  return (
    (reply.type === 'built' && reply.bytes instanceof Uint8Array) ||
    (reply.type === 'failed' && typeof reply.message === 'string')
  );
}

type Level = 'debug' | 'info' | 'warn' | 'error';
const LEVEL_PREFIX = /^(debug|info|warn|error)\t/;

/** worker -> caller (stderr): one log line, `level<TAB>message [data JSON]`. */
export function workerLogLine(level: Level, message: string, data?: Record<string, unknown>): string {
  return `${level}\t${message.replace(/\n/g, ' ')}${data ? ` ${JSON.stringify(data)}` : ''}\n`;
}

/** The level and text of a worker output line; lines not written by `workerLogLine` are debug. */
export function parseWorkerLogLine(line: string): { level: Level; text: string } {
  const match = LEVEL_PREFIX.exec(line);
  return match
    ? { level: match[1] as Level, text: line.slice(match[0].length) }
    : { level: 'debug', text: line };
}
