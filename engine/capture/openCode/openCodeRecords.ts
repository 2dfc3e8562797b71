import { isRecord, text, timeOf } from '../events';

/** A session as OpenCode keeps it (a `session` row, or a `storage/session/<project>/<id>.json`). */
export interface OpenCodeSession {
  id: string;
  directory: string;
  title?: string;
  parentID?: string;
  created?: number;
  /** When OpenCode last touched the session (each prompt, each title change). */
  updated?: number;
}

/** A message or part row: its id, the row's JSON `data` (without its ids), when the row was made. */
export interface OpenCodeRow {
  id: string;
  data: Record<string, unknown>;
  created?: number;
}

export interface OpenCodePart extends OpenCodeRow {
  messageId: string;
}

/** One record for the ledger: `key` names the row (`part:prt_...`), `text` is its envelope. */
export interface KeyedRecord {
  key: string;
  text: string;
}

/**
 * A session still written to is read again; a session untouched this long is over, and a row it
 * left unfinished (a tool still `running` when OpenCode was killed) is taken as it is.
 */
export const STALE_MS = 10 * 60_000;

/**
 * The ledger records of one session, in the order OpenCode made them: the session, then each
 * message (by time, then id: OpenCode's ids grow with time) followed by its parts (by id). Only
 * finished rows are given (a part being streamed or a tool still running would be taken half), so
 * each row is taken once; `pending` says that some were left for a later read.
 */
export function sessionRecords(
  session: OpenCodeSession,
  messages: readonly OpenCodeRow[],
  parts: readonly OpenCodePart[],
  now: number,
): { records: KeyedRecord[]; pending: boolean } {
  const stale = now - (session.updated ?? session.created ?? 0) > STALE_MS;
  const records: KeyedRecord[] = [{ key: `session:${session.id}`, text: sessionEnvelope(session) }];
  let pending = false;
  const byMessage = new Map<string, OpenCodePart[]>();
  for (const part of parts) byMessage.set(part.messageId, [...(byMessage.get(part.messageId) ?? []), part]);
  const ordered = [...messages].sort(
    (a, b) => (messageTime(a) ?? 0) - (messageTime(b) ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  for (const message of ordered) {
    const done = stale || messageDone(message.data);
    if (done) {
      records.push({
        key: `message:${message.id}`,
        text: JSON.stringify({ type: 'message', id: message.id, sessionID: session.id, data: message.data }),
      });
    } else pending = true;
    const role = message.data['role'] === 'user' ? 'user' : 'assistant';
    const summary = message.data['summary'] === true;
    const at = messageTime(message);
    const mine = (byMessage.get(message.id) ?? []).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const part of mine) {
      if (!(done || stale || partDone(part.data))) {
        pending = true;
        continue;
      }
      const envelope = {
        type: 'part',
        id: part.id,
        sessionID: session.id,
        messageID: message.id,
        role,
        ...(summary ? { summary } : {}),
        ...(at === undefined ? {} : { at }),
        data: part.data,
      };
      records.push({ key: `part:${part.id}`, text: JSON.stringify(envelope) });
    }
  }
  return { records, pending };
}

/** Only what the reader uses: a session row changes on every prompt (its update time). */
function sessionEnvelope(session: OpenCodeSession): string {
  return JSON.stringify({
    type: 'session',
    id: session.id,
    directory: session.directory,
    ...(session.title === undefined ? {} : { title: session.title }),
    ...(session.parentID === undefined ? {} : { parentID: session.parentID }),
    ...(session.created === undefined ? {} : { time: { created: session.created } }),
  });
}

function messageTime(message: OpenCodeRow): number | undefined {
  // The first format kept the times in `metadata`.
  const info = isRecord(message.data['metadata']) ? message.data['metadata'] : message.data;
  return (isRecord(info['time']) ? timeOf(info['time']['created']) : undefined) ?? message.created;
}

/** A user's message is whole when written; an assistant's once it completed or failed. */
function messageDone(data: Record<string, unknown>): boolean {
  if (data['role'] !== 'assistant') return true;
  // The first format kept the times and the error in `metadata`.
  const info = isRecord(data['metadata']) ? data['metadata'] : data;
  return info['error'] !== undefined || (isRecord(info['time']) && info['time']['completed'] !== undefined);
}

/** Text and reasoning are streamed until their end time is set; a tool until it completed or failed. */
function partDone(data: Record<string, unknown>): boolean {
  const type = text(data['type']);
  if (type === 'tool') {
    const status = isRecord(data['state']) ? data['state']['status'] : undefined;
    return status === 'completed' || status === 'error';
  }
  if (type === 'text' || type === 'reasoning')
    return isRecord(data['time']) && data['time']['end'] !== undefined;
  return true;
}

/** A session's row as OpenCode's JSON storage or database holds it, or undefined when it is not one. */
export function sessionOf(value: unknown, fallbackId?: string): OpenCodeSession | undefined {
  if (!isRecord(value)) return undefined;
  const id = text(value['id']) ?? fallbackId;
  const directory = text(value['directory']);
  if (!id || !directory) return undefined;
  const time = isRecord(value['time']) ? value['time'] : {};
  const created = timeOf(time['created']);
  const updated = timeOf(time['updated']);
  return {
    id,
    directory,
    ...(text(value['title']) === undefined ? {} : { title: text(value['title']) as string }),
    ...(text(value['parentID']) === undefined ? {} : { parentID: text(value['parentID']) as string }),
    ...(created === undefined ? {} : { created }),
    ...(updated === undefined ? {} : { updated }),
  };
}
