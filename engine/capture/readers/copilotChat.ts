import path from 'node:path';
import type { CaptureEvent, ParsedRecord } from '../events';
import { isRecord, jsonRecord, text, timeOf, unusable } from '../events';
import { splitLines } from '../rawRecords';
import type { CaptureFormat } from './captureFormat';
import { responseDone, responseEvents, userTurn } from './copilotRequest';
import { splitJsonArray } from './jsonElements';
import { emptyState } from './readerState';
import type { ReaderState } from './readerState';

/**
 * GitHub Copilot Chat and VS Code's agent mode: the chat sessions VS Code keeps per workspace in
 * `workspaceStorage/<id>/chatSessions/<session id>.jsonl` (microsoft/vscode,
 * src/vs/workbench/contrib/chat/common/model/chatSessionStore.ts). The current file is a mutation
 * log (objectMutationLog.ts, chatSessionOperationLog.ts): a first line `{kind: 0, v: session}`,
 * then `{kind: 1, k: path, v}` (set), `{kind: 2, k: path, v: items, i}` (push, after cutting the
 * array to `i`) and `{kind: 3, k: path}` (delete), where a path is like `['requests', 3,
 * 'modelState']`; after 1,024 entries VS Code writes the file anew from one `kind: 0` line.
 * Older versions wrote `<session id>.json`, the whole session rewritten on each change.
 *
 * A request's user turn is taken when it appears, its response once it is over (its parts arrive
 * piecemeal, and Markdown is rewritten as it streams), each once however often the file repeats it.
 */
export const copilotLogFormat: CaptureFormat = {
  agent: 'copilot',
  split: splitLines,
  rewrite: 'compacted',
  initialState: sessionState,
  parse: parseLogLine,
};

/** The older whole-file `chatSessions/<session id>.json`: one record per request. */
export const copilotDocumentFormat: CaptureFormat = {
  agent: 'copilot',
  split: splitJsonArray('requests'),
  rewrite: 'whole',
  initialState: sessionState,
  parse: parseDocumentPart,
};

/** The one for a file: `.json` documents and `.jsonl` logs live side by side. */
export const copilotFormat: CaptureFormat = {
  ...copilotLogFormat,
  variant: (file) => (file.endsWith('.json') ? copilotDocumentFormat : copilotLogFormat),
};

interface CopilotState extends ReaderState {
  /** Request ids by index (the log names a request by its index). */
  requestIds?: string[];
  /** Requests whose response is not over, by index: what the log has set of them so far. */
  pending?: Record<string, Record<string, unknown>>;
  /** Requests whose user turn, and whose response, were taken. */
  asked?: string[];
  answered?: string[];
}

function sessionState(file: string): ReaderState {
  return emptyState(path.basename(file).replace(/\.jsonl?$/, ''));
}

const KEEP = 2000;
function once(list: string[], value: string): boolean {
  if (list.includes(value)) return false;
  list.push(value);
  if (list.length > KEEP) list.splice(0, list.length - KEEP);
  return true;
}

function parseLogLine(line: string, raw: ReaderState): ParsedRecord {
  const state = raw as CopilotState;
  const entry = jsonRecord(line);
  if (entry === undefined) return unusable(line, state);
  const events: CaptureEvent[] = [];
  const done = (status: ParsedRecord['status'] = 'understood'): ParsedRecord => ({
    sessionId: state.sessionId,
    status,
    events,
  });
  const kind = Number(entry['kind']);
  const key = Array.isArray(entry['k']) ? (entry['k'] as unknown[]) : [];
  if (kind === 0 && isRecord(entry['v'])) {
    const session = entry['v'];
    state.sessionId = text(session['sessionId']) ?? state.sessionId;
    state.requestIds = [];
    state.pending = {};
    events.push(...sessionFields(session));
    const requests = Array.isArray(session['requests']) ? session['requests'] : [];
    requests.forEach((r, i) => isRecord(r) && request(r, i, state, events));
    return done();
  }
  if (kind === 3) return done();
  if (kind !== 1 && kind !== 2) return done('unknown');
  if (key.length === 1 && key[0] === 'customTitle') {
    const title = text(entry['v']);
    if (title) events.push({ kind: 'session', agent: 'copilot', title });
    return done();
  }
  if (key[0] !== 'requests') return done(); // input state, responder name: nothing kept
  const ids = (state.requestIds ??= []);
  if (key.length === 1 && kind === 2) {
    const from = typeof entry['i'] === 'number' ? entry['i'] : ids.length;
    ids.length = Math.min(ids.length, from);
    const added = Array.isArray(entry['v']) ? entry['v'] : [];
    added.forEach((r, j) => isRecord(r) && request(r, from + j, state, events));
    return done();
  }
  const index = key[1];
  if (typeof index !== 'number') return done('unknown');
  if (key.length === 2 && kind === 1 && isRecord(entry['v'])) {
    request(entry['v'], index, state, events); // the request was replaced whole
    return done();
  }
  const id = ids[index];
  if (id !== undefined && (state.answered ?? []).includes(id)) return done(); // a vote, a follow-up
  const pending = (state.pending ??= {});
  const current = (pending[index] ??= { requestId: id });
  const field = key[2];
  if (key.length !== 3 || typeof field !== 'string') return done();
  if (kind === 1) current[field] = entry['v'];
  else {
    const list = Array.isArray(current[field]) ? (current[field] as unknown[]) : [];
    if (typeof entry['i'] === 'number') list.length = Math.min(list.length, entry['i']);
    if (Array.isArray(entry['v'])) list.push(...(entry['v'] as unknown[]));
    current[field] = list;
  }
  if (responseDone(current)) request(current, index, state, events);
  return done();
}

function parseDocumentPart(part: string, raw: ReaderState): ParsedRecord {
  const state = raw as CopilotState;
  const value = jsonRecord(part);
  if (value === undefined) return unusable(part, state);
  const events: CaptureEvent[] = [];
  if (typeof value['requestId'] === 'string' || value['message'] !== undefined) {
    const ids = (state.requestIds ??= []);
    const known = ids.indexOf(text(value['requestId']) ?? '');
    request(value, known === -1 ? ids.length : known, state, events);
  } else {
    state.sessionId = text(value['sessionId']) ?? state.sessionId;
    events.push(...sessionFields(value));
  }
  const at = timeOf(value['timestamp']);
  return { sessionId: state.sessionId, status: 'understood', events, ...(at === undefined ? {} : { at }) };
}

function sessionFields(session: Record<string, unknown>): CaptureEvent[] {
  const title = text(session['customTitle']);
  const at = timeOf(session['creationDate']);
  if (title === undefined && at === undefined && session['version'] === undefined) return [];
  return [
    {
      kind: 'session',
      agent: 'copilot',
      ...(title ? { title } : {}),
      ...(at === undefined ? {} : { at }),
    },
  ];
}

function request(
  value: Record<string, unknown>,
  index: number,
  state: CopilotState,
  events: CaptureEvent[],
): void {
  const id = text(value['requestId']) ?? `#${index}`;
  const ids = (state.requestIds ??= []);
  ids[index] = id;
  if (once((state.asked ??= []), id)) {
    const turn = userTurn(value);
    if (turn) events.push(turn);
  }
  const pending = (state.pending ??= {});
  if (!responseDone(value)) {
    pending[index] = value;
    return;
  }
  delete pending[index];
  if (!once((state.answered ??= []), id)) return;
  const model = text(value['modelId']);
  if (model && state.sessionId && state.models[state.sessionId] !== model) {
    state.models[state.sessionId] = model;
    events.push({ kind: 'session', agent: 'copilot', model });
  }
  events.push(...responseEvents(value, id).events);
}
